package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Access;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.Dataset;
import io.cleave.bench.compare.Measurement;
import io.cleave.bench.compare.RunMeter;
import io.cleave.bench.compare.Schedule;
import io.cleave.bench.compare.ThroughputPoint;
import io.cleave.bench.compare.TpccDataset;
import io.cleave.bench.compare.TpccWorkload;
import io.cleave.bench.compare.WorkloadResult;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs the cross-shard benchmark on one home started with the real binary: accounts and TPC-C
 * loaded, then k-shard transfers with the k values alternating round after round (see
 * {@link Schedule}), each measurement after a warm-up of its own; then TPC-C's standard mix; then
 * the checks (balances, placement, move counters, TPC-C consistency). The home is stopped and
 * deleted at the end, also when the JVM is interrupted.
 */
public final class CrossShardRunner {
    private static final String XA_STARTS = "Com_xa_start";

    private final Path cleaveJar;
    private final HomeSpec spec;
    private final PrintStream log;

    public CrossShardRunner(Path cleaveJar, HomeSpec spec, PrintStream log) {
        this.cleaveJar = cleaveJar;
        this.spec = spec;
        this.log = log;
    }

    /** The transfers: which k, how many client threads over how many accounts, how long and how often. */
    public record TransferPlan(List<Integer> ks, int threads, Accounts accounts, int rounds, Duration warmup,
                               Duration duration) {
    }

    /** TPC-C after the transfers; rounds 0 leaves it out. */
    public record TpccPlan(TpccWorkload workload, int loaderThreads, int rounds, Duration warmup, Duration duration) {
    }

    public record Outcome(List<TransferMeasurement> transfers, List<TpccMeasurement> tpcc,
                          List<Dataset.CheckResult> checks, String serverVersion) {
        public boolean checksPassed() {
            return checks.stream().allMatch(Dataset.CheckResult::passed);
        }
    }

    public Outcome run(TransferPlan transfers, TpccPlan tpcc) throws Exception {
        for (int k : transfers.ks()) {
            if (k < 1 || k > spec.shards()) {
                throw new IllegalArgumentException("k = " + k + " needs between 1 and " + spec.shards() + " shards");
            }
        }
        BenchHome home = BenchHome.create(cleaveJar, spec);
        // The daemon runs detached: an interrupted benchmark (Ctrl-C, kill) must still stop it.
        Thread cleanup = new Thread(home::close, "bench-home-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            home.up();
            long started = System.nanoTime();
            log.printf("loading %s (%,d accounts per shard%s) ...%n", home, transfers.accounts().accountsPerShard(),
                tpcc.rounds() > 0 ? ", " + tpcc.workload().warehouses() + " TPC-C warehouses" : "");
            transfers.accounts().load(home);
            TpccDataset tpccData = new TpccDataset(tpcc.workload().warehouses(), tpcc.loaderThreads());
            if (tpcc.rounds() > 0) {
                tpccData.load(home);
            }
            log.printf("loaded in %.0f s%n", (System.nanoTime() - started) / 1e9);
            String serverVersion = home.status().serverBinary();

            Updates updates = new Updates();
            List<TransferMeasurement> transferRuns = transfers(home, transfers, updates);
            List<TpccMeasurement> tpccRuns = new ArrayList<>();
            for (int round = 1; round <= tpcc.rounds(); round++) {
                tpccRuns.add(tpcc(home, tpcc, round));
            }

            List<Dataset.CheckResult> checks = new ArrayList<>(
                transfers.accounts().verify(home, updates.committed, updates.uncertain));
            if (tpcc.rounds() > 0) {
                checks.addAll(tpccData.verify(home));
            }
            for (Dataset.CheckResult check : checks) {
                log.println((check.passed() ? "check: " : "CHECK FAILED: ") + check.line());
            }
            return new Outcome(transferRuns, tpccRuns, checks, serverVersion);
        } finally {
            home.close();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // The JVM is already shutting down and the hook runs or ran.
            }
        }
    }

    /** Row updates of every transfer run, warm-ups included, for the move counters' check. */
    private static final class Updates {
        long committed;
        long uncertain;

        void add(TransferResult r) {
            committed += r.committedUpdates();
            uncertain += r.uncertainUpdates();
        }
    }

    private List<TransferMeasurement> transfers(BenchHome home, TransferPlan plan, Updates updates) throws Exception {
        List<Configuration> configurations = new ArrayList<>();
        for (int k : plan.ks()) {
            configurations.add(configuration(k));
        }
        TransferDriver driver = new TransferDriver(home.proxy(Accounts.DATABASE), spec.shards(),
            plan.accounts().accountsPerShard(), plan.threads());
        List<Schedule.Slot> slots = Schedule.of(configurations, plan.rounds());
        List<TransferMeasurement> runs = new ArrayList<>();
        long seed = 1;
        for (Schedule.Slot slot : slots) {
            int k = plan.ks().get(configurations.indexOf(slot.configuration()));
            if (!plan.warmup().isZero()) {
                updates.add(driver.run(k, plan.warmup(), seed++));
            }
            long xaBefore = home.shardStatus(XA_STARTS);
            RunMeter meter = RunMeter.start(home, Access.PROXY);
            TransferResult clients = driver.run(k, plan.duration(), seed++);
            Measurement metered = meter.stop(slot.configuration(), slot.round(), asWorkloadResult(clients));
            long xaStarts = home.shardStatus(XA_STARTS) - xaBefore;
            updates.add(clients);
            TransferMeasurement m = new TransferMeasurement(k, slot.round(), metered, clients, xaStarts);
            runs.add(m);
            log.printf(Locale.ROOT, "[%d/%d] round %d, k=%d: %.0f txn/s, transaction p50 %.2f p99 %.2f ms, COMMIT p50 "
                    + "%.2f p99 %.2f ms, %.2f XA branches/txn, proxy %.0f us/txn, failed %d %s, others used %.0f%% of "
                    + "the CPU, load %s%n", runs.size(), slots.size(), slot.round(), k, clients.tps(),
                clients.transaction().p50(), clients.transaction().p99(), clients.commit().p50(), clients.commit().p99(),
                m.xaStartsPerTransaction(), metered.proxyMicrosPerTransaction(), clients.failed(),
                clients.errorsByCode(), 100 * metered.otherCpuShare(), metered.loadBefore());
        }
        return runs;
    }

    private TpccMeasurement tpcc(BenchHome home, TpccPlan plan, int round) throws Exception {
        Configuration c = Configuration.proxy(spec.shards());
        if (!plan.warmup().isZero()) {
            plan.workload().run(home, c, plan.warmup(), "tpcc warm-up");
        }
        long xaBefore = home.shardStatus(XA_STARTS);
        Optional<ProxyTransactions> countedBefore = ProxyTransactions.parse(home.metrics());
        RunMeter meter = RunMeter.start(home, Access.PROXY);
        WorkloadResult result = plan.workload().run(home, c, plan.duration(), "tpcc, " + c.label());
        Measurement metered = meter.stop(c, round, result);
        long xaStarts = home.shardStatus(XA_STARTS) - xaBefore;
        Optional<ProxyTransactions> counted = ProxyTransactions.parse(home.metrics())
            .flatMap(after -> countedBefore.map(after::minus));
        CrossShardShare share = CrossShardShare.of(xaStarts, result.transactions(), counted);
        log.printf(Locale.ROOT, "TPC-C round %d: %.0f tpmC, %d transactions, %d XA branches started, cross-shard share "
                + "%.1f%% (%s), proxy %.0f us/txn, errors %d, others used %.0f%% of the CPU, load %s%n", round,
            result.throughput(), result.transactions(), xaStarts, 100 * share.share(), share.source(),
            metered.proxyMicrosPerTransaction(), result.errors(), 100 * metered.otherCpuShare(), metered.loadBefore());
        return new TpccMeasurement(round, metered, xaStarts, share);
    }

    private Configuration configuration(int k) {
        return new Configuration("k=" + k, spec.shards(), Access.PROXY);
    }

    /** The clients' view in the shape the metering keeps: committed transactions, whole-transaction latency. */
    private static WorkloadResult asWorkloadResult(TransferResult r) {
        return new WorkloadResult(r.seconds(), r.committed(), -1, r.tps(), r.transaction(), List.<ThroughputPoint>of(),
            r.failed(), null);
    }
}
