package io.cleave.e2e.backup;

import io.cleave.e2e.support.RunningDaemon;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Updates random rows of a table {@code (id, v)} with ids 1..rows through the proxy, one autocommit
 * statement at a time, until paused or closed: paused around a recorded cut, the rows read through
 * the proxy then are the rows of that cut.
 */
final class RowUpdates implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicBoolean idle = new AtomicBoolean();
    private final Thread thread;
    volatile long updates;
    volatile long errors;

    RowUpdates(RunningDaemon daemon, String db, String table, int rows) {
        thread = new Thread(() -> {
            Random random = new Random(3);
            try (Connection c = daemon.connectProxy(db, ""); Statement s = c.createStatement()) {
                while (!stop.get()) {
                    if (paused.get()) {
                        idle.set(true);
                        Thread.sleep(2);
                        continue;
                    }
                    idle.set(false);
                    try {
                        s.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = " + (1 + random.nextInt(rows)));
                        updates++;
                    } catch (SQLException e) {
                        errors++;
                    }
                }
            } catch (SQLException | InterruptedException e) {
                errors++;
            }
        }, table + "-updates");
        thread.start();
    }

    /** Every row's {@code v} by id, each id read once (a second read of one fails the test). */
    static Map<Long, Long> read(Connection c, String table) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, v FROM " + table)) {
            while (rs.next()) {
                if (out.put(rs.getLong(1), rs.getLong(2)) != null) {
                    throw new AssertionError("id " + rs.getLong(1) + " of " + table + " read twice");
                }
            }
        }
        return out;
    }

    /** Returns once no update is under way. */
    void pause() throws InterruptedException {
        idle.set(false);
        paused.set(true);
        while (!idle.get() && thread.isAlive()) {
            Thread.sleep(2);
        }
    }

    void resume() {
        paused.set(false);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
    }
}
