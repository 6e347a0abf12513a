package io.cleave.bench.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A client that reads one row of the moving keys through the proxy every few milliseconds and
 * keeps each statement's start and latency: its slowest statements during a cutover are the pause
 * a client sees. Errors are kept too (a move must cause none).
 */
public final class LatencyProbe implements AutoCloseable {
    /** One statement: when it started (ns since the probe started) and how long it took. */
    public record Sample(long startNanos, long latencyNanos) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final Thread thread;
    private final long origin;
    private volatile boolean stop;

    public LatencyProbe(DataSource proxy, String sql, long origin) {
        this.origin = origin;
        this.thread = new Thread(() -> run(proxy, sql), "move-probe");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(DataSource proxy, String sql) {
        while (!stop) {
            try (Connection c = proxy.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
                while (!stop) {
                    long start = System.nanoTime();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rs.getString(1);
                        }
                    }
                    long end = System.nanoTime();
                    synchronized (samples) {
                        samples.add(new Sample(start - origin, end - start));
                    }
                    Thread.sleep(5);
                }
            } catch (SQLException e) {
                synchronized (errors) {
                    errors.add(e.getErrorCode() + " " + e.getMessage());
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The slowest statement that started within {@code [from, to)} (ns since the origin), or 0. */
    public long maxLatency(long from, long to) {
        long max = 0;
        synchronized (samples) {
            for (Sample s : samples) {
                if (s.startNanos() >= from && s.startNanos() < to) {
                    max = Math.max(max, s.latencyNanos());
                }
            }
        }
        return max;
    }

    public List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join(10_000);
    }
}
