package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Spread;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The rounds of one k summed up: throughput and CPU as the median of the rounds with their range,
 * latency percentiles as the median over the rounds of each run's percentile, and the COMMIT's
 * p50 and p99 over the baseline k's in the same round (pairing by round keeps a slow minute of the
 * host from landing on one side only).
 */
public record TransferSummary(int k, int rounds, Spread tps, LatencySummary transaction, LatencySummary commit,
                              Spread commitP50VsBaseline, Spread commitP99VsBaseline, Spread xaStartsPerTransaction,
                              Spread proxyMicrosPerTransaction, Spread shardMicrosPerTransaction, long failed,
                              Spread otherCpuPercent, Spread load) {

    /** The k values measured, in the order first measured. */
    public static List<Integer> ks(List<TransferMeasurement> all) {
        LinkedHashSet<Integer> ks = new LinkedHashSet<>();
        all.forEach(m -> ks.add(m.k()));
        return List.copyOf(ks);
    }

    /** One summary per k; the baseline of the ratios is the first k measured (k = 1 by default). */
    public static List<TransferSummary> of(List<TransferMeasurement> all) {
        List<Integer> ks = ks(all);
        List<TransferSummary> summaries = new ArrayList<>();
        for (int k : ks) {
            summaries.add(of(all, k, ks.get(0)));
        }
        return summaries;
    }

    public static TransferSummary of(List<TransferMeasurement> all, int k, int baselineK) {
        List<TransferMeasurement> runs = all.stream().filter(m -> m.k() == k).toList();
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no run with k = " + k);
        }
        List<TransferMeasurement> baseline = all.stream().filter(m -> m.k() == baselineK).toList();
        return new TransferSummary(k, runs.size(), spread(runs, m -> m.clients().tps()),
            medians(runs.stream().map(m -> m.clients().transaction()).toList()),
            medians(runs.stream().map(m -> m.clients().commit()).toList()),
            ratio(runs, baseline, LatencySummary::p50), ratio(runs, baseline, LatencySummary::p99),
            spread(runs, TransferMeasurement::xaStartsPerTransaction),
            spread(runs, m -> m.metered().proxyMicrosPerTransaction()),
            spread(runs, m -> m.metered().shardMicrosPerTransaction()),
            runs.stream().mapToLong(m -> m.clients().failed()).sum(),
            Spread.of(runs.stream().map(m -> 100 * m.metered().otherCpuShare()).filter(v -> !v.isNaN()).toList()),
            Spread.of(runs.stream().map(m -> m.metered().loadBefore().one()).toList()));
    }

    /** Median over the runs of each percentile (and of the mean and max). */
    static LatencySummary medians(List<LatencySummary> runs) {
        return new LatencySummary(median(runs, LatencySummary::p50), median(runs, LatencySummary::p90),
            median(runs, LatencySummary::p95), median(runs, LatencySummary::p99), median(runs, LatencySummary::max),
            median(runs, LatencySummary::mean));
    }

    private static double median(List<LatencySummary> runs, ToDoubleFunction<LatencySummary> f) {
        return Spread.of(runs.stream().map(f::applyAsDouble).toList()).median();
    }

    private static Spread spread(List<TransferMeasurement> runs, ToDoubleFunction<TransferMeasurement> f) {
        return Spread.of(runs.stream().map(f::applyAsDouble).filter(v -> !v.isNaN()).toList());
    }

    private static Spread ratio(List<TransferMeasurement> runs, List<TransferMeasurement> baseline,
                                ToDoubleFunction<LatencySummary> percentile) {
        List<Double> ratios = new ArrayList<>();
        for (TransferMeasurement m : runs) {
            baseline.stream().filter(b -> b.round() == m.round()).findFirst()
                .map(b -> percentile.applyAsDouble(b.clients().commit()))
                .filter(b -> b > 0)
                .ifPresent(b -> ratios.add(percentile.applyAsDouble(m.clients().commit()) / b));
        }
        return Spread.of(ratios);
    }
}
