package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures workloads on configurations in one run: one home per shard count, each loaded with the
 * whole dataset; then, per workload, the configurations alternate round after round (see
 * {@link Schedule}), each measurement after a warm-up of its own. Only the home being measured
 * runs: the others are stopped, so their background flushing cannot steal from it. Afterwards
 * the dataset is checked on every home.
 */
public final class ComparisonRunner {
    private final Path cleaveJar;
    private final HomeSpec spec;
    private final PrintStream log;
    private Path haproxy;

    /** spec is every home's template; its shard count is set per home. */
    public ComparisonRunner(Path cleaveJar, HomeSpec spec, PrintStream log) {
        this.cleaveJar = cleaveJar;
        this.spec = spec;
        this.log = log;
    }

    /** The haproxy binary that configurations with {@link Access#RELAY} run in front of the shard. */
    public ComparisonRunner withRelay(Path haproxyBinary) {
        this.haproxy = haproxyBinary;
        return this;
    }

    /** How long and how often: every configuration rounds times, each run warmup + duration. */
    public record Plan(List<Configuration> configurations, int rounds, Duration warmup, Duration duration) {
        public Plan {
            if (configurations.isEmpty()) {
                throw new IllegalArgumentException("nothing to compare: no configuration");
            }
        }
    }

    /** The measurements per workload, the checks afterwards, and what the homes ran. */
    public record Outcome(List<Comparison> comparisons, List<Dataset.CheckResult> checks, String serverVersion) {
        public boolean checksPassed() {
            return checks.stream().allMatch(Dataset.CheckResult::passed);
        }
    }

    /** What tells homes apart: configurations that share it are measured on one home. */
    private record HomeKey(int shards, Map<String, String> proxyOptions) {
        static HomeKey of(Configuration c) {
            return new HomeKey(c.shards(), c.proxyOptions());
        }
    }

    public Outcome run(Dataset dataset, List<Workload> workloads, Plan plan) throws Exception {
        Map<HomeKey, BenchHome> homes = new LinkedHashMap<>();
        for (Configuration c : plan.configurations()) {
            homes.computeIfAbsent(HomeKey.of(c), k -> BenchHome.create(cleaveJar,
                spec.withShards(k.shards()).withProxyOptions(k.proxyOptions())));
        }
        // The daemons run detached: an interrupted benchmark (Ctrl-C, kill) must still stop them.
        Thread cleanup = new Thread(() -> homes.values().forEach(BenchHome::close), "bench-homes-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            String serverVersion = "";
            for (BenchHome home : homes.values()) {
                switchTo(home, homes);
                long started = System.nanoTime();
                log.printf("loading %s (%s) ...%n", home, dataset.getClass().getSimpleName());
                dataset.load(home);
                log.printf("loaded %s in %.0f s%n", home, (System.nanoTime() - started) / 1e9);
                serverVersion = home.status().serverBinary();
            }
            List<Comparison> comparisons = new ArrayList<>();
            for (Workload workload : workloads) {
                comparisons.add(measure(workload, plan, homes));
            }
            List<Dataset.CheckResult> checks = new ArrayList<>();
            for (BenchHome home : homes.values()) {
                switchTo(home, homes);
                for (Dataset.CheckResult check : dataset.verify(home)) {
                    log.println((check.passed() ? "check: " : "CHECK FAILED: ") + check.line());
                    checks.add(check);
                }
            }
            return new Outcome(comparisons, checks, serverVersion);
        } finally {
            for (BenchHome home : homes.values()) {
                home.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down and the hook runs or ran.
            }
        }
    }

    private Comparison measure(Workload workload, Plan plan, Map<HomeKey, BenchHome> homes) throws Exception {
        List<Schedule.Slot> slots = Schedule.of(plan.configurations(), plan.rounds());
        List<Measurement> measurements = new ArrayList<>();
        int n = 0;
        for (Schedule.Slot slot : slots) {
            Configuration c = slot.configuration();
            BenchHome home = homes.get(HomeKey.of(c));
            switchTo(home, homes);
            if (c.access() == Access.RELAY) {
                if (haproxy == null) {
                    throw new IllegalStateException(c.label() + " needs a haproxy binary");
                }
                home.startRelay(haproxy);
            }
            Measurement m;
            try {
                if (!plan.warmup().isZero()) {
                    workload.run(home, c, plan.warmup(), c.label() + " warm-up");
                }
                m = measureOnce(workload, home, c, slot.round(), plan.duration());
            } finally {
                home.stopRelay();
            }
            measurements.add(m);
            String proxy = c.access() != Access.DIRECT
                ? String.format(Locale.ROOT, "proxy %.1f us/stmt, ", m.proxyMicrosPerQuery()) : "";
            log.printf(Locale.ROOT, "[%d/%d] %s, round %d, %s: %.1f %s, %.0f stmt/s, %sshards %.1f us/stmt, errors %d, "
                    + "max latency %.0f ms, others used %.0f%% of the CPU, load %s%n", ++n, slots.size(), workload.name(),
                slot.round(), c.label(), m.result().throughput(), workload.unit(), m.qps(), proxy, m.shardMicrosPerQuery(),
                m.result().errors(), m.result().latency().max(), 100 * m.otherCpuShare(), m.loadBefore());
        }
        return new Comparison(workload.name(), workload.unit(), plan.configurations(), measurements);
    }

    private static Measurement measureOnce(Workload workload, BenchHome home, Configuration c, int round, Duration time)
        throws Exception {
        RunMeter meter = RunMeter.start(home, c.access());
        WorkloadResult result = workload.run(home, c, time, c.label());
        return meter.stop(c, round, result);
    }

    /** Stops every other home, then starts this one if it is not up. */
    private static void switchTo(BenchHome home, Map<HomeKey, BenchHome> homes) {
        for (BenchHome other : homes.values()) {
            if (other != home && other.isUp()) {
                other.down();
            }
        }
        home.up();
    }
}
