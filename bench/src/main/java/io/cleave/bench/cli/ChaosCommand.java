package io.cleave.bench.cli;

import io.cleave.bench.chaos.ChaosOptions;
import io.cleave.bench.chaos.ChaosReport;
import io.cleave.bench.chaos.ChaosResult;
import io.cleave.bench.chaos.ChaosRun;
import io.cleave.bench.chaos.FaultKind;
import io.cleave.bench.chaos.FaultSchedule;
import io.cleave.bench.compare.ResultsDocument;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench chaos}: the soak. One home of the real binary under bank transfers, upserts, TPC-C
 * and readers through the proxy, with faults from a seeded schedule, every check after each
 * fault; exits 1 at the first check that fails, with what differed.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = {"Runs a home of the real binary under cross-shard bank transfers (each client keeping a ledger of what"
        + " it was told), single-row upserts, TPC-C and readers, all through the proxy, while faults from a seeded"
        + " schedule hit it: SIGKILL and SIGSTOP of the daemon and of shards, clients vanishing mid-statement and"
        + " mid-COMMIT, moves, cancels, rebalance, scale up and down, shard-table.",
        "After each fault settles, with the clients at rest: the ledgers against the data read from every shard"
            + " directly (each row on exactly the shard that owns it, ghosts of moves under way left out), nothing"
            + " left open or prepared, no backend connection held, TPC-C conditions 1-4. The first failed check ends"
            + " the run with exit 1 and what differed; --seed S --replay runs the same schedule again.",
        "Fault kinds: daemon-kill, daemon-stop, shard-kill, shard-stop, client-vanish-statement, client-vanish-commit,"
            + " move, move-cancel, rebalance, scale-up, scale-down, shard-table."})
final class ChaosCommand implements Callable<Integer> {
    static final String NAME = "chaos";

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", defaultValue = "10m", converter = DurationConverter.class,
        description = "How long faults are injected; checks pause the run, so it takes longer (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--seed", description = "The schedule's and the clients' seed (default: drawn, and printed).")
    Long seed;

    @Option(names = "--replay", description = "Run the schedule recorded for --seed in --output (schedule.json) again,"
        + " with the options recorded with it; results go to its replay/ subdirectory.")
    boolean replay;

    @Option(names = "--faults", defaultValue = "all",
        description = "Fault kinds: all, a list (move,shard-kill), or all but some (all,-scale-down) (default: ${DEFAULT-VALUE}).")
    String faults;

    @Option(names = "--faults-per-minute", defaultValue = "5", description = "The schedule's mean rate (default: ${DEFAULT-VALUE}).")
    double faultsPerMinute;

    @Option(names = "--shards", defaultValue = "4", description = "Shards at the start (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--min-shards", defaultValue = "2", description = "Scale faults keep at least this many (default: ${DEFAULT-VALUE}).")
    int minShards;

    @Option(names = "--max-shards", description = "Scale faults keep at most this many (default: --shards + 2).")
    Integer maxShards;

    @Option(names = "--warehouses", description = "TPC-C warehouses, at least one per shard; 0 leaves TPC-C out (default: --shards).")
    Integer warehouses;

    @Option(names = "--branches-per-shard", defaultValue = "25", description = "Bank branches per shard (default: ${DEFAULT-VALUE}).")
    int branchesPerShard;

    @Option(names = "--accounts-per-branch", defaultValue = "20", description = "Accounts per branch (default: ${DEFAULT-VALUE}).")
    int accountsPerBranch;

    @Option(names = "--kv-keys", defaultValue = "2000", description = "Keys of kv_hashed; the tables shard-table moves get a quarter each (default: ${DEFAULT-VALUE}).")
    int kvKeys;

    @Option(names = "--transfer-clients", defaultValue = "4", description = "Bank transfer clients (default: ${DEFAULT-VALUE}).")
    int transferClients;

    @Option(names = "--upsert-clients", defaultValue = "2", description = "Upsert clients (default: ${DEFAULT-VALUE}).")
    int upsertClients;

    @Option(names = "--tpcc-terminals", defaultValue = "2", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int tpccTerminals;

    @Option(names = "--readers", defaultValue = "2", description = "Readers checking one-server invariants (default: ${DEFAULT-VALUE}).")
    int readers;

    @Option(names = "--global-reads", description = "Readers also read the bank's totals over every shard in one"
        + " transaction while transfers run; needs consistent reads across shards, which this build lacks.")
    boolean globalReads;

    @Option(names = "--buffer-pool", defaultValue = "1G", description = "The home's total buffer pool (default: ${DEFAULT-VALUE}).")
    String bufferPool;

    @Option(names = "--server-binary", defaultValue = "auto",
        description = "mysqld/mariadbd to run: auto, embedded, or a path (default: ${DEFAULT-VALUE}).")
    String serverBinary;

    @Option(names = "--cleave-jar", description = "The Cleave binary (default: $CLEAVE_JAR, else manager/target/cleave.jar).")
    Path cleaveJar;

    @Option(names = "--output", description = "Where the schedule, the fault log and the results go (default: bench/results/chaos).")
    Path output;

    @Option(names = "--doc", description = "A Markdown document whose chaos section gets the summary (e.g. bench/RESULTS.md).")
    Path doc;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        Path dir = output != null ? output : BenchPaths.benchDir().resolve("results").resolve(NAME);
        FaultSchedule schedule = schedule(dir);
        // A replay keeps the run it replays: its results go beside them.
        ChaosResult result = new ChaosRun(schedule, BenchPaths.cleaveJar(cleaveJar), serverBinary, replay ? dir.resolve("replay") : dir, out).run();
        String summary = ChaosReport.markdown(result);
        out.println();
        out.println(summary);
        if (doc != null) {
            ResultsDocument.splice(doc, NAME, summary);
        }
        return result.passed() ? 0 : 1;
    }

    private FaultSchedule schedule(Path dir) throws java.io.IOException {
        if (replay) {
            if (seed == null) {
                throw new ParameterException(spec.commandLine(), "--replay needs the --seed of the run to replay");
            }
            Path recorded = dir.resolve(FaultSchedule.FILE);
            if (!Files.isRegularFile(recorded)) {
                throw new ParameterException(spec.commandLine(), "no schedule recorded in " + recorded
                    + " (give the --output of the run to replay)");
            }
            FaultSchedule s = FaultSchedule.read(recorded);
            if (s.options().seed() != seed) {
                throw new ParameterException(spec.commandLine(), recorded + " holds the schedule of seed "
                    + s.options().seed() + ", not " + seed);
            }
            return s;
        }
        long s = seed != null ? seed : System.nanoTime() ^ System.currentTimeMillis();
        try {
            ChaosOptions options = new ChaosOptions(s, duration.toMillis(), faultsPerMinute, Arrays.asList(faults.split(",")),
                shards, minShards, maxShards != null ? maxShards : shards + 2, warehouses != null ? warehouses : shards,
                branchesPerShard, accountsPerBranch, kvKeys, transferClients, upsertClients, tpccTerminals, readers,
                globalReads, bufferPool);
            return FaultSchedule.generate(options);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

}
