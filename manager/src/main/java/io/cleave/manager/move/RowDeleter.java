package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes a table's moved rows from one shard in primary-key-ordered chunks, sleeping between
 * chunks so the shard's own clients keep most of its throughput: the source's old rows after a
 * cutover, a target's copy when a move is cancelled or fails. Its connections come from
 * {@link ShardLinks#openForWrites}: a chunk's DELETE locks the rows it deletes, not those it passes.
 */
final class RowDeleter {

    interface ChunkListener {
        void deleted(long rows) throws InterruptedException;
    }

    private final MoveSettings settings;

    RowDeleter(MoveSettings settings) {
        this.settings = settings;
    }

    /** Deletes the rows {@code rows} (a condition) selects. */
    long delete(Connection shard, TableProgress table, String rows, ChunkListener listener)
            throws SQLException, InterruptedException {
        String sql = "DELETE FROM " + table.qualified() + " WHERE " + rows + " ORDER BY "
                + Sql.orderBy(table.primaryKey) + " LIMIT " + settings.chunkRows();
        long total = 0;
        while (true) {
            long started = System.nanoTime();
            int n;
            try (Statement s = shard.createStatement()) {
                n = s.executeUpdate(sql);
            }
            total += n;
            listener.deleted(n);
            if (n < settings.chunkRows()) {
                return total;
            }
            settings.throttle(System.nanoTime() - started);
        }
    }

    /**
     * Deletes from the source the rows its placement sends elsewhere, deciding row by row (a table
     * sharded by key keeps the rows of the buckets its old home holds).
     */
    long deleteLeaving(Connection source, TableShape shape, ChunkListener listener)
            throws SQLException, InterruptedException {
        TableProgress t = shape.table;
        String base = "SELECT " + Sql.orderBy(t.primaryKey) + ", " + Sql.quote(shape.columns.get(shape.keyColumn))
                + " FROM " + t.qualified();
        String order = " ORDER BY " + Sql.orderBy(t.primaryKey) + " LIMIT " + settings.chunkRows();
        int[] params = Sql.compareParameters(t.primaryKey.size());
        List<String> after = null;
        long total = 0;
        while (true) {
            long started = System.nanoTime();
            List<List<Object>> leaving = new ArrayList<>();
            int read = 0;
            try (PreparedStatement ps = source.prepareStatement(after == null ? base + order
                    : base + " WHERE " + Sql.after(t.primaryKey) + order)) {
                for (int i = 0; after != null && i < params.length; i++) {
                    ps.setString(i + 1, after.get(params[i]));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        read++;
                        List<Object> key = new ArrayList<>();
                        List<String> text = new ArrayList<>();
                        for (int i = 0; i < t.primaryKey.size(); i++) {
                            key.add(shape.binary[shape.primaryKey[i]] ? rs.getBytes(i + 1) : rs.getString(i + 1));
                            text.add(rs.getString(i + 1));
                        }
                        Object shardingKey = shape.binary[shape.keyColumn] ? rs.getBytes(t.primaryKey.size() + 1)
                                : rs.getString(t.primaryKey.size() + 1);
                        if (shape.placement.targetsOf(shardingKey).length > 0) {
                            leaving.add(key);
                        }
                        after = text;
                    }
                }
            }
            if (!leaving.isEmpty()) {
                try (PreparedStatement ps = source.prepareStatement("DELETE FROM " + t.qualified() + " WHERE "
                        + KeyApplier.keyList(t.primaryKey, leaving.size()))) {
                    KeyApplier.bindKeys(ps, leaving);
                    total += ps.executeUpdate();
                }
            }
            listener.deleted(leaving.size());
            if (read < settings.chunkRows()) {
                return total;
            }
            settings.throttle(System.nanoTime() - started);
        }
    }
}
