package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.run.SqlErrors;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * One client of a workload on its own thread, through the proxy: runs units of work (a
 * transaction, an upsert, a read) one after another, each inside the {@link WorkloadGate}, until
 * the gate stops. An error is counted; a lost connection is dropped and opened again for the next
 * unit, after a short pause while the proxy does not answer (its daemon being restarted).
 * A client keeps up to two connections: its own and one to read back what it wrote.
 */
abstract class WorkloadClient implements Runnable {
    private static final long PAUSE_AFTER_LOST_MILLIS = 200;

    protected final String workload;
    protected final ChaosContext context;
    protected final SplittableRandom random;
    private final JdbcTarget target;
    private volatile Connection connection;
    private volatile Connection readBack;

    WorkloadClient(String workload, int index, ChaosContext context, JdbcTarget target) {
        this.workload = workload;
        this.context = context;
        this.target = target;
        this.random = new SplittableRandom(context.seed() * 1_000_003L + workload.hashCode() * 7_919L + index);
    }

    /** One unit of work; an exception it throws is counted as the client's error. */
    abstract void unit() throws SQLException;

    /** Prepares a connection it opened (autocommit, statements), before the first unit uses it. */
    void opened(Connection c) throws SQLException {
    }

    @Override
    public final void run() {
        try {
            while (context.gate().enter()) {
                try {
                    unit();
                } catch (SQLException e) {
                    failed(e);
                } catch (RuntimeException e) {
                    context.violations().add(context.clock().millis(), workload + " client failed: " + e);
                } finally {
                    context.gate().exit();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /** Counts the error; drops the connection when it is gone (and pauses, so a daemon down is not hammered). */
    void failed(SQLException e) {
        context.errors().add(context.clock().millis(), workload, e);
        if (SqlErrors.classify(e) == SqlErrors.Kind.CONNECTION_LOST) {
            lost();
            try {
                Thread.sleep(PAUSE_AFTER_LOST_MILLIS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    Connection connection() throws SQLException {
        Connection c = connection;
        if (c == null) {
            c = target.getConnection();
            try {
                opened(c);
            } catch (SQLException e) {
                closeQuietly(c);
                throw e;
            }
            connection = c;
        }
        return c;
    }

    /** A second connection (autocommit on) to read back what this client was told is written. */
    Connection readBack() throws SQLException {
        Connection c = readBack;
        if (c == null) {
            c = target.getConnection();
            readBack = c;
        }
        return c;
    }

    void lost() {
        closeQuietly(connection);
        connection = null;
    }

    void readBackLost() {
        closeQuietly(readBack);
        readBack = null;
    }

    /**
     * While the gate is paused (the client's thread waits in it): pings both connections and drops
     * a dead one. Returns how many stay open, which the proxy must count as its clients.
     */
    int validate() {
        int open = 0;
        if (connection != null) {
            if (alive(connection)) {
                open++;
            } else {
                lost();
            }
        }
        if (readBack != null) {
            if (alive(readBack)) {
                open++;
            } else {
                readBackLost();
            }
        }
        return open;
    }

    /** Whether the read of a write acknowledged at {@code ackMillis} missed it outside a fault's window. */
    void missed(long ackMillis, String what) {
        long now = context.clock().millis();
        if (context.timeline().disrupted(ackMillis, now)) {
            context.violations().excused();
        } else {
            context.violations().add(now, what);
        }
    }

    private static boolean alive(Connection c) {
        try {
            return c.isValid(5);
        } catch (SQLException e) {
            return false;
        }
    }

    private void close() {
        lost();
        readBackLost();
    }

    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // Closing a connection that is gone: nothing to do.
            }
        }
    }
}
