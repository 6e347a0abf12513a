package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which column of a sharded table is AUTO_INCREMENT, when it is not the sharding column (orders.id
 * of orders sharded by cust_id). Each shard's own counter would hand out the same ids, so rows
 * that leave that column out get ids from the proxy's sequence instead. Learned from the default
 * shard's information_schema on a table's first insert, forgotten when any structure changes.
 */
public final class AutoIncrementColumns {

    /** Called with the column, or null when the table has none (or the lookup failed: the error). */
    interface Callback {
        void done(String column, ErrPacket error);
    }

    /** Cached "no AUTO_INCREMENT column". */
    private static final String NONE = "";

    private final int defaultShard;
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, String>> bySchema = new ConcurrentHashMap<>();

    public AutoIncrementColumns(int defaultShard) {
        this.defaultShard = defaultShard;
    }

    /** The column if known: null when not looked up yet, "" when there is none. */
    String cached(String schema, String table) {
        ConcurrentHashMap<String, String> tables = bySchema.get(schema.toLowerCase(Locale.ROOT));
        return tables == null ? null : tables.get(table.toLowerCase(Locale.ROOT));
    }

    void lookup(String schema, String table, LoopResources loop, Callback callback) {
        String known = cached(schema, table);
        if (known != null) {
            callback.done(known.isEmpty() ? null : known, null);
            return;
        }
        String sql = "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = " + quote(schema)
                + " AND TABLE_NAME = " + quote(table) + " AND EXTRA LIKE '%auto_increment%'";
        new MultiExchange(new SystemContext(loop), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                callback.done(null, r.errorPacket());
                return;
            }
            String column = r.rows.isEmpty() ? NONE : r.rows.get(0).string(0);
            bySchema.computeIfAbsent(schema.toLowerCase(Locale.ROOT), k -> new ConcurrentHashMap<>())
                    .put(table.toLowerCase(Locale.ROOT), column);
            callback.done(column.isEmpty() ? null : column, null);
        }).leg(defaultShard, sql.getBytes(StandardCharsets.UTF_8)).start();
    }

    /** A structure changed: every table is looked up again. */
    void forget() {
        bySchema.clear();
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
