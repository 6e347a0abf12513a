package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A consistent snapshot of a source (a REPEATABLE READ transaction that sees everything up to one
 * binlog position) and that position. MariaDB tells the position of any snapshot
 * ({@code binlog_snapshot_file}); MySQL does not, so there the snapshot starts under a brief
 * FLUSH TABLES WITH READ LOCK, during which the binlog cannot move (the source account then needs
 * the RELOAD privilege).
 */
final class SourceSnapshot {

    /** Tests take the locking way on MariaDB too with {@code -Dcleave.move.snapshot_lock=true} (read at each snapshot). */
    static final String FORCE_LOCK = "cleave.move.snapshot_lock";
    /** How long FLUSH TABLES WITH READ LOCK may wait for running statements (writes wait meanwhile). */
    private static final int LOCK_WAIT_SECONDS = 3;

    private SourceSnapshot() {
    }

    /** Starts the snapshot on {@code c} (autocommit off, REPEATABLE READ, read only); returns its position. */
    static BinlogPosition start(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            c.setAutoCommit(false);
            if (!Boolean.getBoolean(FORCE_LOCK)) {
                s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
                BinlogPosition p = reported(s);
                if (p != null) {
                    return p;
                }
                c.rollback();
            }
            return underLock(s);
        }
    }

    /**
     * Starts a snapshot on {@code c} that shows every transaction the binlog holds up to
     * {@code position} (one whose commit is in the binlog may not be visible yet: the engine commits
     * it after the binlog has it), waiting for them up to {@code timeoutMillis}. Returns false, with
     * no snapshot open, when the server does not report its snapshots' binlog positions (MySQL).
     */
    static boolean startAtLeast(Connection c, BinlogPosition position, long timeoutMillis)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            while (true) {
                c.setAutoCommit(false);
                s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
                BinlogPosition p = reported(s);
                if (p != null && p.compareTo(position) >= 0) {
                    return true;
                }
                c.rollback();
                c.setAutoCommit(true);
                if (p == null) {
                    return false;
                }
                if (System.nanoTime() > deadline) {
                    throw new SQLException("the source still shows its binlog only up to " + p + ", not " + position
                            + ", after " + timeoutMillis + " ms");
                }
                Thread.sleep(1);
            }
        }
    }

    /** The position MariaDB reports for the session's snapshot, or null (MySQL). */
    private static BinlogPosition reported(Statement s) throws SQLException {
        String file = null;
        long position = -1;
        try (ResultSet rs = s.executeQuery(
                "SHOW STATUS WHERE Variable_name IN ('binlog_snapshot_file', 'binlog_snapshot_position')")) {
            while (rs.next()) {
                if (rs.getString(1).equalsIgnoreCase("binlog_snapshot_file")) {
                    file = rs.getString(2);
                } else {
                    position = rs.getLong(2);
                }
            }
        }
        return file == null || file.isEmpty() || position < 0 ? null : new BinlogPosition(file, position);
    }

    private static BinlogPosition underLock(Statement s) throws SQLException {
        s.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_SECONDS);
        try {
            s.execute("FLUSH TABLES WITH READ LOCK");
        } catch (SQLException e) {
            if (e.getErrorCode() == 1227 || e.getErrorCode() == 1045 || e.getErrorCode() == 1044) {
                throw new SQLException("a consistent snapshot of this server with its binlog position needs FLUSH TABLES"
                        + " WITH READ LOCK (it does not report binlog_snapshot_file, as MariaDB does): grant the RELOAD"
                        + " privilege to the account Cleave uses (" + e.getMessage() + ")", e.getSQLState(),
                        e.getErrorCode(), e);
            }
            throw e;
        }
        try {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            return BinlogPosition.current(s.getConnection());
        } finally {
            s.execute("UNLOCK TABLES");
        }
    }
}
