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
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
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
 * so applying is idempotent and needs no decoding of column values).
 *
 * <p>Keys are taken one transaction at a time, once its end is read: the rows events of a
 * transaction come before its commit, and the server lets binlog readers have a transaction's
 * events before the transaction is visible (see {@link KeyApplier}). An XA transaction's rows are
 * written to the binlog at its XA PREPARE, while readers of the source still see the rows as they
 * were; they are kept under the transaction's id and taken when its XA COMMIT arrives, which may
 * come much later, from another connection or from recovery after a restart (a batch names them
 * apart: the source may show an XA COMMIT later than its snapshots' binlog position says, see
 * {@link KeyApplier}). Neither MariaDB nor MySQL binlogs name the transaction where it begins
 * (MariaDB puts {@code XA START} into its GTID event), so the id comes from the XA PREPARE event
 * that ends the group.
 *
 * <p>The position a restarted catch-up may go on from ({@link Batch#safe()}) is the end of the
 * last transaction taken, but never past the start of an XA transaction prepared and not yet
 * settled: reading it again is how a restarted catch-up learns its keys before its XA COMMIT.
 */
final class BinlogTail implements BinaryLogClient.EventListener, AutoCloseable {

    /**
     * What changed since the last {@link #drain()}: the keys, those among them that an XA COMMIT
     * settled ({@code xaCommitted}), the position every transaction they came from ended before
     * ({@code upTo}: the source must show its commits up to there when they are read), the position
     * a restarted catch-up may go on from, and how many events.
     */
    record Batch(Map<TableShape, Set<List<Object>>> keys, Map<TableShape, Set<List<Object>>> xaCommitted,
                 BinlogPosition upTo, BinlogPosition safe, long events) {
        boolean isEmpty() {
            return keys.isEmpty();
        }
    }

    /** An XA transaction prepared on the source, not yet committed or rolled back: where it began, what it changed. */
    private record Prepared(BinlogPosition start, Map<TableShape, Set<List<Object>>> keys) {
    }

    private final BinaryLogClient client;
    private final Map<String, TableShape> tables = new HashMap<>();
    private final Map<Long, TableShape> tableIds = new HashMap<>();
    /** Keys the transaction being read changed so far (taken when it ends). */
    private Map<TableShape, Set<List<Object>>> transaction = new LinkedHashMap<>();
    private final Map<XaId, Prepared> prepared = new LinkedHashMap<>();
    private Map<TableShape, Set<List<Object>>> pending = new LinkedHashMap<>();
    /** The keys in {@link #pending} that an XA COMMIT of a prepared branch settled. */
    private Map<TableShape, Set<List<Object>>> pendingXa = new LinkedHashMap<>();
    private String file;
    private BinlogPosition reached;
    /** The end of the last transaction (or statement) read whole. */
    private BinlogPosition ended;
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
        this.ended = from;
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
            // A transaction never spans binlog files.
            ended = reached;
            return;
        }
        totalEvents++;
        BinlogPosition next = header.getNextPosition() > 0 ? new BinlogPosition(file, header.getNextPosition()) : null;
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
        } else if (type == EventType.XID) {
            committed(transaction);
            end(next);
        } else if (type == EventType.XA_PREPARE) {
            prepare(event.getData(), next);
        } else if (type == EventType.QUERY) {
            query(((QueryEventData) event.getData()).getSql(), next);
        }
        if (next != null) {
            reached = next;
        }
    }

    /** An XA transaction's rows are in the binlog; the source shows them once it commits. */
    private void prepare(XAPrepareEventData data, BinlogPosition next) {
        if (data.isOnePhase()) {
            // XA COMMIT ... ONE PHASE written as a prepare event marked one-phase: committed here.
            committed(transaction);
        } else if (!transaction.isEmpty()) {
            prepared.put(XaId.of(data), new Prepared(ended, transaction));
        }
        end(next);
    }

    private void query(String sql, BinlogPosition next) {
        String s = sql.trim();
        String upper = s.length() > 20 ? s.substring(0, 20).toUpperCase(Locale.ROOT) : s.toUpperCase(Locale.ROOT);
        if (upper.startsWith("BEGIN") || upper.startsWith("XA START") || upper.startsWith("XA END")
                || upper.startsWith("SAVEPOINT") || upper.startsWith("ROLLBACK TO")) {
            return;
        }
        if (upper.startsWith("XA COMMIT") || upper.startsWith("XA ROLLBACK")) {
            boolean commit = upper.startsWith("XA COMMIT");
            XaId id = XaId.parse(s.substring(commit ? "XA COMMIT".length() : "XA ROLLBACK".length()));
            Prepared p = id == null ? null : prepared.remove(id);
            if (commit && p != null) {
                committed(p.keys());
                p.keys().forEach((t, ks) -> pendingXa.computeIfAbsent(t, x -> new LinkedHashSet<>()).addAll(ks));
            }
            if (commit) {
                // An XA COMMIT ... ONE PHASE that follows the transaction's own rows (no XA PREPARE before it).
                committed(transaction);
            }
        } else {
            // COMMIT of a transaction that changed non-transactional tables, or a statement of its own.
            committed(transaction);
        }
        end(next);
    }

    /** A transaction (or statement) ended at {@code next}: what it changed was taken or filed. */
    private void end(BinlogPosition next) {
        transaction = new LinkedHashMap<>();
        if (next != null) {
            ended = next;
        }
    }

    private void committed(Map<TableShape, Set<List<Object>>> keys) {
        keys.forEach((t, ks) -> ks.forEach(k -> note(t, k)));
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
            transaction.computeIfAbsent(shape, t -> new LinkedHashSet<>()).add(pk);
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
        Map<TableShape, Set<List<Object>>> xa = pendingXa;
        pending = new LinkedHashMap<>();
        pendingXa = new LinkedHashMap<>();
        long events = pendingEvents;
        pendingEvents = 0;
        BinlogPosition safe = ended;
        for (Prepared p : prepared.values()) {
            if (p.start().compareTo(safe) < 0) {
                safe = p.start();
            }
        }
        return new Batch(out, xa, ended, safe, events);
    }

    /**
     * Puts back what {@link #drain()} took and the caller could not apply (the target refused a write: a lock wait
     * timed out, a deadlock): its keys are taken again with whatever changed since, so no change is dropped. The
     * keys are applied as the source has them when they are next taken, so taking them twice changes nothing.
     */
    synchronized void giveBack(Batch batch) {
        Map<TableShape, Set<List<Object>>> keys = new LinkedHashMap<>();
        batch.keys().forEach((t, k) -> keys.put(t, new LinkedHashSet<>(k)));
        pending.forEach((t, k) -> keys.computeIfAbsent(t, x -> new LinkedHashSet<>()).addAll(k));
        pending = keys;
        Map<TableShape, Set<List<Object>>> xa = new LinkedHashMap<>();
        batch.xaCommitted().forEach((t, k) -> xa.put(t, new LinkedHashSet<>(k)));
        pendingXa.forEach((t, k) -> xa.computeIfAbsent(t, x -> new LinkedHashSet<>()).addAll(k));
        pendingXa = xa;
        if (pendingEvents == 0 && batch.events() > 0) {
            oldestPendingMillis = System.currentTimeMillis();
        }
        pendingEvents += batch.events();
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
