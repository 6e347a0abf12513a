package io.cleave.bench.cli;

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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The workload of a comparison that runs either TPC-C or sysbench scripts, and what follows from
 * the choice: the homes' layout, the dataset, the workloads measured and how the report names them.
 */
final class WorkloadMixin {

    @Option(names = "--workload", split = ",", defaultValue = "tpcc",
        description = "tpcc, or sysbench scripts such as oltp_read_write,oltp_point_select (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

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

    /**
     * The chosen workload set up: {@code name} is the comparison's ({@code prefix}-tpcc or
     * {@code prefix}-sysbench), {@code parameters} and {@code versions} start the report.
     */
    record Setup(boolean tpcc, String name, HomeSpec template, Dataset dataset, List<Workload> runs,
                 Map<String, String> parameters, Map<String, String> versions) {
    }

    /** {@code wrap} may add to the dataset (accounts made once it is loaded, say); the database is passed to it. */
    Setup setup(CommandSpec spec, HomeMixin home, String prefix, DatasetWrapper wrap) {
        boolean tpcc = workloads.equals(List.of("tpcc"));
        if (!tpcc && workloads.contains("tpcc")) {
            throw new ParameterException(spec.commandLine(), "tpcc and sysbench workloads need different homes: "
                + "run them as two commands");
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        Map<String, String> versions = new LinkedHashMap<>();
        List<Workload> runs = new ArrayList<>();
        if (tpcc) {
            runs.add(new TpccWorkload(warehouses, connections, reportInterval));
            parameters.put("data", warehouses + " TPC-C warehouses in ranges over the shards, item on every shard");
            parameters.put("clients", connections + " terminals, no think time, server-side prepared statements, REPEATABLE READ");
            return new Setup(true, prefix + "-tpcc", home.spec(Layout.TPCC, warehouses, 0),
                wrap.wrap(new TpccDataset(warehouses, loaderThreads), TpccDataset.DATABASE), runs, parameters, versions);
        }
        Sysbench sysbench = Sysbench.onPath();
        versions.put("sysbench", sysbench.version());
        // Ids written by sysbench (1..table size): keys the proxy draws for a hashed table are unique but
        // not contiguous, and sysbench's point selects and delete/insert pairs assume 1..table size.
        SysbenchOptions options = new SysbenchOptions(workloads.get(0), tables, tableSize, threads, psMode, false);
        for (String w : workloads) {
            runs.add(new SysbenchWorkload(options.withWorkload(w), sysbench));
        }
        parameters.put("data", tables + " sbtest tables x " + tableSize + " rows (ids 1.." + tableSize
            + " written by sysbench, --auto-inc=off), hashed into 256 buckets over the shards");
        parameters.put("clients", threads + " sysbench threads, --db-ps-mode=" + psMode);
        return new Setup(false, prefix + "-sysbench", home.spec(Layout.SYSBENCH, 0, tables),
            wrap.wrap(new SysbenchDataset(Layout.SYSBENCH, options, loaderThreads, sysbench), SysbenchDataset.DATABASE),
            runs, parameters, versions);
    }

    /** Adds to a dataset of a database. */
    @FunctionalInterface
    interface DatasetWrapper {
        DatasetWrapper NONE = (dataset, database) -> dataset;

        Dataset wrap(Dataset dataset, String database);
    }
}
