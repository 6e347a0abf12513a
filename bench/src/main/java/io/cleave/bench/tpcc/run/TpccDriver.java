package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Runs the TPC-C mix: one terminal thread per connection, all connected and prepared before the
 * clock starts; the calling thread keeps time and samples the counters once per report interval.
 */
public final class TpccDriver {
    /** How long terminals get to finish the transaction in flight when time is up. */
    private static final long STOP_GRACE_MILLIS = 30_000;

    private TpccDriver() {
    }

    public static RunResult run(DataSource dataSource, RunOptions options) throws SQLException {
        return run(ConnectionSource.of(dataSource), options, "", IntervalListener.NONE);
    }

    public static RunResult run(ConnectionSource source, RunOptions options) throws SQLException {
        return run(source, options, "", IntervalListener.NONE);
    }

    /** target only labels the result (e.g. the JDBC URL without credentials). */
    public static RunResult run(ConnectionSource source, RunOptions options, String target,
                                IntervalListener listener) throws SQLException {
        return run(source, options, target, listener, new RunStop());
    }

    /** As above, ended early by {@code stop} if that comes before the duration is up. */
    public static RunResult run(ConnectionSource source, RunOptions options, String target,
                                IntervalListener listener, RunStop stop) throws SQLException {
        return run(ExecutorFactory.preparedOn(source, options.isolation()), options, target, listener, stop);
    }

    static RunResult run(ExecutorFactory factory, RunOptions options, String target, IntervalListener listener)
        throws SQLException {
        return run(factory, options, target, listener, new RunStop());
    }

    static RunResult run(ExecutorFactory factory, RunOptions options, String target, IntervalListener listener,
                         RunStop stop) throws SQLException {
        NURandConstants loadConstants = NURandConstants.forLoad(options.loadSeed());
        NURandConstants runConstants = NURandConstants.forRun(loadConstants, new TpccRandom(options.seed()));
        LiveCounters live = new LiveCounters();
        CountDownLatch ready = new CountDownLatch(options.connections());
        CountDownLatch go = new CountDownLatch(1);
        List<Terminal> terminals = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < options.connections(); i++) {
            Terminal terminal = new Terminal(i, factory, options, runConstants, live, ready, go);
            Thread thread = new Thread(terminal, "tpcc-terminal-" + (i + 1));
            thread.setDaemon(true);
            terminals.add(terminal);
            threads.add(thread);
            thread.start();
        }
        awaitUninterruptibly(ready);
        SQLException startFailure = firstStartFailure(terminals);
        if (startFailure != null) {
            go.countDown();
            joinAll(threads, terminals);
            throw startFailure;
        }

        String startedAt = Instant.now().toString();
        long start = System.nanoTime();
        long measureStart = start + options.warmup().toNanos();
        MeasurementWindow window = new MeasurementWindow(start, measureStart, measureStart + options.duration().toNanos());
        stop.attach(window);
        terminals.forEach(t -> t.start(window));
        go.countDown();
        List<IntervalSample> series = sample(window, options, live, listener);
        joinAll(threads, terminals);

        TerminalStats total = new TerminalStats();
        terminals.forEach(t -> t.stats().addTo(total));
        // The duration, or less when stopped early (nothing measured when stopped in the warm-up).
        double minutes = window.measuredSeconds() / 60;
        long completed = 0;
        for (TransactionType type : TransactionType.values()) {
            completed += total.completed(type);
        }
        return new RunResult(options.label(), target, startedAt, RunConfig.of(options),
            window.measuredSeconds(), minutes > 0 ? total.completed(TransactionType.NEW_ORDER) / minutes : 0,
            minutes > 0 ? completed / minutes : 0, total.summaries(), total.errors(), total.retriesByCode(), total.reconnects(), series);
    }

    /**
     * Sleeps from tick to tick until the window ends; a last, shorter interval closes the run (a stop's end, when it
     * came during the sleep).
     */
    private static List<IntervalSample> sample(MeasurementWindow window, RunOptions options, LiveCounters live,
                                               IntervalListener listener) {
        long interval = options.reportInterval().toNanos();
        List<IntervalSample> series = new ArrayList<>();
        LiveCounters.Snapshot previous = live.snapshot();
        long previousAt = window.startNanos();
        for (long tick = window.startNanos() + interval; previousAt < window.endNanos(); tick += interval) {
            sleepUntil(Math.min(tick, window.endNanos()));
            long at = Math.max(previousAt, Math.min(tick, window.endNanos()));
            LiveCounters.Snapshot now = live.snapshot();
            double seconds = (at - previousAt) / 1e9;
            Map<TransactionType, Double> tps = new EnumMap<>(TransactionType.class);
            for (TransactionType type : TransactionType.values()) {
                tps.put(type, (now.completed()[type.ordinal()] - previous.completed()[type.ordinal()]) / seconds);
            }
            IntervalSample sample = new IntervalSample(window.secondsFromMeasureStart(at), seconds,
                at <= window.measureStartNanos(), tps.get(TransactionType.NEW_ORDER) * 60, tps,
                now.errors() - previous.errors());
            series.add(sample);
            double measuredMinutes = Math.max(0, at - window.measureStartNanos()) / 60e9;
            listener.onInterval(sample, measuredMinutes > 0 ? now.measuredNewOrders() / measuredMinutes : 0);
            previous = now;
            previousAt = at;
        }
        return series;
    }

    private static void joinAll(List<Thread> threads, List<Terminal> terminals) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MILLIS);
        for (int i = 0; i < threads.size(); i++) {
            Thread thread = threads.get(i);
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (thread.isAlive()) {
                    terminals.get(i).abort();
                    thread.interrupt();
                    thread.join(5_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static SQLException firstStartFailure(List<Terminal> terminals) {
        for (Terminal terminal : terminals) {
            if (terminal.startFailure() != null) {
                return terminal.startFailure();
            }
        }
        return null;
    }

    private static void sleepUntil(long nanoTime) {
        long remaining;
        while ((remaining = nanoTime - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
