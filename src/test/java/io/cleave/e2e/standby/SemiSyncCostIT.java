package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbySeed;
import io.cleave.manager.supervisor.InstanceStatus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What semi-sync costs a commit, measured in one run: a primary with a standby on loopback, single-shard
 * autocommit UPDATEs (each changes a row: an UPDATE that changes nothing writes no binlog event and
 * waits for nothing) and two-shard transfers, one of each in turn, through the primary's proxy, in alternating rounds with
 * the primary's semi-sync on and off ({@code cleave standby --semi-sync}); per mode the commits per
 * second and p50/p99 latency, and the CPU other processes used meanwhile. A measurement, not a default
 * test: {@code -Dstandby.bench=true} (rounds: {@code -Dstandby.bench.rounds=N}, seconds each:
 * {@code -Dstandby.bench.seconds=S}). With {@code -Dstandby.bench.tls=true} the pair runs
 * {@code server.replication_tls: required} and the two modes are semi-sync on with the replicas' connections over
 * verified TLS and in clear (the replication account let in without TLS, each replica's CHANGE MASTER switched, outside
 * the binlog), what TLS costs a commit that waits for the standby's acknowledgement.
 */
class SemiSyncCostIT {

    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(200, 10, 100);

    @Test
    void commitLatencyWithAndWithoutSemiSync() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.bench"), "a measurement: run with -Dstandby.bench=true");
        int rounds = Integer.getInteger("standby.bench.rounds", 3);
        int seconds = Integer.getInteger("standby.bench.seconds", 10);
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-semisync-",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x")));
        try {
            boolean tls = Boolean.getBoolean("standby.bench.tls");
            CleaveTestHome.Builder builder = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING);
            if (tls) {
                builder.serverSetting("replication_tls", "required");
            }
            try (CleaveTestHome a = builder.create();
                 RunningDaemon primary = a.start()) {
                try (Connection c = primary.connectProxy("", "")) {
                    BankTransfers.create(c, SHAPE);
                }
                String url = "http://127.0.0.1:" + primary.adminPort();
                StandbySeed.Result seeded = new StandbySeed(BackupConfig.NONE, System.getenv(), line -> { })
                        .run(new StandbySeed.Request(url, primary.adminToken(), work.resolve("standby"),
                                work.resolve("seed").toString(), StandbyIT.freeAddresses()));
                Daemon standby = new Daemon(DaemonOptions.standard(new CleaveHome(seeded.home()), seeded.config(), System.getenv()));
                try {
                    standby.start();
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (!primary.daemon().replication().report().semiSync()) {
                        assertThat(System.nanoTime()).as("semi-sync on within a minute").isLessThan(deadline);
                        Thread.sleep(100);
                    }
                    AdminClient admin = AdminClient.remote(url, primary.adminToken());
                    List<Long> ours = new ArrayList<>();
                    ours.add(ProcessHandle.current().pid());
                    for (Daemon d : List.of(primary.daemon(), standby)) {
                        for (InstanceStatus s : d.status()) {
                            ours.add(s.pid());
                        }
                    }
                    Mode[] modes = tls
                            ? new Mode[] {new Mode("semi-sync on, replication over TLS", () -> replicaLinks(primary, standby, true)),
                                new Mode("semi-sync on, replication in clear", () -> replicaLinks(primary, standby, false))}
                            : new Mode[] {new Mode("semi-sync on", () -> admin.semiSync(true)),
                                new Mode("semi-sync off", () -> admin.semiSync(false))};
                    for (int r = 0; r < rounds; r++) {
                        for (Mode m : (r % 2 == 0 ? modes : new Mode[] {modes[1], modes[0]})) {
                            m.setup.run();
                            m.run(primary, seconds, ours, r);
                        }
                    }
                    if (tls) {
                        replicaLinks(primary, standby, true);
                    }
                    admin.semiSync(true);
                    for (Mode m : modes) {
                        System.out.println("SemiSyncCostIT: " + m.summary());
                    }
                    assertThat(primary.daemon().replication().report().shards()).allSatisfy(s ->
                            assertThat(s.asyncCommits()).as("commits answered without the standby").isZero());
                    assertThat(standby.replication().report().shards()).allMatch(ShardReplication::replicating);
                    admin.semiSync(false);
                } finally {
                    standby.close();
                }
            }
        } finally {
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * The standby's replicas connect over verified TLS, or in clear (the primary's replication account then let in
     * without TLS; both changes made outside the binlog); returns once every replica runs so, as its status says.
     */
    private static void replicaLinks(RunningDaemon primary, Daemon standby, boolean tls) throws Exception {
        // The standby's daemon moves a replica back to the link the primary offers (every 2 s): in clear rounds the
        // primary's record of its shards' TLS says off, so it offers no certificate and the standby's daemon, which
        // requires one, changes nothing (it logs that it cannot follow).
        java.nio.file.Files.writeString(primary.daemon().home().state().resolve("tls/replication-tls"),
                tls ? "required\n" : "off\n");
        for (int s = 0; s < 2; s++) {
            try (Connection c = primary.connect(s); Statement st = c.createStatement()) {
                st.execute("SET SESSION sql_log_bin = 0");
                st.execute("ALTER USER 'cleave_repl'@'%' " + (tls ? "REQUIRE SSL" : "REQUIRE NONE"));
            }
            try (Connection c = StandbyIT.shard(standby, s); Statement st = c.createStatement()) {
                st.execute("STOP SLAVE");
                st.execute("CHANGE MASTER TO " + (tls ? "MASTER_SSL = 1, MASTER_SSL_VERIFY_SERVER_CERT = 1"
                        : "MASTER_SSL = 0, MASTER_SSL_VERIFY_SERVER_CERT = 0"));
                st.execute("START SLAVE");
            }
        }
        String want = tls ? "verified" : "off";
        StandbyIT.await(standby, r -> r.shards().stream().allMatch(x -> x.replicating() && want.equals(x.tls())),
                "every replica runs with TLS " + want);
        Thread.sleep(2_500);
        StandbyIT.await(standby, r -> r.shards().stream().allMatch(x -> x.replicating() && want.equals(x.tls())),
                "every replica still runs with TLS " + want + " after the standby's daemon asked the primary again");
    }

    /** What a mode sets before each of its rounds. */
    @FunctionalInterface
    private interface Setup {
        void run() throws Exception;
    }

    /** One mode's rounds: single-shard UPDATEs and two-shard transfers, their latencies, the host's other CPU use. */
    private static final class Mode {
        final String name;
        final Setup setup;
        final List<Long> single = new ArrayList<>();
        final List<Long> cross = new ArrayList<>();
        long millis;
        double otherCpuSeconds;

        Mode(String name, Setup setup) {
            this.name = name;
            this.setup = setup;
        }

        void run(RunningDaemon primary, int seconds, List<Long> ours, int round) throws Exception {
            long[] cpu0 = CpuUse.read(ours);
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            Random random = new Random(round);
            try (Connection c = primary.connectProxy("bank", "");
                 PreparedStatement one = c.prepareStatement("UPDATE accounts SET balance = balance + 1 WHERE branch = ? AND id = ?");
                 Statement s = c.createStatement()) {
                while (System.nanoTime() < end) {
                    int branch = 1 + random.nextInt(100);
                    long t = System.nanoTime();
                    one.setInt(1, branch);
                    one.setInt(2, 1 + random.nextInt(10));
                    one.executeUpdate();
                    single.add(System.nanoTime() - t);
                    t = System.nanoTime();
                    c.setAutoCommit(false);
                    s.executeUpdate("UPDATE accounts SET balance = balance - 1 WHERE branch = " + branch + " AND id = 1");
                    s.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE branch = " + (branch + 100) + " AND id = 1");
                    c.commit();
                    c.setAutoCommit(true);
                    cross.add(System.nanoTime() - t);
                }
            }
            millis += (System.nanoTime() - start) / 1_000_000;
            long[] cpu1 = CpuUse.read(ours);
            otherCpuSeconds += ((cpu1[0] - cpu0[0]) - (cpu1[1] - cpu0[1])) / 100.0;
        }

        String summary() {
            return String.format("%s: single-shard UPDATE (one of each in turn) %.0f/s p50 %.2f ms p99 %.2f ms; two-shard transfer %.0f/s"
                            + " p50 %.2f ms p99 %.2f ms; %.1f s, other processes' CPU %.0f%% of one core",
                    name, single.size() * 1000.0 / millis, pct(single, 50), pct(single, 99), cross.size() * 1000.0 / millis,
                    pct(cross, 50), pct(cross, 99), millis / 1000.0, otherCpuSeconds * 100_000 / millis);
        }

        private static double pct(List<Long> nanos, int p) {
            long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e6;
        }
    }

    /** The host's busy CPU ticks and our processes' (this JVM and the homes' servers), from /proc. */
    static final class CpuUse {
        static long[] read(List<Long> pids) throws java.io.IOException {
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < cpu.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(cpu[i]);
                }
            }
            long mine = 0;
            for (long pid : pids) {
                Path stat = Path.of("/proc/" + pid + "/stat");
                if (Files.exists(stat)) {
                    String text = Files.readString(stat);
                    String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
                    mine += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
            return new long[] {busy, mine};
        }
    }
}
