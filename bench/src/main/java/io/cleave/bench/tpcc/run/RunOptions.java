package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.load.LoadOptions;
import java.time.Duration;

/**
 * How to drive the workload. Only transactions that complete inside the measurement window
 * [warmup, warmup + duration) count toward the result; the warm-up still shows in the series.
 * loadSeed must be the seed the data was loaded with: the run derives the load's C_LAST from it.
 */
public record RunOptions(int warehouses, int connections, Duration duration, Duration warmup,
                         Duration reportInterval, IsolationLevel isolation, long seed, long loadSeed,
                         int maxRetries, String label) {
    public static final long DEFAULT_SEED = 1L;

    public RunOptions {
        if (warehouses < 1) {
            throw new IllegalArgumentException("warehouses must be at least 1: " + warehouses);
        }
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be at least 1: " + connections);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative: " + warmup);
        }
        if (reportInterval.isNegative() || reportInterval.isZero()) {
            throw new IllegalArgumentException("report interval must be positive: " + reportInterval);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative: " + maxRetries);
        }
    }

    /** Defaults: no warm-up, 10 s reports, REPEATABLE READ, up to 10 retries per transaction. */
    public static RunOptions of(int warehouses, int connections, Duration duration) {
        return new RunOptions(warehouses, connections, duration, Duration.ZERO, Duration.ofSeconds(10),
            IsolationLevel.REPEATABLE_READ, DEFAULT_SEED, LoadOptions.DEFAULT_SEED, 10, "tpcc");
    }

    public RunOptions withWarmup(Duration value) {
        return new RunOptions(warehouses, connections, duration, value, reportInterval, isolation, seed, loadSeed,
            maxRetries, label);
    }

    public RunOptions withReportInterval(Duration value) {
        return new RunOptions(warehouses, connections, duration, warmup, value, isolation, seed, loadSeed,
            maxRetries, label);
    }

    public RunOptions withIsolation(IsolationLevel value) {
        return new RunOptions(warehouses, connections, duration, warmup, reportInterval, value, seed, loadSeed,
            maxRetries, label);
    }

    public RunOptions withSeeds(long runSeed, long dataSeed) {
        return new RunOptions(warehouses, connections, duration, warmup, reportInterval, isolation, runSeed,
            dataSeed, maxRetries, label);
    }

    public RunOptions withMaxRetries(int value) {
        return new RunOptions(warehouses, connections, duration, warmup, reportInterval, isolation, seed, loadSeed,
            value, label);
    }

    public RunOptions withLabel(String value) {
        return new RunOptions(warehouses, connections, duration, warmup, reportInterval, isolation, seed, loadSeed,
            maxRetries, value);
    }
}
