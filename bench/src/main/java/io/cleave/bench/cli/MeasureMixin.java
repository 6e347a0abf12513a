package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** How long, how often, and where the results go. */
final class MeasureMixin {
    @Option(names = "--rounds", defaultValue = "3",
        description = "Measurements per configuration, alternating with the others (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
        description = "Measured time of each run (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "10s", converter = DurationConverter.class,
        description = "Unmeasured run of the same workload and target before each measurement (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--output", description = "Directory for measurements.json, summary.md and the PNG charts "
        + "(default: bench/results/<comparison> of this checkout).")
    Path output;

    @Option(names = "--doc", description = "Markdown document whose generated section for this comparison is "
        + "replaced with the new table and charts, e.g. bench/RESULTS.md.")
    Path doc;

    ComparisonRunner.Plan plan(List<Configuration> configurations) {
        return new ComparisonRunner.Plan(configurations, rounds, warmup, duration);
    }

    Path output(String name) {
        return output != null ? output : BenchPaths.benchDir().resolve("results").resolve(name);
    }
}
