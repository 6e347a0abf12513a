package io.cleave.manager.scale;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Resizes a running server's buffer pool with {@code SET GLOBAL innodb_buffer_pool_size} (no
 * restart) and waits until the server says it finished.
 */
final class BufferPools {

    private static final long WAIT_MILLIS = 120_000;

    private BufferPools() {
    }

    /** Returns the size the server runs with afterwards. */
    static long resize(Connection c, long bytes) throws SQLException, InterruptedException {
        try (Statement s = c.createStatement()) {
            long old = current(s);
            // The server rounds the size up to a whole number of chunks (of every pool instance, on MySQL).
            long unit = single(s, "SELECT @@GLOBAL.innodb_buffer_pool_chunk_size") * instances(s);
            long expected = unit <= 0 ? bytes : (bytes + unit - 1) / unit * unit;
            if (old == expected) {
                return old;
            }
            s.execute("SET GLOBAL innodb_buffer_pool_size = " + bytes);
            // The resize runs in the background until the status says it completed: MariaDB names
            // the new size, MySQL a time.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (System.nanoTime() < deadline) {
                long now = current(s);
                String status = resizeStatus(s);
                String lower = status == null ? "" : status.toLowerCase(Locale.ROOT);
                boolean completed = lower.startsWith("completed") && (lower.contains("to " + now + " bytes")
                        || !lower.contains(" bytes"));
                if (now != old && (status == null || completed)) {
                    return now;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            throw new SQLException("the buffer pool resize to " + bytes + " bytes did not finish within "
                    + WAIT_MILLIS / 1000 + " s: " + resizeStatus(s));
        }
    }

    private static long current(Statement s) throws SQLException {
        return single(s, "SELECT @@GLOBAL.innodb_buffer_pool_size");
    }

    private static long instances(Statement s) {
        try {
            return Math.max(1, single(s, "SELECT @@GLOBAL.innodb_buffer_pool_instances"));
        } catch (SQLException e) {
            return 1; // MariaDB 10.6 and later have one pool
        }
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String resizeStatus(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'")) {
            return rs.next() ? rs.getString(2) : null;
        }
    }
}
