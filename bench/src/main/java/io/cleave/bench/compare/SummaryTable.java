package io.cleave.bench.compare;

import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown a person reads: where and how the figures were taken (date, command, load), then
 * per workload and configuration the median of the rounds with the smallest and largest value.
 */
public final class SummaryTable {
    private static final String NONE = "–";

    private SummaryTable() {
    }

    /** imagePrefix is prepended to the chart file names, so the links work from wherever the text lands. */
    public static String render(ComparisonSet set, List<String> charts, String imagePrefix) {
        StringBuilder md = new StringBuilder();
        md.append("#### ").append(set.title()).append("\n\n");
        md.append("Measured ").append(set.startedAt()).append(" to ").append(set.finishedAt()).append(" on ")
            .append(set.host().getOrDefault("machine", "an unnamed host")).append(". ")
            .append(loadLine(set)).append("\n\n");
        md.append("Command: `").append(set.command()).append("`\n\n");
        if (!set.parameters().isEmpty()) {
            List<String> settings = new ArrayList<>();
            set.parameters().forEach((k, v) -> settings.add(k + " " + v));
            md.append("Settings: ").append(String.join("; ", settings)).append(".\n\n");
        }
        md.append("| workload | configuration | throughput | vs first | statements/s | proxy CPU µs/stmt | proxy CPU µs/txn | shard CPU µs/stmt | shard CPU µs/txn"
                + " | shard stmts per client stmt | latency p50 / p95 / p99 ms | max latency ms | errors | CPU used by others"
                + " | load (1 min) |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Comparison c : set.comparisons()) {
            for (Configuration conf : c.configurations()) {
                row(md, c, conf);
            }
        }
        md.append("\nThroughput and CPU figures: median of the rounds (smallest–largest); \"vs first\" pairs each round "
            + "with the first configuration's run (over the same client transport) of the same round. Latency: medians over the rounds of each run's "
            + "percentiles").append(set.comparisons().stream().anyMatch(c -> c.unit().equals("tpmC"))
            ? " (TPC-C: new-order; the chart shows every transaction type)" : " (per sysbench event)")
            .append("; max latency: the slowest one of all rounds. Errors: the client's count of failed attempts "
                + "it retried (sysbench's ignored errors: 1213 deadlocks, 1205 lock wait timeouts)")
            .append(". CPU: user + system time of the daemon JVM (the proxy; for the HAProxy relay, the haproxy "
                + "process) and of the shard servers, from /proc, "
                + "over the measured run only. CPU used by others: the host's busy CPU time (/proc/stat) minus that of "
                + "the proxy, the shards and the client, as a share of all cores: work that competed with the "
                + "measurement. The load average counts the benchmark's own threads as well.\n");
        if (!set.checks().isEmpty()) {
            md.append("\nChecks after the runs:\n\n");
            for (String check : set.checks()) {
                md.append("- ").append(check.strip()).append('\n');
            }
        }
        if (!charts.isEmpty()) {
            md.append('\n');
            for (String chart : charts) {
                md.append("![").append(chart.replace(".png", "").replace('-', ' ')).append("](")
                    .append(imagePrefix).append(chart).append(")\n");
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, Comparison c, Configuration conf) {
        List<Measurement> runs = c.of(conf);
        if (runs.isEmpty()) {
            return;
        }
        boolean proxied = conf.access() != Access.DIRECT;
        boolean baseline = conf.equals(c.baselineOf(conf));
        List<String> cells = new ArrayList<>();
        cells.add(c.workload());
        cells.add(conf.label());
        cells.add(c.spread(conf, m -> m.result().throughput()).format("%.0f") + " " + c.unit());
        cells.add(baseline ? "1" : c.ratioToBaseline(conf).format("%.2f"));
        cells.add(c.spread(conf, Measurement::qps).format("%.0f"));
        cells.add(proxied ? c.spread(conf, Measurement::proxyMicrosPerQuery).format("%.1f") : NONE);
        cells.add(proxied ? c.spread(conf, Measurement::proxyMicrosPerTransaction).format("%.0f") : NONE);
        cells.add(c.spread(conf, Measurement::shardMicrosPerQuery).format("%.1f"));
        cells.add(c.spread(conf, Measurement::shardMicrosPerTransaction).format("%.0f"));
        cells.add(conf.access() == Access.PROXY ? c.spread(conf, Measurement::shardStatementsPerQuery).format("%.2f") : NONE);
        cells.add(String.format(Locale.ROOT, "%.2f / %.2f / %.2f", median(runs, LatencySummary::p50),
            median(runs, LatencySummary::p95), median(runs, LatencySummary::p99)));
        cells.add(String.format(Locale.ROOT, "%.0f", runs.stream().mapToDouble(m -> m.result().latency().max()).max()
            .orElse(0)));
        cells.add(Long.toString(runs.stream().mapToLong(m -> m.result().errors()).sum()));
        List<Double> others = runs.stream().map(m -> 100 * m.otherCpuShare()).filter(v -> !v.isNaN()).toList();
        cells.add(others.isEmpty() ? NONE : Spread.of(others).format("%.0f") + " %");
        cells.add(Spread.of(runs.stream().map(m -> m.loadBefore().one()).toList()).format("%.1f"));
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static double median(List<Measurement> runs, ToDoubleFunction<LatencySummary> f) {
        return Spread.of(runs.stream().map(m -> f.applyAsDouble(m.result().latency())).toList()).median();
    }

    /** How busy the host was: the 1-minute load average over all runs, and the CPU other processes took. */
    static String loadLine(ComparisonSet set) {
        List<Measurement> runs = new ArrayList<>();
        for (Comparison c : set.comparisons()) {
            runs.addAll(c.measurements());
        }
        return loadLine(runs, set.host().get("cores"));
    }

    /** The same for any runs; cores (may be null) as the host description names them. */
    public static String loadLine(List<Measurement> runs, String cores) {
        List<Double> loads = new ArrayList<>();
        List<Double> others = new ArrayList<>();
        for (Measurement m : runs) {
            if (!m.loadBefore().equals(LoadAverage.UNKNOWN)) {
                loads.add(m.loadBefore().one());
            }
            if (!m.loadAfter().equals(LoadAverage.UNKNOWN)) {
                loads.add(m.loadAfter().one());
            }
            if (!Double.isNaN(m.otherCpuShare())) {
                others.add(100 * m.otherCpuShare());
            }
        }
        if (loads.isEmpty()) {
            return "Load average not recorded.";
        }
        Spread s = Spread.of(loads);
        String line = String.format(Locale.ROOT, "Load average (1 min) at the start and end of the runs: median %.1f, "
            + "%.1f to %.1f%s.", s.median(), s.min(), s.max(), cores == null ? "" : " on " + cores + " cores");
        if (!others.isEmpty()) {
            Spread o = Spread.of(others);
            line += String.format(Locale.ROOT, " Other processes used %.0f%% of the host's CPU during the median run "
                + "(%.0f%% to %.0f%%).", o.median(), o.min(), o.max());
        }
        return line;
    }
}
