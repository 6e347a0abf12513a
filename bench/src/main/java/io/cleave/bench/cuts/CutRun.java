package io.cleave.bench.cuts;

import io.cleave.bench.tpcc.run.LatencySummary;

/**
 * One measured run of readers summing a table over every shard, with or without writers moving
 * amounts between its rows: what the clients saw and what the daemon's cut meters counted.
 *
 * @param torn reads whose sum was not the table's total (a transfer seen on one shard only)
 */
public record CutRun(String configuration, String workload, int round, double seconds, long reads, long torn,
                     LatencySummary readLatency, long transfers, long writerErrors, LatencySummary commitLatency,
                     CutMetricsDelta cuts) {

    public double readsPerSecond() {
        return reads / seconds;
    }

    public double transfersPerSecond() {
        return transfers / seconds;
    }
}
