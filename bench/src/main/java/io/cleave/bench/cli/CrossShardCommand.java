package io.cleave.bench.cli;

import io.cleave.bench.compare.Dataset;
import io.cleave.bench.compare.ResultWriter;
import io.cleave.bench.compare.TpccWorkload;
import io.cleave.bench.crossshard.Accounts;
import io.cleave.bench.crossshard.CrossShardFiles;
import io.cleave.bench.crossshard.CrossShardRunner;
import io.cleave.bench.crossshard.CrossShardSet;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.measure.HostInfo;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "cross-shard", mixinStandardHelpOptions = true,
    description = {"Cross-shard transactions through the proxy on one home of --shards shards.",
        "Transfers: client threads run BEGIN; UPDATE one random account on each of k shards; COMMIT, with the k values "
            + "alternating round after round; per k transactions/s, latency p50/p95/p99 of the whole transaction and "
            + "of the COMMIT alone, the COMMIT's ratio to k=1, XA branches and proxy CPU per transaction. Each "
            + "transaction moves money, so the sum of balances is checked afterwards.",
        "TPC-C: the standard mix over warehouses in ranges over the shards: tpmC and the share of transactions that "
            + "crossed shards; consistency conditions 1-4 checked afterwards."})
final class CrossShardCommand implements Callable<Integer> {
    static final String NAME = "cross-shard";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--shards", defaultValue = "4", description = "Shards of the home (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--k", split = ",", defaultValue = "1,2,4",
        description = "Shards each transfer updates, alternating in this order (default: ${DEFAULT-VALUE}).")
    List<Integer> ks;

    @Option(names = "--threads", defaultValue = "8", description = "Transfer client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--accounts-per-shard", defaultValue = "10000",
        description = "Accounts on each shard; transfers pick among them at random (default: ${DEFAULT-VALUE}).")
    int accountsPerShard;

    @Option(names = "--warehouses", defaultValue = "4",
        description = "TPC-C warehouses in total, in ranges over the shards (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--connections", defaultValue = "8", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--tpcc-rounds", defaultValue = "1",
        description = "TPC-C runs after the transfers, each after a --warmup; 0 leaves TPC-C out (default: ${DEFAULT-VALUE}).")
    int tpccRounds;

    @Option(names = "--tpcc-duration", defaultValue = "60s", converter = DurationConverter.class,
        description = "Measured time of each TPC-C run (default: ${DEFAULT-VALUE}).")
    Duration tpccDuration;

    @Option(names = "--report-interval", defaultValue = "5s", converter = DurationConverter.class,
        description = "TPC-C throughput-over-time step (default: ${DEFAULT-VALUE}).")
    Duration reportInterval;

    @Option(names = "--loader-threads", defaultValue = "4", description = "Threads loading TPC-C (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    @Override
    public Integer call() throws Exception {
        if (ks.isEmpty() || ks.stream().anyMatch(k -> k < 1 || k > shards) || ks.stream().distinct().count() != ks.size()) {
            throw new ParameterException(spec.commandLine(), "--k takes distinct values between 1 and --shards ("
                + shards + "): " + ks);
        }
        if (tpccRounds > 0 && warehouses < shards) {
            throw new ParameterException(spec.commandLine(), "TPC-C over " + shards + " shards needs at least " + shards
                + " warehouses, not " + warehouses);
        }
        String startedAt = ComparisonReporting.now();
        HomeSpec template = home.spec(Layout.CROSS_SHARD, Math.max(warehouses, shards), 0).withShards(shards);
        Accounts accounts = new Accounts(accountsPerShard);
        CrossShardRunner runner = new CrossShardRunner(home.cleaveJar(), template, System.out);
        CrossShardRunner.Outcome outcome = runner.run(
            new CrossShardRunner.TransferPlan(ks, threads, accounts, measure.rounds, measure.warmup, measure.duration),
            new CrossShardRunner.TpccPlan(new TpccWorkload(warehouses, connections, reportInterval), loaderThreads,
                tpccRounds, measure.warmup, tpccDuration));

        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("home", shards + " shards, buffer pool " + home.bufferPool + " in total split evenly over them");
        home.describeCpus(parameters);
        parameters.put("transfers", String.format("accounts(id, balance, moves), %,d per shard in one id range per shard; "
            + "%d client threads through the proxy, server-side prepared UPDATE, BEGIN and COMMIT as text", accountsPerShard,
            threads));
        parameters.put("transfer runs", "k = " + ks.stream().map(String::valueOf).collect(Collectors.joining(", "))
            + "; " + measure.rounds + (measure.rounds == 1 ? " round" : " rounds") + " x " + measure.duration.toSeconds()
            + " s, each after a " + measure.warmup.toSeconds() + " s warm-up, k alternating");
        if (tpccRounds > 0) {
            parameters.put("TPC-C", warehouses + " warehouses in ranges over the shards, item on every shard, "
                + connections + " terminals, no think time, REPEATABLE READ; " + tpccRounds
                + (tpccRounds == 1 ? " run" : " runs") + " x " + tpccDuration.toSeconds() + " s, each after a "
                + measure.warmup.toSeconds() + " s warm-up");
        }
        Path output = measure.output(NAME);
        Map<String, String> host = HostInfo.collect(Path.of(home.datadirRoot != null ? home.datadirRoot : "/tmp"));
        host.put("server", outcome.serverVersion());
        host.put("machine", host.get("machine") + "; " + outcome.serverVersion());
        CrossShardSet set = new CrossShardSet(NAME, "Cross-shard transactions: commit latency by shards per transaction, "
            + "and TPC-C over " + shards + " shards", ComparisonReporting.command(spec).strip(), startedAt,
            ComparisonReporting.now(), host, parameters, outcome.transfers(), outcome.tpcc(),
            outcome.checks().stream().map(Dataset.CheckResult::line).toList(), outcome.checksPassed());
        CrossShardFiles.writeJson(set, output);
        CrossShardFiles.render(set, output, measure.doc);
        PrintWriter out = spec.commandLine().getOut();
        out.println();
        out.print(Files.readString(output.resolve(ResultWriter.SUMMARY_MD)));
        out.println("wrote " + output.toAbsolutePath() + (measure.doc != null ? " and updated " + measure.doc : ""));
        out.flush();
        return set.checksPassed() ? 0 : ComparisonReporting.EXIT_CHECK_FAILED;
    }
}
