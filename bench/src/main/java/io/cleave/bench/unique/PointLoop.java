package io.cleave.bench.unique;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * One statement shape run by {@code threads} clients for a while, each on its own connection
 * (client-side prepared, so every execution is one COM_QUERY): the statements per second and the
 * latency percentiles of every execution. Statement {@code i} of a run gets the values
 * {@code values.apply(i)} (a global counter, so inserts never repeat a value).
 */
public final class PointLoop {

    /** What one run measured. */
    public record Result(String what, long statements, double seconds, long errors, double p50Ms, double p99Ms) {
        public double perSecond() {
            return statements / seconds;
        }
    }

    private PointLoop() {
    }

    public static Result run(String what, DataSource proxy, String sql, LongFunction<Object[]> values, int threads,
                             double seconds, AtomicLong counter) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long started = System.nanoTime();
        List<Future<long[]>> clients = new ArrayList<>();
        AtomicLong errors = new AtomicLong();
        for (int t = 0; t < threads; t++) {
            clients.add(pool.submit(() -> {
                long[] latencies = new long[1 << 16];
                int n = 0;
                try (Connection c = proxy.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
                    while (System.nanoTime() < end) {
                        Object[] v = values.apply(counter.incrementAndGet());
                        for (int i = 0; i < v.length; i++) {
                            ps.setObject(i + 1, v[i]);
                        }
                        long t0 = System.nanoTime();
                        try {
                            ps.execute();
                        } catch (SQLException e) {
                            errors.incrementAndGet();
                        }
                        if (n == latencies.length) {
                            latencies = Arrays.copyOf(latencies, n * 2);
                        }
                        latencies[n++] = System.nanoTime() - t0;
                    }
                }
                return Arrays.copyOf(latencies, n);
            }));
        }
        long[] all = new long[0];
        for (Future<long[]> f : clients) {
            long[] l = f.get();
            long[] merged = Arrays.copyOf(all, all.length + l.length);
            System.arraycopy(l, 0, merged, all.length, l.length);
            all = merged;
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        Arrays.sort(all);
        return new Result(what, all.length, elapsed, errors.get(), percentile(all, 0.50), percentile(all, 0.99));
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
