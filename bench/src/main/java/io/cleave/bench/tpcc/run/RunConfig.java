package io.cleave.bench.tpcc.run;

/** The settings a result was measured with, as plain values for results.json. */
public record RunConfig(int warehouses, int connections, double durationSeconds, double warmupSeconds,
                        double reportIntervalSeconds, IsolationLevel isolation, long seed, long loadSeed,
                        int maxRetries) {

    static RunConfig of(RunOptions o) {
        return new RunConfig(o.warehouses(), o.connections(), o.duration().toMillis() / 1000.0,
            o.warmup().toMillis() / 1000.0, o.reportInterval().toMillis() / 1000.0, o.isolation(), o.seed(),
            o.loadSeed(), o.maxRetries());
    }
}
