package io.cleave.bench.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One workload measured on several configurations, each repeated. The first configuration over
 * each client transport is the baseline the others' throughput over that transport is compared with.
 */
public record Comparison(String workload, String unit, List<Configuration> configurations,
                         List<Measurement> measurements) {

    public List<Measurement> of(Configuration configuration) {
        return measurements.stream().filter(m -> m.configuration().equals(configuration.label())).toList();
    }

    public Spread spread(Configuration configuration, ToDoubleFunction<Measurement> metric) {
        List<Double> values = new ArrayList<>();
        for (Measurement m : of(configuration)) {
            values.add(metric.applyAsDouble(m));
        }
        return Spread.of(values);
    }

    /**
     * Per round, this configuration's throughput over the baseline's in the same round; pairing
     * by round keeps a slow minute of the host from landing on one side only.
     */
    public Spread ratioToBaseline(Configuration configuration) {
        List<Measurement> baseline = of(baselineOf(configuration));
        List<Double> ratios = new ArrayList<>();
        for (Measurement m : of(configuration)) {
            baseline.stream().filter(b -> b.round() == m.round()).findFirst()
                .filter(b -> b.result().throughput() > 0)
                .ifPresent(b -> ratios.add(m.result().throughput() / b.result().throughput()));
        }
        return Spread.of(ratios);
    }

    /** The first configuration whose client reaches its endpoint the same way. */
    public Configuration baselineOf(Configuration configuration) {
        return configurations.stream().filter(c -> c.transport() == configuration.transport()).findFirst()
            .orElse(configurations.get(0));
    }

    /** The round whose throughput is this configuration's median (the lower middle for an even count). */
    public Measurement medianRound(Configuration configuration) {
        List<Measurement> runs = new ArrayList<>(of(configuration));
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no measurement of " + configuration.label());
        }
        runs.sort(Comparator.comparingDouble(m -> m.result().throughput()));
        return runs.get((runs.size() - 1) / 2);
    }
}
