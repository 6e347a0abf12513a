package io.cleave.bench.online;

import io.cleave.bench.compare.ThroughputPoint;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import io.cleave.bench.sysbench.SysbenchOutput;
import io.cleave.bench.sysbench.SysbenchTarget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * sysbench run again and again in short runs through one target until stopped, so a benchmark can
 * run it across an operation of unknown length: every run's per-second transaction rate on one
 * time axis (seconds since {@code origin}), its transactions and the errors it counted. A run that
 * fails (sysbench exits on an error it does not ignore) counts as an error and the loop goes on.
 */
public final class SysbenchLoop implements AutoCloseable {

    private static final Duration RUN = Duration.ofSeconds(10);

    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<ThroughputPoint> series = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Thread thread;
    private long transactions;
    private long errors;

    public SysbenchLoop(Sysbench sysbench, SysbenchTarget target, SysbenchOptions options, long origin) {
        thread = new Thread(() -> {
            while (!stop.get()) {
                double start = (System.nanoTime() - origin) / 1e9;
                try {
                    SysbenchOutput out = sysbench.run(target, options, RUN);
                    synchronized (this) {
                        for (ThroughputPoint p : out.tpsSeries()) {
                            series.add(new ThroughputPoint(start + p.endSeconds(), p.value()));
                        }
                        transactions += out.transactions();
                        errors += out.errors() + out.reconnects();
                    }
                } catch (RuntimeException e) {
                    synchronized (this) {
                        errors++;
                        failures.add(e.getMessage());
                    }
                }
            }
        }, "sysbench-loop");
        thread.setDaemon(true);
        thread.start();
    }

    /** The mean transaction rate over (from, to] seconds, NaN when no interval ended there. */
    public synchronized double mean(double from, double to) {
        double sum = 0;
        int n = 0;
        for (ThroughputPoint p : series) {
            if (p.endSeconds() > from && p.endSeconds() <= to) {
                sum += p.value();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The lowest one-second rate over (from, to], NaN when no interval ended there. */
    public synchronized double min(double from, double to) {
        double min = Double.NaN;
        for (ThroughputPoint p : series) {
            if (p.endSeconds() > from && p.endSeconds() <= to) {
                min = Double.isNaN(min) ? p.value() : Math.min(min, p.value());
            }
        }
        return min;
    }

    public synchronized long transactions() {
        return transactions;
    }

    /** sysbench's ignored errors and reconnects, and failed runs. */
    public synchronized long errors() {
        return errors;
    }

    public synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    /** Stops after the run under way ends. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
    }
}
