package io.cleave.manager.scale;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Resizes a running server's buffer pool with {@code SET GLOBAL innodb_buffer_pool_size} (no
 * restart) and waits until the resize is over.
 *
 * <p>Servers tell the end differently. MySQL and MariaDB before 10.11.12/11.4.6 resize in the
 * background: the SET sets the status to "Requested to resize buffer pool." at once, the status
 * names each step, and it ends in "Completed ..." (MariaDB names the size, MySQL a time). Later
 * MariaDB resizes inside the SET and leaves the status empty. So the resize is over when the
 * status no longer names a step in progress (empty, or a completion that is not an earlier
 * resize's); the size then is {@code @@innodb_buffer_pool_size}, rounded as the server rounds.
 */
public final class BufferPools {

    private static final long WAIT_MILLIS = 120_000;

    private BufferPools() {
    }

    /** Returns the size the server runs with afterwards. */
    public static long resize(Connection c, long bytes) throws SQLException, InterruptedException {
        try (Statement s = c.createStatement()) {
            long old = current(s);
            // Servers with chunks round the size up to a whole number of them (of every pool
            // instance, on MySQL); without (chunk size 0) the server's own rounding is read back.
            long unit = single(s, "SELECT @@GLOBAL.innodb_buffer_pool_chunk_size") * instances(s);
            if (unit > 0 && old == (bytes + unit - 1) / unit * unit || old == bytes) {
                return old;
            }
            s.execute("SET GLOBAL innodb_buffer_pool_size = " + bytes);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (System.nanoTime() < deadline) {
                long now = current(s);
                String status = resizeStatus(s);
                switch (state(status, now)) {
                    case DONE:
                        return now;
                    case FAILED:
                        throw new SQLException("the buffer pool resize to " + bytes + " bytes failed: " + status);
                    default:
                        TimeUnit.MILLISECONDS.sleep(100);
                }
            }
            throw new SQLException("the buffer pool resize to " + bytes + " bytes did not finish within "
                    + WAIT_MILLIS / 1000 + " s: " + resizeStatus(s));
        }
    }

    /** Where a resize whose SET has returned stands. */
    enum State { RUNNING, DONE, FAILED }

    /**
     * Where a resize whose SET has returned stands, by the server's resize status (null when the
     * server has none) and its {@code @@innodb_buffer_pool_size} now.
     */
    static State state(String status, long size) {
        String lower = status == null ? "" : status.trim().toLowerCase(Locale.ROOT);
        if (lower.isEmpty() || lower.startsWith("size did not change")) {
            return State.DONE;
        }
        if (lower.contains("failed")) {
            return State.FAILED;
        }
        // A completion that names a size is this resize's only when it names the size now.
        boolean completed = lower.startsWith("completed")
                && (!lower.contains(" bytes") || lower.contains("to " + size + " bytes"));
        return completed ? State.DONE : State.RUNNING;
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
