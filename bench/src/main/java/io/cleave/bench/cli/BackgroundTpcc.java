package io.cleave.bench.cli;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.measure.ProcessCpu;
import io.cleave.bench.tpcc.run.ConnectionSource;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * TPC-C through the proxy in back-to-back 10 s runs while a command does something to the home (a
 * move, a backup), with each second's throughput on one timeline (seconds since {@link #origin()}),
 * so the command can compare the seconds before its operation with those during it.
 */
final class BackgroundTpcc {
    private final long origin = System.nanoTime();
    private final List<double[]> series = new ArrayList<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private final CompletableFuture<List<RunResult>> runs;

    BackgroundTpcc(DataSource proxy, int warehouses, int connections) {
        runs = CompletableFuture.supplyAsync(() -> {
            List<RunResult> results = new ArrayList<>();
            try {
                while (!done.get()) {
                    long runStart = System.nanoTime() - origin;
                    results.add(TpccDriver.run(ConnectionSource.of(proxy), RunOptions.of(warehouses, connections,
                        Duration.ofSeconds(10)).withReportInterval(Duration.ofSeconds(1)), "proxy",
                        (sample, so) -> record(runStart, sample)));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return results;
        });
    }

    /** The timeline's zero, as {@link System#nanoTime()}. */
    long origin() {
        return origin;
    }

    /** Seconds since the timeline's zero. */
    double now() {
        return (System.nanoTime() - origin) / 1e9;
    }

    /** Stops after the run under way; every run's result. */
    List<RunResult> stop() throws Exception {
        done.set(true);
        return runs.get(10, TimeUnit.MINUTES);
    }

    /** Mean tpmC of the seconds that ended within [from, to). */
    double mean(double from, double to) {
        double sum = 0;
        int n = 0;
        synchronized (series) {
            for (double[] p : series) {
                if (p[0] >= from && p[0] < to) {
                    sum += p[1];
                    n++;
                }
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The slowest second's tpmC within [from, to). */
    double min(double from, double to) {
        double min = Double.NaN;
        synchronized (series) {
            for (double[] p : series) {
                if (p[0] >= from && p[0] < to) {
                    min = Double.isNaN(min) ? p[1] : Math.min(min, p[1]);
                }
            }
        }
        return min;
    }

    /** CPU time (µs) of the home's daemon and shards and of this process with its children: what is not others'. */
    static long ourCpu(BenchHome h) {
        List<Long> pids = new ArrayList<>(h.shardPids());
        pids.add(h.daemonPid());
        return ProcessCpu.micros(pids) + ProcessCpu.selfAndChildrenMicros();
    }

    private void record(long runStartNanos, IntervalSample sample) {
        if (!sample.warmup()) {
            synchronized (series) {
                series.add(new double[] {runStartNanos / 1e9 + sample.endSeconds(), sample.tpmC()});
            }
        }
    }
}
