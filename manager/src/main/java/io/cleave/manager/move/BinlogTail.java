package io.cleave.manager.move;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.cleave.manager.daemon.ShardEndpoint;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Follows the source's row binlog from a position and collects the primary keys of the moving
 * keys' rows that changed (the catch-up applies them by reading those rows again from the source,
 * so applying is idempotent and needs no decoding of column values). A prepared XA branch's rows
 * are noted again when its XA COMMIT arrives: the binlog carries them at XA PREPARE, before the
 * source shows them.
 */
final class BinlogTail implements BinaryLogClient.EventListener, AutoCloseable {

    /** What changed since the last {@link #drain()}, and the binlog position it is complete up to. */
    record Batch(Map<TableShape, Set<List<Object>>> keys, BinlogPosition safe, long events) {
        boolean isEmpty() {
            return keys.isEmpty();
        }
    }

    private final BinaryLogClient client;
    private final Map<String, TableShape> tables = new HashMap<>();
    private final Map<Long, TableShape> tableIds = new HashMap<>();
    private final Map<String, Map<TableShape, Set<List<Object>>>> xaGroups = new HashMap<>();
    private Map<TableShape, Set<List<Object>>> pending = new LinkedHashMap<>();
    private String currentXa;
    private String file;
    private BinlogPosition reached;
    private BinlogPosition safe;
    private long pendingEvents;
    private long oldestPendingMillis;
    private long totalEvents;
    private volatile Exception failure;

    /** Follows the changes of {@code shapes}' rows that their placements watch. */
    BinlogTail(ShardEndpoint source, long serverId, BinlogPosition from, List<TableShape> shapes) {
        for (TableShape s : shapes) {
            tables.put(name(s.table.schema, s.table.table), s);
        }
        this.file = from.file();
        this.reached = from;
        this.safe = from;
        client = new BinaryLogClient(source.host(), source.port(), source.user(), source.secret());
        client.setServerId(serverId);
        client.setBinlogFilename(from.file());
        client.setBinlogPosition(from.position());
        client.setKeepAlive(false);
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        client.setEventDeserializer(deserializer);
        client.registerEventListener(this);
        client.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
                failure = ex;
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
                failure = ex;
            }

            @Override
            public void onDisconnect(BinaryLogClient c) {
                if (failure == null) {
                    failure = new IOException("the source's binlog stream ended");
                }
            }
        });
    }

    void start() throws IOException, TimeoutException {
        client.connect(TimeUnit.SECONDS.toMillis(10));
    }

    /** Throws what stopped the stream (the source went away), if anything did. */
    void check() throws IOException {
        Exception f = failure;
        if (f != null && !closed) {
            throw new IOException("catch-up lost the source's binlog: " + f.getMessage(), f);
        }
    }

    private volatile boolean closed;

    @Override
    public synchronized void onEvent(Event event) {
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        if (type == EventType.ROTATE) {
            RotateEventData r = event.getData();
            file = r.getBinlogFilename();
            reached = new BinlogPosition(file, r.getBinlogPosition());
            return;
        }
        totalEvents++;
        if (type == EventType.TABLE_MAP) {
            TableMapEventData t = event.getData();
            TableShape shape = tables.get(name(t.getDatabase(), t.getTable()));
            if (shape != null) {
                tableIds.put(t.getTableId(), shape);
            } else {
                tableIds.remove(t.getTableId());
            }
        } else if (EventType.isWrite(type)) {
            WriteRowsEventData w = event.getData();
            rows(tableIds.get(w.getTableId()), w.getIncludedColumns(), w.getRows());
        } else if (EventType.isUpdate(type)) {
            UpdateRowsEventData u = event.getData();
            TableShape shape = tableIds.get(u.getTableId());
            if (shape != null) {
                List<Serializable[]> images = new ArrayList<>();
                for (Map.Entry<Serializable[], Serializable[]> e : u.getRows()) {
                    images.add(e.getKey());
                    images.add(e.getValue());
                }
                rows(shape, u.getIncludedColumns(), images);
            }
        } else if (EventType.isDelete(type)) {
            DeleteRowsEventData d = event.getData();
            rows(tableIds.get(d.getTableId()), d.getIncludedColumns(), d.getRows());
        } else if (type == EventType.QUERY) {
            query(((QueryEventData) event.getData()).getSql());
        } else if (type == EventType.XA_PREPARE) {
            currentXa = null;
            markSafe(header);
        } else if (type == EventType.XID) {
            markSafe(header);
        }
        if (header.getNextPosition() > 0) {
            reached = new BinlogPosition(file, header.getNextPosition());
        }
    }

    private void query(String sql) {
        String s = sql.trim();
        String upper = s.length() > 12 ? s.substring(0, 12).toUpperCase(Locale.ROOT) : s.toUpperCase(Locale.ROOT);
        if (upper.startsWith("XA START")) {
            currentXa = xid(s, "XA START".length());
        } else if (upper.startsWith("XA COMMIT") || upper.startsWith("XA ROLLBACK")) {
            Map<TableShape, Set<List<Object>>> group = xaGroups.remove(xid(s, s.indexOf(' ', 3)));
            if (group != null) {
                group.forEach((t, keys) -> keys.forEach(k -> note(t, k)));
            }
        }
    }

    private static String xid(String sql, int from) {
        String rest = sql.substring(Math.max(0, from)).trim();
        return rest.replaceAll("(?i)\\s+ONE\\s+PHASE$", "");
    }

    private void markSafe(EventHeaderV4 header) {
        safe = new BinlogPosition(file, header.getNextPosition());
    }

    private void rows(TableShape shape, BitSet included, List<Serializable[]> images) {
        if (shape == null) {
            return;
        }
        int keyAt = shape.keyColumn < 0 ? -1 : position(included, shape.keyColumn);
        int[] pkAt = new int[shape.primaryKey.length];
        for (int i = 0; i < pkAt.length; i++) {
            pkAt[i] = position(included, shape.primaryKey[i]);
        }
        for (Serializable[] row : images) {
            if (shape.keyColumn >= 0 ? keyAt < 0 || !shape.placement.watches(row[keyAt]) : !shape.placement.watches(null)) {
                continue;
            }
            List<Object> pk = new ArrayList<>(pkAt.length);
            for (int at : pkAt) {
                pk.add(at < 0 ? null : value(row[at]));
            }
            note(shape, pk);
            if (currentXa != null) {
                xaGroups.computeIfAbsent(currentXa, x -> new LinkedHashMap<>())
                        .computeIfAbsent(shape, t -> new LinkedHashSet<>()).add(pk);
            }
        }
    }

    private void note(TableShape shape, List<Object> pk) {
        if (recording != null) {
            recording.computeIfAbsent(shape, t -> new LinkedHashSet<>()).add(pk);
        }
        if (pendingEvents++ == 0) {
            oldestPendingMillis = System.currentTimeMillis();
        }
        pending.computeIfAbsent(shape, t -> new LinkedHashSet<>()).add(pk);
    }

    private static Object value(Serializable v) {
        if (v instanceof Number n && !(v instanceof java.math.BigDecimal)) {
            return n.longValue();
        }
        return v instanceof byte[] ? v : v == null ? null : v.toString();
    }

    /** Index of column {@code column} in a row image that holds only the {@code included} columns. */
    private static int position(BitSet included, int column) {
        if (included == null) {
            return column;
        }
        if (!included.get(column)) {
            return -1;
        }
        return included.get(0, column).cardinality();
    }

    private Map<TableShape, Set<List<Object>>> recording;

    /** From now on, keeps every key that changes (until {@link #recorded(boolean)} with stop). */
    synchronized void startRecording() {
        recording = new LinkedHashMap<>();
    }

    /** The keys changed since recording started (a copy); {@code stop} ends the recording. */
    synchronized Map<TableShape, Set<List<Object>>> recorded(boolean stop) {
        Map<TableShape, Set<List<Object>>> copy = new LinkedHashMap<>();
        if (recording != null) {
            recording.forEach((t, keys) -> copy.put(t, new LinkedHashSet<>(keys)));
        }
        if (stop) {
            recording = null;
        }
        return copy;
    }

    /** Takes what changed so far. */
    synchronized Batch drain() {
        Map<TableShape, Set<List<Object>>> out = pending;
        pending = new LinkedHashMap<>();
        long events = pendingEvents;
        pendingEvents = 0;
        return new Batch(out, safe, events);
    }

    /** Whether every event up to {@code position} has been read. */
    synchronized boolean reached(BinlogPosition position) {
        return reached.compareTo(position) >= 0;
    }

    /** Waits until every event up to {@code position} has been read. */
    void awaitReached(BinlogPosition position, long timeoutMillis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!reached(position)) {
            check();
            if (System.nanoTime() > deadline) {
                throw new IOException("catch-up did not reach the source's binlog position " + position + " within "
                        + timeoutMillis + " ms");
            }
            Thread.sleep(1);
        }
    }

    synchronized long pendingEvents() {
        return pendingEvents;
    }

    synchronized double lagSeconds() {
        return pendingEvents == 0 ? 0 : (System.currentTimeMillis() - oldestPendingMillis) / 1000.0;
    }

    synchronized long totalEvents() {
        return totalEvents;
    }

    private static String name(String schema, String table) {
        return (schema + "." + table).toLowerCase(Locale.ROOT);
    }

    @Override
    public void close() {
        closed = true;
        try {
            client.disconnect();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
