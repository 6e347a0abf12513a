package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the proxy needs to know of a sharded table's columns to place its rows: their order (an
 * INSERT without a column list gives every column in that order, so the key is found by its
 * position) and which is AUTO_INCREMENT when it is not the sharding column (orders.id of orders
 * sharded by cust_id: each shard's own counter would hand out the same ids, so rows that leave it
 * out get ids from the proxy's sequence instead). Learned from the default shard's
 * information_schema on a table's first insert, forgotten when any structure changes.
 */
public final class TableColumns {

    /**
     * A table's columns in order, its AUTO_INCREMENT column ("" when it has none), and the columns
     * whose DEFAULT draws from a sequence (MariaDB's {@code DEFAULT NEXTVAL(seq)}), with that default
     * as the server writes it: a row that leaves such a column out on a shard other than the default
     * one would draw from that shard's copy of the sequence, so the proxy draws there first.
     */
    record Shape(List<String> columns, String autoIncrement, Map<String, String> sequenceDefaults) {
        Shape {
            columns = List.copyOf(columns);
            sequenceDefaults = Collections.unmodifiableMap(new LinkedHashMap<>(sequenceDefaults));
        }

        /** The position of {@code column}, or -1. */
        int indexOf(String column) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).equalsIgnoreCase(column)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Called with the table's shape (null when the lookup failed: the error). */
    interface Callback {
        void done(Shape shape, ErrPacket error);
    }

    private final int defaultShard;
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, Shape>> bySchema = new ConcurrentHashMap<>();

    public TableColumns(int defaultShard) {
        this.defaultShard = defaultShard;
    }

    /** The table's shape if known, else null. */
    Shape cached(String schema, String table) {
        ConcurrentHashMap<String, Shape> tables = bySchema.get(schema.toLowerCase(Locale.ROOT));
        return tables == null ? null : tables.get(table.toLowerCase(Locale.ROOT));
    }

    /** The AUTO_INCREMENT column if known: null when not looked up yet, "" when there is none. */
    String cachedAutoIncrement(String schema, String table) {
        Shape shape = cached(schema, table);
        return shape == null ? null : shape.autoIncrement();
    }

    void lookup(String schema, String table, LoopResources loop, Callback callback) {
        Shape known = cached(schema, table);
        if (known != null) {
            callback.done(known, null);
            return;
        }
        String sql = "SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                + SqlLiterals.string(schema) + " AND TABLE_NAME = " + SqlLiterals.string(table)
                + " ORDER BY ORDINAL_POSITION";
        new MultiExchange(new SystemContext(loop), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                callback.done(null, r.errorPacket());
                return;
            }
            if (r.rows.isEmpty()) {
                callback.done(null, new ErrPacket(1146, "42S02", "Table '" + schema + "." + table + "' doesn't exist"));
                return;
            }
            List<String> columns = new ArrayList<>(r.rows.size());
            String auto = "";
            Map<String, String> sequenceDefaults = new LinkedHashMap<>();
            for (var row : r.rows) {
                columns.add(row.string(0));
                String extra = row.string(1);
                if (extra != null && extra.toLowerCase(Locale.ROOT).contains("auto_increment")) {
                    auto = row.string(0);
                }
                String defaultValue = row.string(2);
                if (defaultValue != null && defaultValue.toLowerCase(Locale.ROOT).contains("nextval(")) {
                    sequenceDefaults.put(row.string(0), defaultValue);
                }
            }
            Shape shape = new Shape(columns, auto, sequenceDefaults);
            bySchema.computeIfAbsent(schema.toLowerCase(Locale.ROOT), k -> new ConcurrentHashMap<>())
                    .put(table.toLowerCase(Locale.ROOT), shape);
            callback.done(shape, null);
        }).leg(defaultShard, sql.getBytes(StandardCharsets.UTF_8)).start();
    }

    /** A structure changed: every table is looked up again. */
    void forget() {
        bySchema.clear();
    }
}
