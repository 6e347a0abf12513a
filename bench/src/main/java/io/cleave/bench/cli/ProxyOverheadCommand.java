package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.SysbenchWorkload;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.home.Layout;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.io.PrintStream;
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

@Command(name = "proxy-overhead", mixinStandardHelpOptions = true,
    description = {"The sysbench suite on one shard (config/single.yaml's shape), directly on the shard's port and "
        + "through the proxy, alternating, each repeated.",
        "Per workload: throughput ratio proxy / direct, proxy CPU per statement and per transaction, shard CPU both "
            + "ways, latency percentiles; PNG charts and a Markdown table."})
final class ProxyOverheadCommand implements Callable<Integer> {
    static final String NAME = "proxy-overhead";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--workloads", split = ",", defaultValue = "oltp_point_select,oltp_read_only,oltp_read_write,oltp_insert",
        description = "sysbench scripts, run in this order (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--tables", defaultValue = "4", description = "sbtest tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "100000", description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "8", description = "sysbench client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--ps-mode", defaultValue = "auto",
        description = "sysbench --db-ps-mode: auto (server-side prepared statements) or disable (default: ${DEFAULT-VALUE}).")
    String psMode;

    @Override
    public Integer call() throws Exception {
        String startedAt = ComparisonReporting.now();
        Sysbench sysbench = Sysbench.onPath();
        String sysbenchVersion = sysbench.version();
        SysbenchOptions options = new SysbenchOptions(workloads.get(0), tables, tableSize, threads, psMode, true);
        List<Workload> runs = new ArrayList<>();
        for (String w : workloads) {
            runs.add(new SysbenchWorkload(options.withWorkload(w), sysbench));
        }
        PrintStream log = System.out;
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), home.spec(Layout.SINGLE, 0, tables), log);
        ComparisonRunner.Outcome outcome = runner.run(new SysbenchDataset(Layout.SINGLE, options, 4, sysbench), runs,
            measure.plan(List.of(Configuration.direct(), Configuration.proxy(1))));

        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", tables + " tables x " + tableSize + " rows on 1 shard, every table unsharded");
        parameters.put("clients", threads + " sysbench threads, --db-ps-mode=" + psMode + ", client -> proxy over TCP");
        parameters.put("buffer pool", home.bufferPool);
        home.describeCpus(parameters);
        parameters.put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up, direct and proxy alternating");
        return ComparisonReporting.finish(spec, NAME, "Proxy overhead: sysbench directly on one shard vs through the proxy",
            startedAt, parameters, outcome, Map.of("sysbench", sysbenchVersion), measure.output(NAME), measure.doc,
            home.datadirRoot);
    }
}
