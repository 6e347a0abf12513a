package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.ResultsDocument;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.SysbenchWorkload;
import io.cleave.bench.compare.TpccDataset;
import io.cleave.bench.compare.TpccWorkload;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.cuts.CutCostTable;
import io.cleave.bench.cuts.CutReadsWorkload;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "cuts", mixinStandardHelpOptions = true,
    description = {"Consistent cuts off and on (proxy.consistent_cuts), alternating, each repeated, on homes that differ "
        + "in nothing else.",
        "sysbench's tables hashed over the shards: oltp_point_select (single-shard, which cuts must not slow down); "
            + "readers summing k over sbtest1 (every read a merged read of all shards) alone, and while writers move "
            + "amounts between its rows (each transfer one transaction, most across two shards): read and COMMIT "
            + "latency, torn reads, and the daemon's cut meters (commits held behind a cut, the longest hold). Then "
            + "TPC-C over the shards, off and on."})
final class CutsCommand implements Callable<Integer> {

    private static final String OPTION = "consistent_cuts";
    private static final String CUTS_SETTING = "off: proxy.consistent_cuts: false (each shard read as the statement "
        + "reaches it); on: the default";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--shards", defaultValue = "4", description = "Shards of every home (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--tables", defaultValue = "4", description = "sysbench tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "10000", description = "sysbench rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "8", description = "oltp_point_select threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--readers", defaultValue = "4", description = "Threads summing sbtest1 (default: ${DEFAULT-VALUE}).")
    int readers;

    @Option(names = "--writers", defaultValue = "4", description = "Threads moving amounts between rows (default: ${DEFAULT-VALUE}).")
    int writers;

    @Option(names = "--ps-mode", defaultValue = "auto", description = "sysbench --db-ps-mode (default: ${DEFAULT-VALUE}).")
    String psMode;

    @Option(names = "--warehouses", defaultValue = "4", description = "TPC-C warehouses, in ranges over the shards "
        + "(default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--connections", defaultValue = "8", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--tpcc-rounds", defaultValue = "3", description = "TPC-C rounds per configuration; 0 leaves TPC-C out "
        + "(default: ${DEFAULT-VALUE}).")
    int tpccRounds;

    @Option(names = "--tpcc-duration", defaultValue = "60s", converter = DurationConverter.class,
        description = "Measured time of each TPC-C run (default: ${DEFAULT-VALUE}).")
    Duration tpccDuration;

    @Option(names = "--report-interval", defaultValue = "5s", converter = DurationConverter.class,
        description = "TPC-C throughput-over-time step (default: ${DEFAULT-VALUE}).")
    Duration reportInterval;

    @Option(names = "--loader-threads", defaultValue = "4", description = "Threads loading each home (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    @Option(names = "--parts", split = ",", defaultValue = "sysbench,tpcc",
        description = "Which comparisons to run: sysbench (point selects, sums, sums during transfers) and tpcc "
            + "(default: ${DEFAULT-VALUE}).")
    List<String> parts;

    @Override
    public Integer call() throws Exception {
        Configuration base = Configuration.proxy(shards);
        Configuration off = base.with(shards + " shards, proxy, cuts off", Map.of(OPTION, "false"));
        Configuration on = base.with(shards + " shards, proxy, cuts on", Map.of(OPTION, "true"));

        Path output = measure.output("cuts");
        int exit = 0;
        if (parts.contains("sysbench")) {
            exit = sysbenchPart(off, on, output);
        }
        if (parts.contains("tpcc") && tpccRounds > 0) {
            exit = Math.max(exit, tpccPart(off, on, output));
        }
        return exit;
    }

    /** Point selects, sums alone and during transfers, with the cost table. */
    private int sysbenchPart(Configuration off, Configuration on, Path output) throws Exception {
        List<Configuration> configurations = List.of(off, on);
        String startedAt = ComparisonReporting.now();
        Sysbench sysbench = Sysbench.onPath();
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("sysbench", sysbench.version());
        SysbenchOptions options = new SysbenchOptions("oltp_point_select", tables, tableSize, threads, psMode, false);
        CutReadsWorkload sums = new CutReadsWorkload(readers, 0, tableSize);
        CutReadsWorkload sumsDuringTransfers = new CutReadsWorkload(readers, writers, tableSize);
        List<Workload> runs = List.of(new SysbenchWorkload(options, sysbench), sums, sumsDuringTransfers);
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", tables + " sbtest tables x " + tableSize + " rows (ids 1.." + tableSize
            + " written by sysbench), hashed into 256 buckets over " + shards + " shards");
        parameters.put("clients", "oltp_point_select: " + threads + " sysbench threads, --db-ps-mode=" + psMode
            + "; sums: " + readers + " threads running SELECT SUM(k) FROM sbtest1 (a merged read of every shard) in "
            + "autocommit; sums_during_transfers: the same while " + writers + " threads run BEGIN; UPDATE sbtest1 SET "
            + "k = k - 1 on one random row, k + 1 on another (lower id first); COMMIT");
        parameters.put("cuts", CUTS_SETTING);
        parameters.put("buffer pool", home.bufferPool + " in total per home, split evenly over its shards");
        home.describeCpus(parameters);
        parameters.put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; the two homes alternate, only the measured one runs");
        HomeSpec template = home.spec(Layout.SYSBENCH, 0, tables);
        ComparisonRunner.Outcome outcome = new ComparisonRunner(home.cleaveJar(), template, System.out)
            .run(new SysbenchDataset(Layout.SYSBENCH, options, loaderThreads, sysbench), runs,
                measure.plan(configurations));
        int exit = ComparisonReporting.finish(spec, "cuts", "Consistent cuts off and on: point selects, and sums over "
            + "every shard alone and during transfers", startedAt, parameters, outcome, versions, output,
            measure.doc, home.datadirRoot);

        List<io.cleave.bench.cuts.CutRun> all = new java.util.ArrayList<>(sums.runs());
        all.addAll(sumsDuringTransfers.runs());
        String costs = CutCostTable.render(all, off.label(), on.label());
        Path costsFile = output.resolve("costs.md");
        Files.writeString(costsFile, costs);
        if (measure.doc != null) {
            ResultsDocument.splice(measure.doc, "cuts-costs", costs);
        }
        spec.commandLine().getOut().println();
        spec.commandLine().getOut().print(costs);
        spec.commandLine().getOut().flush();
        return exit;
    }

    /** TPC-C, off and on: it commits across shards and reads one shard per statement. */
    private int tpccPart(Configuration off, Configuration on, Path output) throws Exception {
        String startedAt = ComparisonReporting.now();
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", warehouses + " TPC-C warehouses in ranges over " + shards + " shards, item on every shard");
        parameters.put("clients", connections + " terminals, no think time, server-side prepared statements, "
            + "REPEATABLE READ; 1% remote order lines and 15% remote payments cross shards");
        parameters.put("cuts", CUTS_SETTING);
        parameters.put("buffer pool", home.bufferPool + " in total per home, split evenly over its shards");
        home.describeCpus(parameters);
        parameters.put("runs", tpccRounds + " rounds x " + tpccDuration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; the two homes alternate, only the measured one runs");
        ComparisonRunner.Outcome outcome = new ComparisonRunner(home.cleaveJar(), home.spec(Layout.TPCC, warehouses, 0),
            System.out).run(new TpccDataset(warehouses, loaderThreads),
                List.of(new TpccWorkload(warehouses, connections, reportInterval)),
                new ComparisonRunner.Plan(List.of(off, on), tpccRounds, measure.warmup, tpccDuration));
        return ComparisonReporting.finish(spec, "cuts-tpcc", "Consistent cuts off and on: TPC-C", startedAt, parameters,
            outcome, Map.of(), output.resolveSibling(output.getFileName() + "-tpcc"), measure.doc, home.datadirRoot);
    }
}
