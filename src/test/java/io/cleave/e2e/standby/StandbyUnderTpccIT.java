package io.cleave.e2e.standby;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.bench.tpcc.run.TransactionSummary;
import io.cleave.bench.tpcc.txn.TransactionType;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.SwitchoverReport;
import io.cleave.manager.standby.SwitchoverRequest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A standby pair under TPC-C, measured in one run: a primary of 2 shards ({@code -Dstandby.shards=N}: N), one
 * warehouse per shard (remote order lines and payments commit across shards), its standby on loopback. TPC-C runs
 * through the primary's proxy in alternating rounds with the primary's semi-sync on and off; per mode tpmC,
 * new-order's and payment's latency and the CPU other processes used; meanwhile every 100 ms each replica's lag:
 * the transactions its primary shard wrote that it has not applied yet (GTID sequence numbers) and its
 * {@code Seconds_Behind_Master}. Then a switchover to the standby and back under TPC-C: the pause of each, the
 * errors the terminals saw. Afterwards TPC-C's consistency conditions hold on both homes' shards and every
 * commit of the semi-sync rounds waited for the standby. A measurement, not a default test:
 * {@code -Dstandby.bench=true} (rounds: {@code -Dstandby.bench.rounds=N}, seconds each:
 * {@code -Dstandby.bench.seconds=S}, terminals: {@code -Dstandby.bench.terminals=T}).
 */
class StandbyUnderTpccIT {

    private static final int SHARDS = StandbyIT.PAIR_SHARDS;

    @Test
    void replicationLagSemiSyncCostAndSwitchoverPauseUnderTpcc() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.bench"), "a measurement: run with -Dstandby.bench=true");
        int rounds = Integer.getInteger("standby.bench.rounds", 3);
        int seconds = Integer.getInteger("standby.bench.seconds", 20);
        int terminals = Integer.getInteger("standby.bench.terminals", 4);
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-tpcc-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = CleaveTestHome.builder().shards(SHARDS).bufferPoolPerShardMiB(128)
                .extraYaml(TpccSharding.yaml(SHARDS)).serverOption("log_slave_updates", "ON").create();
             RunningDaemon a = home.start()) {
            load(a);
            String aUrl = "http://127.0.0.1:" + a.adminPort();
            StandbyConfig addresses = StandbyIT.freeAddresses(SHARDS);
            b = StandbyIT.seedAndAwaitSemiSync(aUrl, a.adminToken(), work, addresses, SHARDS);
            DataSource proxy = new JdbcTarget("jdbc:mysql://127.0.0.1:" + a.proxyPort() + "/tpcc?sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true", "root", "").withServerPreparedStatements();
            List<Long> ours = new ArrayList<>();
            ours.add(ProcessHandle.current().pid());
            for (Daemon d : List.of(a.daemon(), b)) {
                d.status().forEach(s -> ours.add(s.pid()));
            }

            AdminClient admin = AdminClient.remote(aUrl, a.adminToken());
            Mode[] modes = {new Mode("semi-sync on", true), new Mode("semi-sync off", false)};
            for (int r = 0; r < rounds; r++) {
                for (Mode m : r % 2 == 0 ? modes : new Mode[] {modes[1], modes[0]}) {
                    admin.semiSync(m.on);
                    try (LagSampler lag = new LagSampler(a, b)) {
                        long[] cpu0 = SemiSyncCostIT.CpuUse.read(ours);
                        long start = System.nanoTime();
                        m.results.add(TpccDriver.run(proxy, RunOptions.of(SHARDS, terminals, Duration.ofSeconds(seconds))
                                .withWarmup(Duration.ofSeconds(2))));
                        long[] cpu1 = SemiSyncCostIT.CpuUse.read(ours);
                        m.nanos += System.nanoTime() - start;
                        m.otherCpuTicks += (cpu1[0] - cpu0[0]) - (cpu1[1] - cpu0[1]);
                        m.lag.add(lag.stop());
                    }
                }
            }
            admin.semiSync(true);
            assertThat(a.daemon().replication().report().shards()).allSatisfy(s ->
                    assertThat(s.asyncCommits()).as("shard %d's commits answered without the standby", s.shard()).isZero());

            // A switchover to B and back while TPC-C runs through A's proxy.
            String bUrl = "http://127.0.0.1:" + addresses.adminPort();
            String bToken = Files.readString(b.home().adminTokenFile()).trim();
            int bProxy = Integer.parseInt(addresses.proxyListen().split(":")[1]);
            long[] cpu0 = SemiSyncCostIT.CpuUse.read(ours);
            long started = System.nanoTime();
            CompletableFuture<RunResult> during = CompletableFuture.supplyAsync(() -> {
                try {
                    return TpccDriver.run(proxy, RunOptions.of(SHARDS, terminals, Duration.ofSeconds(3L * seconds))
                            .withReportInterval(Duration.ofSeconds(1)));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(seconds * 500L);
            SwitchoverReport there = admin.switchover(new SwitchoverRequest(bUrl, bToken, 0, 0, 0));
            System.out.println("StandbyUnderTpccIT: A -> B " + there);
            Daemon bDaemon = b;
            await(bDaemon, r -> r.role() == HostRole.PRIMARY && r.semiSync(), "B is the primary, waited for");
            await(a.daemon(), r -> r.role() == HostRole.STANDBY && r.shards().size() == SHARDS
                    && r.shards().stream().allMatch(ShardReplication::replicating), "A replicates B");
            SwitchoverIT.awaitProxy(bDaemon, bProxy);
            Thread.sleep(seconds * 500L);
            SwitchoverReport back = AdminClient.remote(bUrl, bToken).switchover(SwitchoverRequest.known());
            System.out.println("StandbyUnderTpccIT: B -> A " + back);
            RunResult switched = during.get(10, TimeUnit.MINUTES);
            long[] cpu1 = SemiSyncCostIT.CpuUse.read(ours);
            double switchOthers = ((cpu1[0] - cpu0[0]) - (cpu1[1] - cpu0[1])) / 100.0 * 1e9 / (System.nanoTime() - started);
            await(a.daemon(), r -> r.role() == HostRole.PRIMARY && r.semiSync(), "A is the primary again, waited for");

            report(modes, terminals, there.pauseMillis(), back.standbyProxyPauseMillis(), switched, switchOthers);

            assertThat(switched.errors()).as("errors TPC-C's terminals saw across the switchovers").isEmpty();
            assertThat(switched.reconnects()).as("connections TPC-C's terminals lost across the switchovers").isZero();
            for (Mode m : modes) {
                for (RunResult r : m.results) {
                    assertThat(r.errors()).as("errors in a round with %s", m.name).isEmpty();
                    assertThat(r.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
                }
            }
            awaitCaughtUp(a.daemon(), b);
            assertThat(ConsistencyCheck.check(shards(a.daemon()), SHARDS)).as("conditions on the primary's shards").isEmpty();
            assertThat(ConsistencyCheck.check(shards(b), SHARDS)).as("conditions on the standby's shards").isEmpty();
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** One warehouse per shard (and its copy of item), each loaded on its shard directly, all at once. */
    private static void load(RunningDaemon a) throws Exception {
        try (Connection c = a.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE tpcc");
        }
        TpccSharding.loadOneWarehousePerShard(shards(a.daemon()));
    }

    static List<DataSource> shards(Daemon d) {
        List<DataSource> out = new ArrayList<>();
        for (ShardEndpoint e : d.shardEndpoints()) {
            out.add(new JdbcTarget("jdbc:mysql://127.0.0.1:" + e.port() + "/tpcc?sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true", e.user(), e.secret()));
        }
        return out;
    }

    /** Until every shard of {@code standby} has applied every GTID its primary shard wrote. */
    private static void awaitCaughtUp(Daemon primary, Daemon standby) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        for (int s = 0; s < SHARDS; s++) {
            try (Connection p = StandbyIT.shard(primary, s); Connection r = StandbyIT.shard(standby, s)) {
                long target = StandbyIT.sequence(single(p, "SELECT @@GLOBAL.gtid_binlog_pos"));
                while (StandbyIT.sequence(single(r, "SELECT @@GLOBAL.gtid_slave_pos")) < target) {
                    assertThat(System.nanoTime()).as("standby shard %d caught up within 2 minutes", s).isLessThan(deadline);
                    Thread.sleep(100);
                }
            }
        }
    }

    private static void report(Mode[] modes, int terminals, double there, double back, RunResult switched,
                               double switchOthers) {
        System.out.printf(Locale.ROOT, "StandbyUnderTpccIT: %d shards, %d warehouses, %d terminals%n", SHARDS, SHARDS,
                terminals);
        for (Mode m : modes) {
            System.out.println("StandbyUnderTpccIT: " + m.summary());
        }
        double[] ratios = new double[modes[0].results.size()];
        for (int r = 0; r < ratios.length; r++) {
            ratios[r] = modes[0].results.get(r).tpmC() / modes[1].results.get(r).tpmC();
        }
        System.out.printf(Locale.ROOT, "StandbyUnderTpccIT: tpmC with semi-sync on over off, round by round: %s%n",
                java.util.Arrays.toString(java.util.Arrays.stream(ratios).map(x -> Math.round(x * 100) / 100.0).toArray()));
        for (int s = 0; s < SHARDS; s++) {
            for (Mode m : modes) {
                System.out.println("StandbyUnderTpccIT: shard " + s + ", " + m.name + ": " + Lag.merge(m.lag).summary(s));
            }
        }
        double slowest = switched.series().stream().filter(x -> !x.warmup()).mapToDouble(x -> x.tpmC()).min().orElse(0);
        System.out.printf(Locale.ROOT, "StandbyUnderTpccIT: switchover A -> B pause %.0f ms, B -> A pause %.0f ms;"
                        + " TPC-C across them %.0f tpmC (slowest second %.0f), errors %d, reconnects %d;"
                        + " other processes' CPU %.0f%% of one core%n", there, back, switched.tpmC(), slowest,
                switched.totalErrors(), switched.reconnects(), switchOthers * 100);
    }

    /** One mode's rounds: their TPC-C results, the replicas' lag, the host's other CPU use. */
    private static final class Mode {
        final String name;
        final boolean on;
        final List<RunResult> results = new ArrayList<>();
        final List<Lag> lag = new ArrayList<>();
        long nanos;
        long otherCpuTicks;

        Mode(String name, boolean on) {
            this.name = name;
            this.on = on;
        }

        String summary() {
            double[] tpmC = results.stream().mapToDouble(RunResult::tpmC).sorted().toArray();
            return String.format(Locale.ROOT, "%s: tpmC median %.0f of %s; new-order p50 %.1f ms p99 %.1f ms;"
                            + " payment p50 %.1f ms p99 %.1f ms (medians of the rounds); other processes' CPU %.0f%% of one core",
                    name, tpmC[tpmC.length / 2], java.util.Arrays.toString(tpmC),
                    median(TransactionType.NEW_ORDER, true), median(TransactionType.NEW_ORDER, false),
                    median(TransactionType.PAYMENT, true), median(TransactionType.PAYMENT, false),
                    otherCpuTicks / 100.0 * 1e9 / nanos * 100);
        }

        private double median(TransactionType type, boolean p50) {
            double[] v = results.stream().map(r -> r.transaction(type)).map(TransactionSummary::latency)
                    .mapToDouble(l -> p50 ? l.p50() : l.p99()).sorted().toArray();
            return v[v.length / 2];
        }
    }

    /**
     * Each replica's lag as sampled: per shard the transactions behind (its primary shard's last GTID sequence
     * number, read just after the replica's, minus the replica's: an upper bound by the commits in between) and
     * {@code Seconds_Behind_Master}.
     */
    private record Lag(List<List<Long>> behind, List<List<Long>> seconds) {
        static Lag merge(List<Lag> lags) {
            List<List<Long>> behind = new ArrayList<>();
            List<List<Long>> seconds = new ArrayList<>();
            for (int s = 0; s < SHARDS; s++) {
                List<Long> b = new ArrayList<>();
                List<Long> sec = new ArrayList<>();
                for (Lag l : lags) {
                    b.addAll(l.behind.get(s));
                    sec.addAll(l.seconds.get(s));
                }
                behind.add(b);
                seconds.add(sec);
            }
            return new Lag(behind, seconds);
        }

        String summary(int shard) {
            long[] b = behind.get(shard).stream().mapToLong(Long::longValue).sorted().toArray();
            long[] s = seconds.get(shard).stream().mapToLong(Long::longValue).sorted().toArray();
            return String.format(Locale.ROOT, "%d samples; transactions behind p50 %d, p99 %d, max %d;"
                            + " Seconds_Behind_Master p50 %d, max %d", b.length, pct(b, 50), pct(b, 99), pct(b, 100),
                    pct(s, 50), pct(s, 100));
        }

        private static long pct(long[] sorted, int p) {
            return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
        }
    }

    /** Samples every replica's lag every 100 ms on a thread of its own until stopped. */
    private static final class LagSampler implements AutoCloseable {
        private final AtomicBoolean done = new AtomicBoolean();
        private final CompletableFuture<Lag> sampled;

        LagSampler(RunningDaemon primary, Daemon standby) {
            sampled = CompletableFuture.supplyAsync(() -> {
                List<List<Long>> behind = new ArrayList<>();
                List<List<Long>> seconds = new ArrayList<>();
                List<Connection> onA = new ArrayList<>();
                List<Connection> onB = new ArrayList<>();
                try {
                    for (int s = 0; s < SHARDS; s++) {
                        onA.add(StandbyIT.shard(primary.daemon(), s));
                        onB.add(StandbyIT.shard(standby, s));
                        behind.add(new ArrayList<>());
                        seconds.add(new ArrayList<>());
                    }
                    while (!done.get()) {
                        for (int s = 0; s < SHARDS; s++) {
                            long applied = StandbyIT.sequence(single(onB.get(s), "SELECT @@GLOBAL.gtid_slave_pos"));
                            long secondsBehind = secondsBehind(onB.get(s));
                            long written = StandbyIT.sequence(single(onA.get(s), "SELECT @@GLOBAL.gtid_binlog_pos"));
                            behind.get(s).add(Math.max(0, written - applied));
                            if (secondsBehind >= 0) {
                                seconds.get(s).add(secondsBehind);
                            }
                        }
                        Thread.sleep(100);
                    }
                    return new Lag(behind, seconds);
                } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException("sampling the replicas' lag", e);
                } finally {
                    for (Connection c : onA) {
                        close(c);
                    }
                    for (Connection c : onB) {
                        close(c);
                    }
                }
            });
        }

        private static long secondsBehind(Connection replica) throws SQLException {
            try (Statement st = replica.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    return -1;
                }
                long v = rs.getLong("Seconds_Behind_Master");
                return rs.wasNull() ? -1 : v;
            }
        }

        private static void close(Connection c) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing after the measurement: nothing depends on it
            }
        }

        Lag stop() throws Exception {
            done.set(true);
            return sampled.get(1, TimeUnit.MINUTES);
        }

        @Override
        public void close() {
            done.set(true);
        }
    }
}
