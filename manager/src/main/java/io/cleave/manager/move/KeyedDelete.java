package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes a move's rows on a shard whose clients write other rows of the same table, one primary
 * key per statement. A DELETE the server runs as a scan (a condition the index cannot answer, a
 * hash bucket or a placement; or a long IN list it finds cheaper to scan) locks each row it passes
 * over to evaluate it. At READ COMMITTED it lets go of a row that does not match, but not of one it
 * had to wait for (MariaDB 11.4 kept it): a client holding the next row and wanting that one then
 * deadlocks with the DELETE, and InnoDB picks the client, which changed fewer rows, as the victim.
 * So the rows are first picked by a plain SELECT (a consistent read, no locks), then deleted by
 * key, each statement a lookup of one row: only rows no client writes there are locked. The
 * statements go in batches (one round trip each, the shard links rewrite batches).
 */
final class KeyedDelete {

    private static final int KEYS_PER_BATCH = 500;

    private KeyedDelete() {
    }

    /** Rolls back after {@code failure}; a rollback that fails too is kept with it, not thrown in its place. */
    static void rollback(Connection shard, Exception failure) {
        try {
            shard.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    /** The primary key of the current row, its columns starting at {@code from}: bytes for binary columns. */
    static List<Object> key(TableShape shape, ResultSet rs, int from) throws SQLException {
        List<Object> key = new ArrayList<>(shape.primaryKey.length);
        for (int i = 0; i < shape.primaryKey.length; i++) {
            key.add(shape.binary[shape.primaryKey[i]] ? rs.getBytes(from + i) : rs.getString(from + i));
        }
        return key;
    }

    /**
     * Deletes the rows of {@code keys} that {@code rows} (a condition) still selects, in batches of
     * up to 500 keys; returns how many were deleted.
     */
    static long delete(Connection shard, TableShape shape, List<List<Object>> keys, String rows) throws SQLException {
        if (keys.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder("DELETE FROM ").append(shape.table.qualified()).append(" WHERE ")
                .append(rows);
        for (String column : shape.table.primaryKey) {
            sql.append(" AND ").append(Sql.quote(column)).append(" = ?");
        }
        long deleted = 0;
        try (PreparedStatement ps = shard.prepareStatement(sql.toString())) {
            for (int i = 0; i < keys.size(); i += KEYS_PER_BATCH) {
                for (List<Object> key : keys.subList(i, Math.min(keys.size(), i + KEYS_PER_BATCH))) {
                    for (int c = 0; c < key.size(); c++) {
                        TableShape.bind(ps, c + 1, key.get(c));
                    }
                    ps.addBatch();
                }
                for (int n : ps.executeBatch()) {
                    deleted += Math.max(n, 0);
                }
            }
        }
        return deleted;
    }
}
