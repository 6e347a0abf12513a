package io.cleave.bench.cli;

import io.cleave.bench.compare.ClientAccount;
import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.WithAccounts;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "accounts", mixinStandardHelpOptions = true,
    description = {"The same workload through the proxy as root and as application accounts, alternating on one home: "
        + "what logging in to the shards as the client's own account (the shards check its privileges) costs.",
        "root is the bootstrap administrator of 127.0.0.0/8, which the proxy reaches the shards as over loopback TCP "
            + "with a PROXY header; 'bench_app'@'%' has SELECT, INSERT, UPDATE, DELETE on the benchmark's database and "
            + "goes over the shards' Unix socket; 'bench_lo'@'127.0.0.0/255.0.0.0' has the same privileges and goes as "
            + "root does."})
final class AccountsBenchCommand implements Callable<Integer> {

    static final ClientAccount APPLICATION = ClientAccount.application("bench_app", "%");
    static final ClientAccount LOOPBACK = ClientAccount.application("bench_lo", "127.0.0.0/255.0.0.0");

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Mixin
    WorkloadMixin workload;

    @Option(names = "--shards", defaultValue = "2", description = "Shards of the home (default: ${DEFAULT-VALUE}).")
    int shards;

    @Override
    public Integer call() throws Exception {
        WorkloadMixin.Setup setup = workload.setup(spec, home, "accounts",
            (dataset, database) -> new WithAccounts(dataset, database, List.of(APPLICATION, LOOPBACK)));
        Configuration root = Configuration.proxy(shards);
        String where = shards + (shards == 1 ? " shard" : " shards");
        List<Configuration> configurations = List.of(
            root.with(where + ", proxy as root (loopback TCP to the shards)", Map.of()),
            root.as(where + ", proxy as 'bench_app'@'%' (Unix socket)", APPLICATION),
            root.as(where + ", proxy as 'bench_lo'@'127.0.0.0/8' (loopback TCP)", LOOPBACK));
        String startedAt = ComparisonReporting.now();
        setup.parameters().put("accounts", "root: ALL PRIVILEGES ON *.* (the bootstrap); bench_app and bench_lo: SELECT,"
            + " INSERT, UPDATE, DELETE on the benchmark's database only");
        setup.parameters().put("buffer pool", home.bufferPool + " in total, split evenly over the shards");
        home.describeCpus(setup.parameters());
        setup.parameters().put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; the accounts alternate on one home");
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), setup.template().withShards(shards), System.out);
        ComparisonRunner.Outcome outcome = runner.run(setup.dataset(), setup.runs(), measure.plan(configurations));
        String title = (setup.tpcc() ? "TPC-C" : "sysbench") + " through the proxy: root against application accounts";
        return ComparisonReporting.finish(spec, setup.name(), title, startedAt, setup.parameters(), outcome,
            setup.versions(), measure.output(setup.name()), measure.doc, home.datadirRoot);
    }
}
