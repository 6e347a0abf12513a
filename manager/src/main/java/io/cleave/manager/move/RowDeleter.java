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
 * cutover, a target's copy when a move is cancelled or fails. Where other rows of the table stay
 * (and clients write them), each chunk's rows are picked first and deleted by key
 * ({@link KeyedDelete}); its connections come from {@link ShardLinks#openForWrites}.
 */
final class RowDeleter {

    interface ChunkListener {
        void deleted(long rows) throws InterruptedException;
    }

    private final MoveSettings settings;

    RowDeleter(MoveSettings settings) {
        this.settings = settings;
    }

    /** Deletes every row of the table: no row is passed over, so no row is locked that is not deleted. */
    long deleteAll(Connection shard, TableProgress table, ChunkListener listener) throws SQLException, InterruptedException {
        String sql = "DELETE FROM " + table.qualified() + " ORDER BY " + Sql.orderBy(table.primaryKey) + " LIMIT "
                + settings.chunkRows();
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

    /** Deletes the rows {@code rows} (a condition) selects. */
    long delete(Connection shard, TableShape shape, String rows, ChunkListener listener)
            throws SQLException, InterruptedException {
        return deleteByKey(shard, shape, rows, false, listener);
    }

    /**
     * Deletes from the source the rows its placement sends elsewhere, deciding row by row (a table
     * sharded by key keeps the rows of the buckets its old home holds).
     */
    long deleteLeaving(Connection source, TableShape shape, ChunkListener listener)
            throws SQLException, InterruptedException {
        return deleteByKey(source, shape, Placement.ALL_ROWS, true, listener);
    }

    /**
     * Reads chunks of the rows {@code rows} selects in primary-key order (with the sharding key when
     * the placement decides), and deletes those that leave by key.
     */
    private long deleteByKey(Connection shard, TableShape shape, String rows, boolean byPlacement,
                             ChunkListener listener) throws SQLException, InterruptedException {
        TableProgress t = shape.table;
        int keyColumns = t.primaryKey.size();
        String base = "SELECT " + Sql.orderBy(t.primaryKey) + (byPlacement ? ", "
                + Sql.quote(shape.columns.get(shape.keyColumn)) : "") + " FROM " + t.qualified() + " WHERE " + rows;
        String order = " ORDER BY " + Sql.orderBy(t.primaryKey) + " LIMIT " + settings.chunkRows();
        int[] params = Sql.compareParameters(keyColumns);
        List<String> after = null;
        long total = 0;
        while (true) {
            long started = System.nanoTime();
            List<List<Object>> leaving = new ArrayList<>();
            int read = 0;
            try (PreparedStatement ps = shard.prepareStatement(after == null ? base + order
                    : base + " AND " + Sql.after(t.primaryKey) + order)) {
                for (int i = 0; after != null && i < params.length; i++) {
                    ps.setString(i + 1, after.get(params[i]));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        read++;
                        List<String> text = new ArrayList<>(keyColumns);
                        for (int i = 1; i <= keyColumns; i++) {
                            text.add(rs.getString(i));
                        }
                        after = text;
                        if (byPlacement) {
                            Object shardingKey = shape.binary[shape.keyColumn] ? rs.getBytes(keyColumns + 1)
                                    : rs.getString(keyColumns + 1);
                            if (shape.placement.targetsOf(shardingKey).length == 0) {
                                continue;
                            }
                        }
                        leaving.add(KeyedDelete.key(shape, rs, 1));
                    }
                }
            }
            total += deleteInOneTransaction(shard, shape, leaving, rows);
            listener.deleted(leaving.size());
            if (read < settings.chunkRows()) {
                return total;
            }
            settings.throttle(System.nanoTime() - started);
        }
    }

    /** A chunk's rows go in one commit: one statement per row, each its own commit, would flush the logs per row. */
    private static long deleteInOneTransaction(Connection shard, TableShape shape, List<List<Object>> keys, String rows)
            throws SQLException {
        if (keys.isEmpty()) {
            return 0;
        }
        shard.setAutoCommit(false);
        try {
            long deleted = KeyedDelete.delete(shard, shape, keys, rows);
            shard.commit();
            return deleted;
        } catch (SQLException | RuntimeException e) {
            KeyedDelete.rollback(shard, e);
            throw e;
        } finally {
            shard.setAutoCommit(true);
        }
    }
}
