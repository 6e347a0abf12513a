package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.SysbenchWorkload;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "deadlocks", mixinStandardHelpOptions = true,
    description = {"sysbench over N shards with the proxy's deadlock detector off (deadlocks across shards end by "
        + "innodb_lock_wait_timeout, as before it existed) and on, alternating, each repeated.",
        "oltp_read_write on small tables makes cross-shard deadlocks frequent: throughput, max latency and retried "
            + "errors show what the detector changes. A workload where nothing waits for a lock (oltp_read_only: "
            + "transactions that span shards but only read) shows what the detector costs when nothing waits."})
final class DeadlocksCommand implements Callable<Integer> {

    private static final String CHECK_AFTER = "deadlock_check_after_ms";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--workload", split = ",", defaultValue = "oltp_read_write,oltp_read_only",
        description = "sysbench scripts (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--shards", defaultValue = "4", description = "Shards of the home (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--tables", defaultValue = "4", description = "sysbench tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "1000",
        description = "sysbench rows per table; few rows, many conflicts (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "8", description = "sysbench client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--ps-mode", defaultValue = "auto", description = "sysbench --db-ps-mode (default: ${DEFAULT-VALUE}).")
    String psMode;

    @Option(names = "--check-after", defaultValue = "100",
        description = "The detector's proxy.deadlock_check_after_ms in the 'on' home (default: ${DEFAULT-VALUE}).")
    int checkAfterMillis;

    @Option(names = "--loader-threads", defaultValue = "4", description = "Threads loading each home (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    @Override
    public Integer call() throws Exception {
        Configuration base = Configuration.proxy(shards);
        List<Configuration> configurations = List.of(
            base.with(shards + " shards, proxy, detector off", Map.of(CHECK_AFTER, "0")),
            base.with(shards + " shards, proxy, detector on", Map.of(CHECK_AFTER, Integer.toString(checkAfterMillis))));
        String startedAt = ComparisonReporting.now();
        Sysbench sysbench = Sysbench.onPath();
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("sysbench", sysbench.version());
        SysbenchOptions options = new SysbenchOptions(workloads.get(0), tables, tableSize, threads, psMode, false);
        HomeSpec template = home.spec(Layout.SYSBENCH, 0, tables);
        List<Workload> runs = new ArrayList<>();
        for (String w : workloads) {
            runs.add(new SysbenchWorkload(options.withWorkload(w), sysbench));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", tables + " sbtest tables x " + tableSize + " rows (ids 1.." + tableSize
            + " written by sysbench), hashed into 256 buckets over " + shards + " shards");
        parameters.put("clients", threads + " sysbench threads, --db-ps-mode=" + psMode
            + ", 1213 and 1205 retried (sysbench's default --mysql-ignore-errors)");
        parameters.put("detector", "off: deadlock_check_after_ms: 0 (a deadlock across shards waits for the shards' "
            + "innodb_lock_wait_timeout, 50 s by default); on: deadlock_check_after_ms: " + checkAfterMillis);
        parameters.put("buffer pool", home.bufferPool + " in total per home, split evenly over its shards");
        home.describeCpus(parameters);
        parameters.put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; the two homes alternate, only the measured one runs");
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), template, System.out);
        ComparisonRunner.Outcome outcome = runner.run(new SysbenchDataset(Layout.SYSBENCH, options, loaderThreads, sysbench),
            runs, measure.plan(configurations));
        return ComparisonReporting.finish(spec, "deadlocks", "Deadlocks across shards: sysbench with the detector off "
            + "and on", startedAt, parameters, outcome, versions, measure.output("deadlocks"), measure.doc,
            home.datadirRoot);
    }
}
