package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.Dataset;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.SysbenchWorkload;
import io.cleave.bench.compare.TpccDataset;
import io.cleave.bench.compare.TpccWorkload;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "scaling", mixinStandardHelpOptions = true,
    description = {"One instance holding the whole buffer pool against N shards with 1/N each behind the proxy, same "
        + "data and memory in total, alternating, each repeated.",
        "The one instance is a 1-shard home measured directly on its port and through the proxy. TPC-C: warehouses in "
            + "ranges over the shards, item a reference table (config/tpcc.yaml's shape). sysbench: ids hashed over "
            + "the shards (config/sysbench.yaml's shape)."})
final class ScalingCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--workload", split = ",", defaultValue = "tpcc",
        description = "tpcc, or sysbench scripts such as oltp_read_write,oltp_point_select (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--shards", split = ",", defaultValue = "1,2,4",
        description = "Shard counts of the homes behind the proxy (default: ${DEFAULT-VALUE}).")
    List<Integer> shards;

    @Option(names = "--no-direct", description = "Leave out the 1-instance-direct baseline.")
    boolean noDirect;

    @Option(names = "--warehouses", defaultValue = "8", description = "TPC-C warehouses in total (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--connections", defaultValue = "16", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--report-interval", defaultValue = "5s", converter = DurationConverter.class,
        description = "TPC-C throughput-over-time step (default: ${DEFAULT-VALUE}).")
    Duration reportInterval;

    @Option(names = "--tables", defaultValue = "8", description = "sysbench tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "100000",
        description = "sysbench rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "16", description = "sysbench client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--ps-mode", defaultValue = "auto", description = "sysbench --db-ps-mode (default: ${DEFAULT-VALUE}).")
    String psMode;

    @Option(names = "--loader-threads", defaultValue = "4", description = "Threads loading each home (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    @Override
    public Integer call() throws Exception {
        boolean tpcc = workloads.equals(List.of("tpcc"));
        if (!tpcc && workloads.contains("tpcc")) {
            throw new ParameterException(spec.commandLine(), "tpcc and sysbench workloads need different homes: "
                + "run them as two commands");
        }
        List<Configuration> configurations = new ArrayList<>();
        if (!noDirect) {
            configurations.add(Configuration.direct());
        }
        for (int n : shards) {
            configurations.add(Configuration.proxy(n));
        }
        String startedAt = ComparisonReporting.now();
        Map<String, String> parameters = new LinkedHashMap<>();
        Map<String, String> versions = new LinkedHashMap<>();
        Dataset dataset;
        List<Workload> runs = new ArrayList<>();
        HomeSpec template;
        String name;
        if (tpcc) {
            name = "scaling-tpcc";
            template = home.spec(Layout.TPCC, warehouses, 0);
            dataset = new TpccDataset(warehouses, loaderThreads);
            runs.add(new TpccWorkload(warehouses, connections, reportInterval));
            parameters.put("data", warehouses + " TPC-C warehouses in ranges over the shards, item on every shard");
            parameters.put("clients", connections + " terminals, no think time, server-side prepared statements, REPEATABLE READ");
        } else {
            name = "scaling-sysbench";
            Sysbench sysbench = Sysbench.onPath();
            versions.put("sysbench", sysbench.version());
            // Ids written by sysbench (1..table size): keys the proxy draws for a hashed table are unique but
            // not contiguous, and sysbench's point selects and delete/insert pairs assume 1..table size.
            SysbenchOptions options = new SysbenchOptions(workloads.get(0), tables, tableSize, threads, psMode, false);
            template = home.spec(Layout.SYSBENCH, 0, tables);
            dataset = new SysbenchDataset(Layout.SYSBENCH, options, loaderThreads, sysbench);
            for (String w : workloads) {
                runs.add(new SysbenchWorkload(options.withWorkload(w), sysbench));
            }
            parameters.put("data", tables + " sbtest tables x " + tableSize + " rows (ids 1.." + tableSize
                + " written by sysbench, --auto-inc=off), hashed into 256 buckets over the shards");
            parameters.put("clients", threads + " sysbench threads, --db-ps-mode=" + psMode);
        }
        parameters.put("buffer pool", home.bufferPool + " in total per home, split evenly over its shards");
        home.describeCpus(parameters);
        parameters.put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; configurations alternate, only the measured home runs");
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), template, System.out);
        ComparisonRunner.Outcome outcome = runner.run(dataset, runs, measure.plan(configurations));
        String title = (tpcc ? "TPC-C" : "sysbench") + ": one instance with the whole buffer pool vs N shards behind the proxy";
        return ComparisonReporting.finish(spec, name, title, startedAt, parameters, outcome, versions,
            measure.output(name), measure.doc, home.datadirRoot);
    }
}
