package io.cleave.e2e.standby;

import io.cleave.e2e.backup.BackedUpTriggers;
import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbySeed;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A standby home built from a running primary with {@code cleave standby}'s seeding, on loopback with
 * ports of its own: two homes, each its own daemon. The standby is restored from a backup at one cut,
 * every shard replicates its primary shard (GTID, strict, read-only), and once every replica runs the
 * primary waits for their acknowledgements (semi-sync AFTER_SYNC). Cross-shard bank transfers through
 * the primary's proxy reach the standby whole; a replica that stops acknowledging blocks the primary
 * shard's commits, an XA PREPARE included, instead of letting them go on asynchronously, and they
 * end once it acknowledges again; the standby refuses admin requests that would write to its replicas.
 * Triggers and an event made on the primary before the seed are on the standby with their definer
 * (the event disabled on the replica, as replication makes one).
 */
class StandbyIT {

    static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(200, 10, 100);
    private static final int BRANCHES = 200;
    static final String SHARDING = sharding(2);
    /**
     * The shards of the pairs SwitchoverIT, FailoverIT and StandbyUnderTpccIT build: 2, or {@code -Dstandby.shards=N}
     * to measure a switchover, a failover and replication under TPC-C over N shards (bench/RESULTS.md).
     */
    static final int PAIR_SHARDS = Integer.getInteger("standby.shards", 2);

    /** The bank's branches 1-200 in even ranges over {@code shards} shards (2: 1-100 on shard 0, 101- on shard 1). */
    static String sharding(int shards) {
        StringBuilder ranges = new StringBuilder();
        int each = BRANCHES / shards;
        for (int s = 0; s < shards; s++) {
            ranges.append("        - { from: ").append(s * each + 1).append(s == shards - 1 ? "" : ", to: " + (s + 1) * each)
                    .append(", shard: ").append(s).append(" }\n");
        }
        return "sharding:\n  keyspaces:\n    - name: branch\n      function: range\n      ranges:\n" + ranges
                + "  tables:\n    - { name: accounts, keyspace: branch, column: branch }\n";
    }

    /** The bank of {@link #sharding}: 200 branches of 10 accounts, in even ranges over {@code shards} shards. */
    static BankTransfers.Shape shape(int shards) {
        return new BankTransfers.Shape(BRANCHES, 10, BRANCHES / shards);
    }

    @Test
    void aStandbySeededAtACutReplicatesEveryShardAndThePrimaryWaitsForIt() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-", SEARCHABLE);
        try {
            try (CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(SHARDING).create();
                 RunningDaemon primary = a.start()) {
                for (int s = 0; s < 2; s++) {
                    try (Connection c = primary.connect(s); Statement st = c.createStatement()) {
                        BackedUpTriggers.makeDefiner(st);
                    }
                }
                try (Connection c = primary.connectProxy("", "")) {
                    BankTransfers.create(c, SHAPE);
                    // Made before the seed: the standby has them from its backup, not from replication.
                    BackedUpTriggers.create(c, false);
                }
                try (Connection c = primary.connect(0); Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE probe");
                    s.execute("CREATE TABLE probe.t (id INT PRIMARY KEY)");
                }
                String url = "http://127.0.0.1:" + primary.adminPort();
                BankTransfers load = new BankTransfers(SHAPE, primary.proxyPort(), 11, new int[] {1, 150});
                Daemon standby = null;
                Connection heldXa = primary.connect(0);
                try {
                    try {
                        // An XA transaction prepared at every cut the seed can take, committed once it is seeded: its
                        // prepare is before the cut's GTID, its commit after (cross-shard transfers make such cuts often).
                        try (Statement st = heldXa.createStatement()) {
                            st.execute("XA START 'seed-it'");
                            st.execute("INSERT INTO probe.t VALUES (100)");
                            st.execute("XA END 'seed-it'");
                            st.execute("XA PREPARE 'seed-it'");
                        }
                        // Transfers run while the standby is seeded, its replicas start and semi-sync comes on.
                        load.start(2);
                        load.awaitAcknowledged(50);
                        StandbySeed.Result seeded = new StandbySeed(BackupConfig.NONE, System.getenv(),
                                line -> System.out.println("standby: " + line))
                                .run(new StandbySeed.Request(url, primary.adminToken(), work.resolve("standby"),
                                        work.resolve("seed").toString(), freeAddresses()));
                        assertThat(seeded.shards()).isEqualTo(2);
                        assertThat(seeded.attempts()).as("seeds taken: the prepared transactions at the cut replicated first")
                                .isEqualTo(1);
                        run(heldXa, "XA COMMIT 'seed-it'");
                        System.out.println("StandbyIT: seeded in " + seeded.millis() + " ms, " + seeded.attempts() + " attempt(s)");
                        assertThat(seeded.rows()).as("rows restored (the bank and Cleave's own)").isGreaterThanOrEqualTo(SHAPE.rows());

                        standby = new Daemon(DaemonOptions.standard(new CleaveHome(seeded.home()), seeded.config(), System.getenv()));
                        standby.start();
                        StandbyReport replicas = await(standby, r -> r.shards().size() == 2
                                && r.shards().stream().allMatch(ShardReplication::replicating), "every replica runs");
                        assertThat(replicas.role()).isEqualTo(HostRole.STANDBY);
                        assertThat(replicas.primary()).isEqualTo(url);
                        assertThat(replicas.epoch()).isEqualTo(1);
                        assertThat(replicas.shards()).allSatisfy(r -> {
                            assertThat(r.readOnly()).as("shard %d read-only", r.shard()).isTrue();
                            assertThat(r.semiSync()).as("shard %d acknowledges", r.shard()).isEqualTo("ON");
                        });
                        for (int s = 0; s < 2; s++) {
                            // A replica gives a silent primary up after 10 s, not the server's 60 (heartbeats every 5 s).
                            try (Connection c = shard(standby, s); Statement st = c.createStatement();
                                 ResultSet rs = st.executeQuery("SHOW ALL SLAVES STATUS")) {
                                assertThat(rs.next()).isTrue();
                                assertThat(rs.getDouble("Slave_heartbeat_period")).as("shard %d's heartbeat period", s)
                                        .isEqualTo(5.0);
                                assertThat(single(c, "SELECT @@GLOBAL.slave_net_timeout")).isEqualTo("10");
                            }
                        }
                        StandbyReport waiting = await(primary.daemon(), r -> r.semiSync() && r.shards().size() == 2
                                && r.shards().stream().allMatch(s -> "ON".equals(s.semiSync()) && s.semiSyncClients() == 1),
                                "the primary's shards wait for the standby");
                        assertThat(waiting.role()).isEqualTo(HostRole.PRIMARY);
                        load.awaitAcknowledged(150);
                    } finally {
                        load.close();
                    }
                    System.out.println("StandbyIT: " + load.summary());
                    assertThat(load.errors()).as("errors clients saw").isEmpty();
                    awaitCaughtUp(primary, standby);
                    for (int s = 0; s < 2; s++) {
                        try (Connection pc = primary.connect(s); Connection sc = shard(standby, s)) {
                            assertThat(single(sc, "SELECT CONCAT(COUNT(*), '/', SUM(balance)) FROM bank.accounts"))
                                    .as("shard %d's accounts on the standby", s)
                                    .isEqualTo(single(pc, "SELECT CONCAT(COUNT(*), '/', SUM(balance)) FROM bank.accounts"));
                            assertThat(single(sc, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema='bank'"))
                                    .isEqualTo("2"); // accounts, note_audit
                            try (Statement st = sc.createStatement(); ResultSet rs = st.executeQuery("XA RECOVER")) {
                                assertThat(rs.next()).as("branches left prepared on standby shard %d", s).isFalse();
                            }
                        }
                    }
                    try (Connection sc = shard(standby, 0); Connection sc1 = shard(standby, 1)) {
                        // The seed's triggers and event, with their definer; the event as replication makes one
                        // on a replica (it must not fire there); the triggers fire on a write of the replica.
                        BackedUpTriggers.assertKept(List.of(sc, sc1), null, null, "SLAVESIDE_DISABLED", false,
                                "the seeded standby");
                        BackedUpTriggers.assertFiresOn(sc, 1, "standby shard 0");
                        BackedUpTriggers.assertFiresOn(sc1, 150, "standby shard 1");
                        assertThat(Long.parseLong(single(sc, "SELECT SUM(balance) FROM bank.accounts"))
                                + Long.parseLong(single(sc1, "SELECT SUM(balance) FROM bank.accounts")))
                                .as("the bank's total on the standby").isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
                    }

                    // A primary shard that restarts waits for the standby from its first commit: the settings are in its my.cnf.
                    assertThat(Files.readString(a.root().resolve("etc").resolve("shard-1.cnf")))
                            .contains("rpl_semi_sync_master_enabled = ON", "rpl_semi_sync_master_wait_point = AFTER_SYNC",
                                    "gtid_strict_mode = ON");
                    long killed = primary.status(1).pid();
                    ProcessHandle.of(killed).ifPresent(ProcessHandle::destroyForcibly);
                    primary.awaitStatus(1, st -> st.state() == io.cleave.manager.supervisor.InstanceState.RUNNING
                            && st.pid() != null && st.pid() != killed, Duration.ofSeconds(60));
                    try (Connection pc = primary.connect(1)) {
                        assertThat(single(pc, "SELECT CONCAT(@@rpl_semi_sync_master_enabled, @@rpl_semi_sync_master_wait_point,"
                                + " @@rpl_semi_sync_master_timeout, @@gtid_strict_mode)"))
                                .as("the restarted shard's semi-sync").isEqualTo("ONAFTER_SYNC4294967295ON");
                        run(pc, "UPDATE bank.accounts SET balance = balance WHERE branch = 101");
                        run(pc, "UPDATE bank.accounts SET balance = balance + 1 WHERE branch = 101 AND id = 1");
                        run(pc, "UPDATE bank.accounts SET balance = balance - 1 WHERE branch = 101 AND id = 1");
                    }
                    await(primary.daemon(), r -> r.shards().get(1).semiSyncClients() == 1, "the replica back on the restarted shard");

                    // A replica that stops acknowledging blocks its primary shard's commits: no fallback to async.
                    // Shard 0's count of commits answered without an acknowledgement is taken from here: the
                    // standby was attached under the transfers, and a commit in flight while semi-sync was being
                    // switched on (before the primary's semi-sync status turned ON) is counted there too.
                    long asyncBefore = primary.daemon().replication().report().shards().get(0).asyncCommits();
                    try (Connection sc = shard(standby, 0); Statement st = sc.createStatement()) {
                        st.execute("STOP SLAVE IO_THREAD");
                    }
                    Connection writer = primary.connect(0);
                    Connection xa = primary.connect(0);
                    try (Statement st = xa.createStatement()) {
                        st.execute("XA START 'standby-it'");
                        st.execute("INSERT INTO probe.t VALUES (2)");
                        st.execute("XA END 'standby-it'");
                    }
                    // The XA PREPARE alone first: it is what waits for the acknowledgement, not a commit ahead of it.
                    CompletableFuture<Void> prepare = CompletableFuture.runAsync(() -> run(xa, "XA PREPARE 'standby-it'"));
                    await(primary.daemon(), r -> r.shards().get(0).waitingCommits() == 1, "the XA PREPARE waiting on shard 0");
                    CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> run(writer, "INSERT INTO probe.t VALUES (1)"));
                    // The shard's later commits queue behind the waiting one (the binlog's group commit), not counted as waiting.
                    Thread.sleep(2000);
                    StandbyReport blocked = primary.daemon().replication().report();
                    assertThat(commit).as("a commit while the replica does not acknowledge").isNotDone();
                    assertThat(prepare).as("an XA PREPARE while the replica does not acknowledge").isNotDone();
                    assertThat(blocked.shards().get(0).semiSync()).as("semi-sync stays on").isEqualTo("ON");
                    assertThat(blocked.shards().get(0).asyncCommits()).as("commits answered without the standby")
                            .isEqualTo(asyncBefore);
                    System.out.println("StandbyIT: with the replica's IO thread stopped, shard 0 holds its XA PREPARE"
                            + " and a commit; waiting for the acknowledgement: " + blocked.shards().get(0).waitingCommits());
                    try (Connection sc = shard(standby, 0); Statement st = sc.createStatement()) {
                        st.execute("START SLAVE IO_THREAD");
                    }
                    commit.get(30, TimeUnit.SECONDS);
                    prepare.get(30, TimeUnit.SECONDS);
                    run(xa, "XA COMMIT 'standby-it'");
                    writer.close();
                    xa.close();
                    awaitCaughtUp(primary, standby);
                    try (Connection sc = shard(standby, 0)) {
                        assertThat(single(sc, "SELECT GROUP_CONCAT(id ORDER BY id) FROM probe.t")).isEqualTo("1,2,100");
                    }
                    assertThat(primary.daemon().replication().report().shards()).allSatisfy(r ->
                            assertThat(r.asyncCommits()).as("shard %d's commits answered without the standby", r.shard())
                                    .isEqualTo(r.shard() == 0 ? asyncBefore : 0));

                    // The standby's admin API and metrics.
                    HttpResponse<String> metrics = http("GET", standby.adminPort(), "/metrics", null);
                    assertThat(metrics.body()).contains("cleave_standby_replica_lag_seconds{shard=\"0\"}",
                            "cleave_standby_replica_running{shard=\"1\"} 1.0", "cleave_standby_epoch 1.0",
                            "cleave_standby_primary 0.0");
                    HttpResponse<String> move = http("POST", standby.adminPort(), "/v1/moves", standby.adminToken());
                    assertThat(move.statusCode()).isEqualTo(409);
                    assertThat(move.body()).contains("standby of " + url);
                    assertThat(standby.statusReport().proxy()).startsWith("standby of " + url);

                    // The operator's decision while the standby is away: semi-sync off lets the primary go on.
                    AdminClient.remote(url, primary.adminToken()).semiSync(false);
                } finally {
                    heldXa.close();
                    if (standby != null) {
                        standby.close();
                    }
                }
                try (Connection c = primary.connect(1); Statement s = c.createStatement()) {
                    s.execute("UPDATE bank.accounts SET balance = balance WHERE branch = 101 AND id = 1");
                }
            }
        } finally {
            CleaveTestHome.deleteTree(work);
        }
    }

    static StandbyReport await(Daemon daemon, Predicate<StandbyReport> condition, String what) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        StandbyReport last = null;
        while (System.nanoTime() < deadline) {
            daemon.replication().poll();
            last = daemon.replication().report();
            if (last != null && condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within a minute: " + what + "; last: " + last);
    }

    /**
     * Seeds a standby of the primary at {@code url} into {@code work}/standby (clients may write meanwhile), starts
     * its daemon (with a proxy, for a promotion) and waits until every replica runs and the primary waits for
     * them. The daemon is closed if that fails.
     */
    static Daemon seedAndAwaitSemiSync(String url, String token, Path work, StandbyConfig addresses, int shards)
            throws Exception {
        return startAndAwaitSemiSync(seed(url, token, work, addresses), url, token, shards);
    }

    /** Seeds a standby of the primary at {@code url} into {@code work}/standby (its backup in {@code work}/seed). */
    static StandbySeed.Result seed(String url, String token, Path work, StandbyConfig addresses) throws Exception {
        return new StandbySeed(BackupConfig.NONE, System.getenv(), line -> System.out.println("standby: " + line))
                .run(new StandbySeed.Request(url, token, work.resolve("standby"), work.resolve("seed").toString(),
                        addresses));
    }

    /**
     * Starts a seeded standby's daemon in this JVM and waits until every replica runs and the primary at {@code url}
     * waits for its acknowledgements on every shard.
     */
    static Daemon startAndAwaitSemiSync(StandbySeed.Result seeded, String url, String token, int shards)
            throws Exception {
        Daemon standby = new Daemon(DaemonOptions.standard(new CleaveHome(seeded.home()), seeded.config(), System.getenv())
                .withProxy(io.cleave.manager.daemon.CleaveProxyService.FACTORY));
        try {
            standby.start();
            await(standby, r -> r.shards().size() == shards && r.shards().stream().allMatch(ShardReplication::replicating),
                    "every replica runs");
            AdminClient primary = AdminClient.remote(url, token);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!primary.standby().semiSync()
                    || !primary.standby().shards().stream().allMatch(s -> s.semiSyncClients() == 1)) {
                assertThat(System.nanoTime()).as("the primary waits for the standby within a minute").isLessThan(deadline);
                Thread.sleep(100);
            }
            // The primary knows the standby's admin API once the standby's daemon asked for the shards: what a
            // switchover with no address and a rejoin by itself after a failover need. Cases that kill the primary
            // right after this must not race that first asking.
            String standbyAdmin = "http://127.0.0.1:" + standby.adminPort();
            while (!standbyAdmin.equals(primary.standby().standbyAdmin())) {
                assertThat(System.nanoTime()).as("the primary names the standby's admin API %s within a minute (it says %s)",
                        standbyAdmin, primary.standby().standbyAdmin()).isLessThan(deadline);
                Thread.sleep(100);
            }
            return standby;
        } catch (Exception | AssertionError e) {
            standby.close();
            throw e;
        }
    }

    /** Until every standby shard has applied every GTID its primary shard wrote. */
    private static void awaitCaughtUp(RunningDaemon primary, Daemon standby) throws Exception {
        for (int s = 0; s < 2; s++) {
            String target;
            try (Connection pc = primary.connect(s)) {
                target = single(pc, "SELECT @@GLOBAL.gtid_binlog_pos");
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            try (Connection sc = shard(standby, s)) {
                while (sequence(single(sc, "SELECT @@GLOBAL.gtid_slave_pos")) < sequence(target)) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("standby shard " + s + " did not reach " + target + ": "
                                + standby.replication().report());
                    }
                    Thread.sleep(50);
                }
            }
        }
    }

    /** Ports of a standby on loopback: two for its shards, its admin API's and its proxy's, all different. */
    static StandbyConfig freeAddresses() {
        return freeAddresses(2);
    }

    /** Ports of a standby of {@code shards} shards on loopback: its shards', its admin API's and its proxy's. */
    static StandbyConfig freeAddresses(int shards) {
        int admin = CleaveTestHome.freePort();
        int proxy = CleaveTestHome.freePort();
        while (true) {
            int base = CleaveTestHome.freePortRange(shards);
            if (admin != proxy && (admin < base || admin >= base + shards) && (proxy < base || proxy >= base + shards)) {
                return new StandbyConfig(base, admin, "127.0.0.1:" + proxy, 0);
            }
            proxy = CleaveTestHome.freePort();
        }
    }

    /** The sequence number of a shard's one-domain GTID position ({@code 0-1000-338}). */
    static long sequence(String gtid) {
        assertThat(gtid).as("a GTID position of domain 0 only").matches("0-[0-9]+-[0-9]+");
        return Long.parseLong(gtid.substring(gtid.lastIndexOf('-') + 1));
    }

    static Connection shard(Daemon daemon, int shard) throws SQLException {
        ShardEndpoint e = daemon.shardEndpoints().get(shard);
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port() + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", e.user(), e.secret());
    }

    static void run(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static HttpResponse<String> http(String method, int port, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString("{\"keyspace\": \"branch\", \"keys\": \"1-5\", \"to\": 1}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
