package io.cleave.bench.cuts;

import io.cleave.bench.compare.Spread;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The cut's costs as Markdown: per workload and configuration what readers and writers saw and
 * what the cut meters counted, then the ratios of cuts on over off within each round (so both
 * sides of a ratio ran minutes apart on the same machine).
 */
public final class CutCostTable {

    private CutCostTable() {
    }

    public static String render(List<CutRun> runs, String off, String on) {
        StringBuilder md = new StringBuilder();
        md.append("| workload | configuration | reads/s | read p50 / p99 ms | torn reads | transfers/s | COMMIT p50 / p99 ms "
            + "| cuts taken / windows | commits held behind a cut | longest hold ms (at most) | cut's wait p99 ms (at most) "
            + "| mean window ms |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String workload : workloads(runs)) {
            for (String configuration : List.of(off, on)) {
                List<CutRun> these = of(runs, workload, configuration);
                if (these.isEmpty()) {
                    continue;
                }
                List<String> cells = new ArrayList<>();
                cells.add(workload);
                cells.add(configuration);
                cells.add(spread(these, CutRun::readsPerSecond).format("%.0f"));
                cells.add(spread(these, r -> r.readLatency().p50()).format("%.2f") + " / "
                    + spread(these, r -> r.readLatency().p99()).format("%.2f"));
                cells.add(Long.toString(these.stream().mapToLong(CutRun::torn).sum()) + " of "
                    + these.stream().mapToLong(CutRun::reads).sum());
                boolean writes = these.stream().anyMatch(r -> r.transfers() > 0);
                cells.add(writes ? spread(these, CutRun::transfersPerSecond).format("%.0f") : "-");
                cells.add(writes ? spread(these, r -> r.commitLatency().p50()).format("%.2f") + " / "
                    + spread(these, r -> r.commitLatency().p99()).format("%.2f") : "-");
                cells.add(these.stream().mapToLong(r -> r.cuts().cuts()).sum() + " / "
                    + these.stream().mapToLong(r -> r.cuts().windows()).sum());
                cells.add(Long.toString(these.stream().mapToLong(r -> r.cuts().commitWaits()).sum()));
                cells.add(String.format(Locale.ROOT, "%.3f",
                    these.stream().mapToDouble(r -> r.cuts().longestCommitWaitMillis()).max().orElse(0)));
                cells.add(spread(these, r -> r.cuts().cutWaitP99Millis()).format("%.3f"));
                cells.add(spread(these, r -> r.cuts().windowMeanMillis()).format("%.3f"));
                md.append("| ").append(String.join(" | ", cells)).append(" |\n");
            }
        }
        md.append("\n| workload | read p50: on / off | read p99: on / off | read p50 added ms | read p99 added ms "
            + "| COMMIT p50: on / off | COMMIT p99: on / off |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String workload : workloads(runs)) {
            List<CutRun> offRuns = of(runs, workload, off);
            List<CutRun> onRuns = of(runs, workload, on);
            List<String> cells = new ArrayList<>();
            cells.add(workload);
            cells.add(ratio(offRuns, onRuns, r -> r.readLatency().p50()).format("%.2f"));
            cells.add(ratio(offRuns, onRuns, r -> r.readLatency().p99()).format("%.2f"));
            cells.add(difference(offRuns, onRuns, r -> r.readLatency().p50()).format("%+.3f"));
            cells.add(difference(offRuns, onRuns, r -> r.readLatency().p99()).format("%+.3f"));
            boolean writes = onRuns.stream().anyMatch(r -> r.transfers() > 0);
            cells.add(writes ? ratio(offRuns, onRuns, r -> r.commitLatency().p50()).format("%.2f") : "-");
            cells.add(writes ? ratio(offRuns, onRuns, r -> r.commitLatency().p99()).format("%.2f") : "-");
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return md.toString();
    }

    private static Set<String> workloads(List<CutRun> runs) {
        Set<String> out = new LinkedHashSet<>();
        runs.forEach(r -> out.add(r.workload()));
        return out;
    }

    private static List<CutRun> of(List<CutRun> runs, String workload, String configuration) {
        return runs.stream().filter(r -> r.workload().equals(workload) && r.configuration().equals(configuration)).toList();
    }

    private static Spread spread(List<CutRun> runs, ToDoubleFunction<CutRun> value) {
        List<Double> values = new ArrayList<>();
        runs.forEach(r -> values.add(value.applyAsDouble(r)));
        return Spread.of(values);
    }

    /** Per round, on's value over off's; the median over the rounds both ran. */
    private static Spread ratio(List<CutRun> off, List<CutRun> on, ToDoubleFunction<CutRun> value) {
        return perRound(off, on, value, true);
    }

    /** Per round, on's value minus off's. */
    private static Spread difference(List<CutRun> off, List<CutRun> on, ToDoubleFunction<CutRun> value) {
        return perRound(off, on, value, false);
    }

    private static Spread perRound(List<CutRun> off, List<CutRun> on, ToDoubleFunction<CutRun> value, boolean ratio) {
        List<Double> values = new ArrayList<>();
        for (CutRun a : off) {
            for (CutRun b : on) {
                if (a.round() == b.round()) {
                    double x = value.applyAsDouble(a);
                    double y = value.applyAsDouble(b);
                    if (!ratio) {
                        values.add(y - x);
                    } else if (x > 0) {
                        values.add(y / x);
                    }
                }
            }
        }
        return Spread.of(values);
    }
}
