package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Measurement;
import io.cleave.bench.compare.Spread;
import io.cleave.bench.compare.SummaryTable;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Markdown a person reads: where and how the figures were taken, the k-shard transfers (one
 * row per k), the TPC-C run with its cross-shard share, the checks and the chart.
 */
public final class CrossShardTable {
    private static final String NONE = "–";

    private CrossShardTable() {
    }

    /** imagePrefix is prepended to the chart file names, so the links work from wherever the text lands. */
    public static String render(CrossShardSet set, List<String> charts, String imagePrefix) {
        StringBuilder md = new StringBuilder();
        md.append("#### ").append(set.title()).append("\n\n");
        List<Measurement> runs = new ArrayList<>();
        set.transfers().forEach(t -> runs.add(t.metered()));
        set.tpcc().forEach(t -> runs.add(t.metered()));
        md.append("Measured ").append(set.startedAt()).append(" to ").append(set.finishedAt()).append(" on ")
            .append(set.host().getOrDefault("machine", "an unnamed host")).append(". ")
            .append(SummaryTable.loadLine(runs, set.host().get("cores"))).append("\n\n");
        md.append("Command: `").append(set.command()).append("`\n\n");
        if (!set.parameters().isEmpty()) {
            List<String> settings = new ArrayList<>();
            set.parameters().forEach((k, v) -> settings.add(k + " " + v));
            md.append("Settings: ").append(String.join("; ", settings)).append(".\n\n");
        }
        if (!set.transfers().isEmpty()) {
            transfers(md, set.transfers());
        }
        if (!set.tpcc().isEmpty()) {
            tpcc(md, set.tpcc());
        }
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

    static void transfers(StringBuilder md, List<TransferMeasurement> all) {
        List<TransferSummary> summaries = TransferSummary.of(all);
        int baseline = summaries.get(0).k();
        md.append("| shards per transaction (k) | transactions/s | transaction p50 / p95 / p99 ms | COMMIT p50 / p95 / p99 ms"
            + " | COMMIT p50 vs k=").append(baseline).append(" | COMMIT p99 vs k=").append(baseline)
            .append(" | XA branches per transaction | proxy CPU µs/txn | shard CPU µs/txn | failed | CPU used by others"
                + " | load (1 min) |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (TransferSummary s : summaries) {
            List<String> cells = new ArrayList<>();
            cells.add(Integer.toString(s.k()));
            cells.add(s.tps().format("%.0f"));
            cells.add(percentiles(s.transaction()));
            cells.add(percentiles(s.commit()));
            cells.add(s.k() == baseline ? "1" : ratio(s.commitP50VsBaseline()));
            cells.add(s.k() == baseline ? "1" : ratio(s.commitP99VsBaseline()));
            cells.add(s.xaStartsPerTransaction().format("%.2f"));
            cells.add(s.proxyMicrosPerTransaction().format("%.0f"));
            cells.add(s.shardMicrosPerTransaction().format("%.0f"));
            cells.add(Long.toString(s.failed()));
            cells.add(s.otherCpuPercent().count() == 0 ? NONE : s.otherCpuPercent().format("%.0f") + " %");
            cells.add(s.load().format("%.1f"));
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        md.append("\nEach transaction: BEGIN; one UPDATE of a random account on each of k shards; COMMIT. Transactions/s "
            + "and CPU: median of the rounds (smallest–largest); latency: median over the rounds of each run's "
            + "percentiles, the whole transaction from BEGIN to the COMMIT's answer, and the COMMIT alone. \"vs k="
            + baseline + "\" divides each round's COMMIT percentile by k=" + baseline + "'s in the same round (2.19 "
            + "would be the +119% reported for Vitess's two-shard two-phase commits). XA branches per transaction: the "
            + "shards' Com_xa_start over committed transactions (k − 1 when every further shard joins as a branch). "
            + "CPU: user + system time of the daemon JVM (the proxy) and of the shard servers from /proc over the "
            + "measured run, per committed transaction. CPU used by others: the host's busy time minus the proxy's, "
            + "the shards' and the client's, as a share of all cores.\n");
    }

    static void tpcc(StringBuilder md, List<TpccMeasurement> all) {
        md.append("\n| TPC-C run | tpmC | transactions completed | cross-shard share | XA branches started "
            + "| proxy CPU µs/txn | shard CPU µs/txn | new-order p50 / p95 / p99 ms | errors | CPU used by others "
            + "| load (1 min) |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (TpccMeasurement t : all) {
            Measurement m = t.metered();
            List<String> cells = new ArrayList<>();
            cells.add(Integer.toString(t.round()));
            cells.add(String.format(Locale.ROOT, "%.0f", m.result().throughput()));
            cells.add(Long.toString(m.result().transactions()));
            cells.add(percent(t.share().share()));
            cells.add(Long.toString(t.xaStarts()));
            cells.add(String.format(Locale.ROOT, "%.0f", m.proxyMicrosPerTransaction()));
            cells.add(String.format(Locale.ROOT, "%.0f", m.shardMicrosPerTransaction()));
            cells.add(percentiles(m.result().latency()));
            cells.add(Long.toString(m.result().errors()));
            cells.add(Double.isNaN(m.otherCpuShare()) ? NONE
                : String.format(Locale.ROOT, "%.0f %%", 100 * m.otherCpuShare()));
            cells.add(String.format(Locale.ROOT, "%.1f", m.loadBefore().one()));
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        List<String> sources = all.stream().map(t -> t.share().describe()).distinct().toList();
        md.append("\nThe standard mix (1% remote order lines, 15% remote payments) with warehouses in ranges over the "
            + "shards. Cross-shard share: ").append(String.join("; ", sources)).append(". XA branches started: "
            + "Com_xa_start summed over the shards over the run.\n");
    }

    static String percentiles(LatencySummary l) {
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", l.p50(), l.p95(), l.p99());
    }

    /** "2.19 (+119%)", with the range of the rounds when there are several. */
    static String ratio(Spread s) {
        if (s.count() == 0) {
            return NONE;
        }
        return s.format("%.2f") + String.format(Locale.ROOT, " (%+.0f%%)", 100 * (s.median() - 1));
    }

    static String percent(double share) {
        return Double.isNaN(share) ? NONE : String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }
}
