package io.cleave.bench.cuts;

import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.compare.WorkloadResult;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * Readers summing {@code k} over sysbench's sbtest1, hashed over every shard (each read a merged
 * read of all of them), alone or while writers move amounts between two random rows of the table in
 * one transaction each (most pairs on two shards: a two-phase commit). The total never changes, so
 * a sum that differs from it is a torn read. Throughput is reads per second, the latency a read's;
 * each measured run is also kept as a {@link CutRun} with the COMMIT latency and the daemon's cut
 * meters (the commits' waits behind cuts, the windows).
 */
public final class CutReadsWorkload implements Workload {

    static final String TABLE = "sbtest1";

    private final boolean writers;
    private final int readerThreads;
    private final int writerThreads;
    private final int rows;
    private final List<CutRun> runs = new ArrayList<>();
    private final Map<String, Integer> rounds = new HashMap<>();

    /** Readers alone ({@code writerThreads} 0) or with writers; rows: sbtest1's ids are 1..rows. */
    public CutReadsWorkload(int readerThreads, int writerThreads, int rows) {
        this.writers = writerThreads > 0;
        this.readerThreads = readerThreads;
        this.writerThreads = writerThreads;
        this.rows = rows;
    }

    @Override
    public String name() {
        return writers ? "sums_during_transfers" : "sums";
    }

    @Override
    public String unit() {
        return "reads/s";
    }

    /** The measured runs so far, in the order they ran. */
    public synchronized List<CutRun> runs() {
        return List.copyOf(runs);
    }

    @Override
    public WorkloadResult run(BenchHome home, Configuration c, Duration time, String label) throws Exception {
        JdbcTarget target = home.proxy(SysbenchDataset.DATABASE);
        long total = sum(target);
        String before = home.metrics();
        ExecutorService pool = Executors.newFixedThreadPool(readerThreads + writerThreads, r -> {
            Thread t = new Thread(r, "cut-bench-client");
            t.setDaemon(true);
            return t;
        });
        try {
            long started = System.nanoTime();
            long deadline = started + time.toNanos();
            List<Future<Tally>> clients = new ArrayList<>();
            for (int i = 0; i < readerThreads; i++) {
                clients.add(pool.submit(() -> read(target, total, deadline)));
            }
            for (int i = 0; i < writerThreads; i++) {
                SplittableRandom random = new SplittableRandom(label.hashCode() * 31L + i);
                clients.add(pool.submit(() -> write(target.withServerPreparedStatements(), deadline, random)));
            }
            Tally all = new Tally();
            for (Future<Tally> f : clients) {
                all.add(f.get());
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            CutMetricsDelta cuts = CutMetricsDelta.between(before, home.metrics());
            long after = sum(target);
            if (after != total) {
                throw new IllegalStateException("SUM(k) of " + TABLE + " went from " + total + " to " + after
                    + ": a transfer was applied in part");
            }
            long reads = all.reads.getTotalCount();
            if (!label.endsWith("warm-up")) {
                record(c, seconds, all, cuts);
            }
            long statements = reads + 4 * all.commits.getTotalCount();
            return new WorkloadResult(seconds, reads, statements, reads / seconds, LatencySummary.ofMicros(all.reads),
                List.of(), all.readErrors + all.writeErrors, null);
        } finally {
            pool.shutdownNow();
        }
    }

    private synchronized void record(Configuration c, double seconds, Tally all, CutMetricsDelta cuts) {
        int round = rounds.merge(c.label(), 1, Integer::sum);
        runs.add(new CutRun(c.label(), name(), round, seconds, all.reads.getTotalCount(), all.torn,
            LatencySummary.ofMicros(all.reads), all.commits.getTotalCount(), all.writeErrors,
            LatencySummary.ofMicros(all.commits), cuts));
    }

    /** What the client threads saw, merged at the end. */
    private static final class Tally {
        final Histogram reads = LatencySummary.newMicrosHistogram();
        final Histogram commits = LatencySummary.newMicrosHistogram();
        long torn;
        long readErrors;
        long writeErrors;

        void add(Tally other) {
            reads.add(other.reads);
            commits.add(other.commits);
            torn += other.torn;
            readErrors += other.readErrors;
            writeErrors += other.writeErrors;
        }
    }

    private static Tally read(JdbcTarget target, long total, long deadline) throws SQLException {
        Tally t = new Tally();
        try (Connection c = target.getConnection(); Statement s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                long start = System.nanoTime();
                try (ResultSet rs = s.executeQuery("SELECT SUM(k) FROM " + TABLE)) {
                    rs.next();
                    long sum = rs.getLong(1);
                    t.reads.recordValue(micros(System.nanoTime() - start));
                    if (sum != total) {
                        t.torn++;
                    }
                } catch (SQLException e) {
                    t.readErrors++;
                }
            }
        }
        return t;
    }

    /**
     * Transfers: one unit of k from one random row to another, the lower id updated first so
     * writers never deadlock one another; a transaction that fails anyway is rolled back and counted.
     */
    private Tally write(JdbcTarget target, long deadline, SplittableRandom random) throws SQLException {
        Tally t = new Tally();
        String update = "UPDATE " + TABLE + " SET k = k + ? WHERE id = ?";
        try (Connection c = target.getConnection(); Statement s = c.createStatement();
             java.sql.PreparedStatement u = c.prepareStatement(update)) {
            while (System.nanoTime() < deadline) {
                int a = 1 + random.nextInt(rows);
                int b = 1 + random.nextInt(rows);
                if (a == b) {
                    continue;
                }
                try {
                    s.execute("BEGIN");
                    u.setLong(1, -1);
                    u.setInt(2, Math.min(a, b));
                    u.executeUpdate();
                    u.setLong(1, 1);
                    u.setInt(2, Math.max(a, b));
                    u.executeUpdate();
                    long commit = System.nanoTime();
                    s.execute("COMMIT");
                    t.commits.recordValue(micros(System.nanoTime() - commit));
                } catch (SQLException e) {
                    t.writeErrors++;
                    s.execute("ROLLBACK");
                }
            }
        }
        return t;
    }

    private static long sum(JdbcTarget target) throws SQLException {
        try (Connection c = target.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT SUM(k) FROM " + TABLE)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long micros(long nanos) {
        return Math.max(1, (nanos + 999) / 1000);
    }
}
