package io.cleave.e2e.standby;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.run.ErrorStat;
import io.cleave.bench.tpcc.run.IntervalListener;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.RunStop;
import io.cleave.bench.tpcc.run.TpccDriver;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * TPC-C terminals through a proxy that the test can move to another: for as long as a test's steps last (ended by
 * {@link #stop}), in 100 ms report intervals whose gaps (no transaction completed) are kept. A terminal that lost its
 * connection opens the next one at the current proxy; {@link #retarget} also cuts the connections open to the old
 * one, as a client told where the primary now is would drop them (a fenced primary refuses writes on a connection
 * that stays up, and a host cut off leaves it hanging until the socket timeout).
 */
final class MovableTpcc implements AutoCloseable {

    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String password;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    /**
     * Per report interval, when the sampler read the counters (System.nanoTime()) and whether a transaction completed
     * since its previous read: the intervals abut at those reads whatever the sampler's delays on a loaded machine.
     */
    private final List<long[]> intervals = new CopyOnWriteArrayList<>();
    private final RunStop stop = new RunStop();
    private final CompletableFuture<RunResult> run;
    private volatile JdbcTarget target;
    private volatile long lastCompletion;

    private MovableTpcc(String proxy, String password, int warehouses, int terminals) {
        this.password = password;
        this.target = targetOf(proxy);
        IntervalListener gaps = (sample, soFar) -> recordInterval(sample);
        RunOptions options = RunOptions.of(warehouses, terminals, Duration.ofHours(1))
                .withReportInterval(Duration.ofNanos(INTERVAL_NANOS));
        run = CompletableFuture.supplyAsync(() -> {
            try {
                return TpccDriver.run(this::connect, options, "the primary's proxy", gaps, stop);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** {@code terminals} terminals over warehouses 1..{@code warehouses} through {@code proxy} (root, {@code password}). */
    static MovableTpcc start(String proxy, String password, int warehouses, int terminals) {
        return new MovableTpcc(proxy, password, warehouses, terminals);
    }

    private JdbcTarget targetOf(String proxy) {
        return new JdbcTarget("jdbc:mysql://" + proxy + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=2000&socketTimeout=10000", "root", password).withServerPreparedStatements();
    }

    private Connection connect() throws SQLException {
        Connection c = target.getConnection();
        open.add(c);
        return c;
    }

    /** Later connections go to {@code proxy}; those open now are cut, so their terminals reconnect there. */
    void retarget(String proxy) {
        target = targetOf(proxy);
        for (Connection c : open) {
            open.remove(c);
            try {
                c.abort(Runnable::run);
            } catch (SQLException e) {
                // Already closed: its terminal reconnects anyway.
            }
        }
    }

    private void recordInterval(IntervalSample sample) {
        long read = System.nanoTime();
        boolean served = sample.tps().values().stream().anyMatch(tps -> tps > 0);
        if (served) {
            lastCompletion = read;
        }
        intervals.add(new long[] {read, served ? 1 : 0});
    }

    /** Waits until a transaction completed after this call (or fails after {@code seconds}). */
    void awaitServing(int seconds) throws InterruptedException {
        long from = System.nanoTime();
        long deadline = from + TimeUnit.SECONDS.toNanos(seconds);
        while (lastCompletion <= from) {
            if (System.nanoTime() > deadline || run.isDone()) {
                String why = run.isDone()
                        ? ": " + run.handle((r, e) -> e == null ? r.errors().toString() : e.toString()).join() : "";
                throw new AssertionError("TPC-C completed no transaction within " + seconds + " s" + why);
            }
            Thread.sleep(50);
        }
    }

    /**
     * The longest stretch of consecutive report intervals without a completed transaction that ended after
     * {@code fromNanos} and began before {@code toNanos}, in ms (from the read before its first interval to the read
     * ending its last): 0 when TPC-C never stood still.
     */
    long longestGapMillis(long fromNanos, long toNanos) {
        long longest = 0;
        long previousRead = -1;
        long stillSince = -1;
        for (long[] interval : intervals) {
            long read = interval[0];
            boolean served = interval[1] == 1;
            boolean inRange = previousRead >= 0 && read > fromNanos && previousRead < toNanos;
            if (served || !inRange) {
                stillSince = -1;
            } else {
                if (stillSince < 0) {
                    stillSince = previousRead;
                }
                longest = Math.max(longest, read - stillSince);
            }
            previousRead = read;
        }
        return TimeUnit.NANOSECONDS.toMillis(longest);
    }

    /** Ends the run: what it measured. */
    RunResult stop() throws Exception {
        stop.stop();
        return run.get(2, TimeUnit.MINUTES);
    }

    /** One line for the log and bench/RESULTS.md. */
    static String summary(RunResult r) {
        return String.format(java.util.Locale.ROOT, "TPC-C %.0f tpmC over %.0f s, %d new orders, errors %d %s,"
                        + " reconnects %d", r.tpmC(), r.measuredSeconds(),
                r.transaction(io.cleave.bench.tpcc.txn.TransactionType.NEW_ORDER).completed(), r.totalErrors(),
                r.errors().stream().map(e -> e.code() + "/" + e.sqlState() + " x" + e.count() + " (" + e.firstMessage()
                        + ")").toList(), r.reconnects());
    }

    /** A connection cut (SQLSTATE class 08): by the loss, or by {@link #retarget}. */
    static boolean lostConnection(ErrorStat e) {
        return e.sqlState() != null && e.sqlState().startsWith("08");
    }

    /** The fenced primary's refusal of a write (1290, naming the fence). */
    static boolean fenced(ErrorStat e) {
        return "1290".equals(e.code()) && e.firstMessage().contains("fenced");
    }

    @Override
    public void close() throws Exception {
        if (!run.isDone()) {
            stop.stop();
            try {
                run.get(2, TimeUnit.MINUTES);
            } catch (Exception e) {
                // Closing after a failure: the failure is what the reader needs.
            }
        }
    }
}
