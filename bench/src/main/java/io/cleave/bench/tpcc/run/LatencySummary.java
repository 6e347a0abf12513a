package io.cleave.bench.tpcc.run;

import org.HdrHistogram.Histogram;

/** Percentiles of a transaction's latency in milliseconds, from a histogram of microseconds. */
public record LatencySummary(double p50, double p90, double p95, double p99, double max, double mean) {
    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0);

    public static LatencySummary ofMicros(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
            ms(micros.getValueAtPercentile(95)), ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()),
            micros.getMean() / 1000.0);
    }

    /** A histogram fit for transaction latencies: 1 us to 1 h at three significant digits. */
    public static Histogram newMicrosHistogram() {
        return new Histogram(3_600_000_000L, 3);
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
