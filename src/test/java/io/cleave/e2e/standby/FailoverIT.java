package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.EtcdCluster;
import io.cleave.e2e.support.TcpRelay;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.coordination.CoordinationReport;
import io.cleave.manager.coordination.PairState;
import io.cleave.manager.coordination.RejoinReport;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbyState;
import io.cleave.manager.standby.StandbySeed;
import io.cleave.manager.standby.SwitchoverRequest;
import io.cleave.manager.standby.SwitchoverReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Automatic failover through etcd (three members, child processes of the test on loopback). The primary A runs
 * from the shipped jar in its own process, the standby B in this JVM; bank transfers run through A's proxy,
 * every client recording the transfers it saw acknowledged.
 * <ul>
 * <li>A's host dies (its daemon and every shard SIGKILLed) while a commit on its shard 0 waits for an acknowledgement
 *     B's stopped replica never sends: B takes over by itself; A started again stays fenced, and its rejoining by
 *     itself ({@code rejoin: auto}) and {@code cleave rejoin} are refused, naming that errant transaction.</li>
 * <li>A's way to etcd is cut (its etcd URLs lead through relays this test resets; clients and B still reach A):
 *     A fences itself, B takes over, A takes no write after B's promotion, and once A reaches etcd again it
 *     stays fenced and names the new primary. This models a partition between A and etcd only, on one host:
 *     no network namespaces. Then A rejoins B as its standby by itself ({@code rejoin: auto}): it replicates what B
 *     writes.</li>
 * <li>A switchover A -> B and back under transfers moves the claim in etcd with it (one holder at any time, the old
 *     primary the standby of the new epoch, its forwarding proxy serving); then A's host dies and B, whose proxy
 *     forwarded to A, takes over by itself.</li>
 * </ul>
 * After each: every acknowledged transfer is on B, the total is unchanged, nothing is left prepared, one primary.
 * The failover time (the loss to the first write B's proxy served) is printed. Over 2 shards;
 * {@code -Dstandby.shards=N} runs it over N (bench/RESULTS.md "Failover").
 */
class FailoverIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    private static final int SHARDS = StandbyIT.PAIR_SHARDS;
    private static final BankTransfers.Shape SHAPE = StandbyIT.shape(SHARDS);
    private static final int LEASE_SECONDS = 3;

    @Test
    void theStandbyTakesOverByItselfWhenThePrimaryHostIsKilled() throws Exception {
        try (Pair pair = Pair.start("kill", false, Primary.BANK, "auto")) {
            // Commits on A's shard 0 that reach its binlog and never B: B's replica of that shard stops receiving, and
            // each commit there (the transfers', and one of the test's own) waits for the acknowledgement that cannot
            // come (semi-sync AFTER_SYNC, no fallback) until A dies.
            try (Connection c = shard(pair.b, 0)) {
                run(c, "STOP SLAVE IO_THREAD");
            }
            Connection waiting = JarPrimary.shard(pair.a, 0);
            Thread errant = new Thread(() -> {
                try {
                    run(waiting, "CREATE DATABASE errant_on_a");
                } catch (RuntimeException expected) {
                    // Its connection dies with A.
                }
            }, "errant-commit");
            errant.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // A commit waiting for the acknowledgement (AFTER_SYNC) is in the binlog, synced, by then.
            try (Connection c = JarPrimary.shard(pair.a, 0)) {
                while (Integer.parseInt(single(c, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                        + " WHERE VARIABLE_NAME = 'RPL_SEMI_SYNC_MASTER_WAIT_SESSIONS'")) == 0) {
                    assertThat(System.nanoTime()).as("a commit on A's shard 0 waits for B's acknowledgement within 30 s")
                            .isLessThan(deadline);
                    Thread.sleep(20);
                }
                // The fence's own count of waiting commits (from the process list) sees it too.
                assertThat(Integer.parseInt(single(c, io.cleave.manager.coordination.ShardReadOnlySetting.WAITING_COMMITS)))
                        .as("sessions A's shard 0 lists as waiting for the acknowledgement").isPositive();
            }
            pair.killAAndCheckB("kill", 2);
            errant.join(10_000);
            waiting.close();

            // A's host comes back: its daemon finds the newer epoch in etcd and stays fenced, with no proxy. It
            // would rejoin B by itself (coordination.rejoin: auto, and B's daemon told it B's admin token), but its
            // shard 0 holds the commit B lacks: refused, naming it, and nothing changes.
            Path log = pair.work.resolve("primary-again.log");
            pair.up = CleaveJar.up(pair.a, log);
            AdminClient aAdmin = CleaveJar.awaitAdmin(pair.a, pair.up, log);
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (aAdmin.status().coordination().state() == PairState.STARTING) {
                // Its shards run; the daemon asks etcd next.
                assertThat(System.nanoTime()).as("A's daemon asked etcd within 30 s").isLessThan(deadline);
                Thread.sleep(50);
            }
            assertThat(aAdmin.status().proxy()).startsWith("fenced:").contains("the primary is now");
            assertThat(pair.writeThroughA()).as("nothing listens for clients on A").doesNotStartWith("accepted")
                    .doesNotStartWith("1290");
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            CoordinationReport refused = aAdmin.status().coordination();
            while (refused.reason() == null || !refused.reason().contains("Rejoining by itself was refused")) {
                assertThat(refused.state()).as("A stays fenced: %s", refused.reason()).isEqualTo(PairState.SUPERSEDED);
                assertThat(System.nanoTime()).as("A tried to rejoin by itself within 30 s: %s", refused.reason())
                        .isLessThan(deadline);
                Thread.sleep(100);
                refused = aAdmin.status().coordination();
            }
            System.out.println("FailoverIT (kill): A after trying to rejoin by itself: " + refused.reason());
            // The waiting commits survived A's crash on A (they were in its binlog), and B never had them: errant.
            String errantGtid = pair.gtidsOnA().get(0);
            try (Connection c = shard(pair.b, 0)) {
                assertThat(List.of(single(c, "SELECT @@gtid_binlog_state").split(","))).as("B's shard 0")
                        .doesNotContain(errantGtid);
            }
            assertThat(refused.reason()).contains("shard 0: " + errantGtid + " (the new primary has up to ")
                    .contains("cleave rejoin --rebuild");
            assertThat(StandbyState.of(pair.a.home()).orElseThrow().role()).as("A is no standby").isEqualTo(HostRole.PRIMARY);
            // cleave rejoin says the same, and changes nothing either.
            RejoinReport rejoin = aAdmin.rejoin("http://127.0.0.1:" + pair.b.adminPort(), pair.b.adminToken());
            System.out.println("FailoverIT (kill): rejoin after the kill: " + rejoin);
            assertThat(rejoin.joined()).isFalse();
            assertThat(rejoin.shards()).anySatisfy(line -> assertThat(line).startsWith("shard 0: " + errantGtid + " ("))
                    .allSatisfy(line -> assertThat(line)
                    .matches("shard [0-" + (SHARDS - 1) + "]: 0-100[0-" + (SHARDS - 1) + "]-[0-9]+ \\(the new primary has up to 0-100[0-"
                            + (SHARDS - 1) + "]-[0-9]+\\)"));
            assertThat(aAdmin.status().coordination().state()).as("nothing changed").isEqualTo(PairState.SUPERSEDED);

            rebuildAAsBsStandby(pair, errantGtid);
        }
    }

    /**
     * {@code cleave rejoin --rebuild} against A, whose shard 0 holds {@code errantGtid} (B lacks it), while B's clients
     * go on: A's old datadirs are kept under its home's errant/2 with the record of that GTID, A is seeded again in
     * place as B's standby (its own ports), its daemon runs again and every one of its replicas is acknowledged by B;
     * A then holds every transfer B acknowledged. With {@code -Dstandby.rebuild.switchBack=true} also a switchover
     * back to A, which then serves every acknowledged transfer.
     */
    private static void rebuildAAsBsStandby(Pair pair, String errantGtid) throws Exception {
        BankTransfers load = pair.load;
        load.retarget(pair.addresses.proxyListen());
        load.restart(2);
        load.awaitAcknowledged(20);
        String bUrl = "http://127.0.0.1:" + pair.b.adminPort();
        Path bToken = pair.work.resolve("b-admin-token");
        Files.writeString(bToken, pair.b.adminToken());
        long began = System.nanoTime();
        CleaveJar.Result rebuilt = CleaveJar.run(pair.a, "rejoin", "--rebuild", "--primary", bUrl, "--primary-token-file",
                bToken.toString(), "--via", pair.work.resolve("rebuild-seed").toString(), "--config",
                pair.a.configFile().toString());
        System.out.println("FailoverIT (kill): cleave rejoin --rebuild took " + (System.nanoTime() - began) / 1_000_000
                + " ms:\n" + rebuilt.out());
        assertThat(rebuilt.code()).as(rebuilt.out()).isZero();
        assertThat(pair.up.waitFor(30, TimeUnit.SECONDS)).as("A's daemon was stopped for the rebuild").isTrue();
        Path kept = pair.a.root().resolve("errant").resolve("2");
        assertThat(rebuilt.out()).contains("shard 0: " + errantGtid + " (").contains("kept this home's transactions")
                .contains(kept.toString()).contains("every shard replicates it and acknowledges its commits");
        // Kept, not deleted: shard 0's old datadir, holding the errant commit (its database) and the ERRANT record.
        assertThat(kept.resolve("shard-0").resolve("errant_on_a")).as("the errant commit's database").isDirectory();
        assertThat(Files.readString(kept.resolve("ERRANT.txt"))).contains("shard 0: " + errantGtid + " (");
        assertThat(kept.resolve("home").resolve("cleave.yaml")).as("A's old config").exists();
        assertThat(StandbyState.of(pair.a.home()).orElseThrow().role()).isEqualTo(HostRole.STANDBY);
        AdminClient aAdmin = AdminClient.connect(pair.a.home()).orElseThrow();
        StandbyReport asStandby = awaitStandby(aAdmin);
        assertThat(asStandby.epoch()).isEqualTo(2);
        try (Connection c = JarPrimary.shard(pair.a, 0)) {
            assertThat(single(c, "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'errant_on_a'"))
                    .as("the rebuilt shard 0 holds B's rows only").isEqualTo("0");
            assertThat(single(c, "SELECT @@read_only")).isEqualTo("1");
        }
        // A standby is not rebuilt again: the daemon's check refuses (409), and nothing more is put aside.
        CleaveJar.Result again = CleaveJar.run(pair.a, "rejoin", "--rebuild", "--primary", bUrl, "--primary-token-file",
                bToken.toString(), "--via", pair.work.resolve("rebuild-seed").toString());
        assertThat(again.code()).as(again.out()).isEqualTo(7);
        assertThat(again.out()).contains("this home is a standby of " + bUrl);
        try (var entries = Files.list(pair.a.root().resolve("errant"))) {
            assertThat(entries.toList()).containsExactly(kept);
        }
        StandbyReport onB = pair.b.replication().report();
        assertThat(onB.semiSync()).as("B waits for A's acknowledgements").isTrue();
        assertThat(onB.shards()).allSatisfy(s -> assertThat(s.semiSyncClients()).isEqualTo(1));
        load.awaitAcknowledged(50);
        assertThat(load.errors()).as("B's clients across A's rebuild").isEmpty();
        if (!Boolean.getBoolean("standby.rebuild.switchBack")) {
            load.pause();
            pair.awaitSameRowsOnA();
            load.resume();
            return;
        }
        SwitchoverIT.awaitProxy(pair.b, Integer.parseInt(pair.addresses.proxyListen().split(":")[1]));
        // The switchover takes a standby at most 5 s behind. The rebuilt replicas receive everything B writes, but
        // apply it one transaction at a time: under the transfers on this loaded machine they fell 10 to 36 s behind
        // (received all, applied less; SHOW SLAVE STATUS below). The clients wait until A has applied everything.
        load.pause();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!aAdmin.standby().shards().stream().allMatch(r -> r.replicating() && r.lagSeconds() >= 0
                && r.lagSeconds() <= 1)) {
            if (System.nanoTime() > deadline) {
                StringBuilder why = new StringBuilder();
                for (int s = 0; s < SHARDS; s++) {
                    try (Connection onA = JarPrimary.shard(pair.a, s); Connection onBs = shard(pair.b, s);
                         Statement st = onA.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                        rs.next();
                        why.append("\nshard ").append(s).append(": B at ").append(single(onBs, "SELECT @@gtid_binlog_pos"))
                                .append(", A at ").append(rs.getString("Gtid_IO_Pos")).append(" received; behind ")
                                .append(rs.getString("Seconds_Behind_Master")).append(" s, read ")
                                .append(rs.getString("Read_Master_Log_Pos")).append(" exec ")
                                .append(rs.getString("Exec_Master_Log_Pos")).append(", SQL: ")
                                .append(rs.getString("Slave_SQL_Running_State")).append("; A's now ")
                                .append(single(onA, "SELECT UNIX_TIMESTAMP()")).append(", B's now ")
                                .append(single(onBs, "SELECT UNIX_TIMESTAMP()"));
                    }
                }
                throw new AssertionError("A's replicas did not catch up with B's within a minute: "
                        + aAdmin.standby().shards() + why);
            }
            Thread.sleep(100);
        }
        load.resume();
        SwitchoverReport back = AdminClient.remote(bUrl, pair.b.adminToken()).switchover(SwitchoverRequest.known());
        System.out.println("FailoverIT (kill): B -> rebuilt A " + back);
        assertThat(back.epoch()).isEqualTo(3);
        load.awaitAcknowledged(50);
        load.close();
        System.out.println("FailoverIT (kill): after the rebuild and the switch back: " + load.summary());
        assertThat(load.errors()).as("client errors across the switch back").isEmpty();
        // A's proxy starts once its take-over answered.
        long served = ProxyWrites.awaitFirstWrite("127.0.0.1:" + pair.a.proxyPort(), "", System.nanoTime(),
                () -> {
                    try {
                        return "A's proxy: " + aAdmin.status().proxy();
                    } catch (java.io.IOException e) {
                        return "A's daemon does not answer: " + e;
                    }
                });
        System.out.println("FailoverIT (kill): the rebuilt A's proxy served " + served + " ms after the switch back");
        PromotedHome.servesEveryAcknowledgedTransfer((s, sql) -> {
            try (Connection c = JarPrimary.shard(pair.a, s); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery(sql)) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }, "127.0.0.1:" + pair.a.proxyPort(), "", load, SHAPE);
    }

    @Test
    void aSwitchoverMovesTheClaimAndAFailoverStillWorksAfterIt() throws Exception {
        try (Pair pair = Pair.start("switch", false)) {
            BankTransfers load = pair.load;
            String bUrl = "http://127.0.0.1:" + pair.b.adminPort();
            AdminClient aAdmin = AdminClient.remote(pair.aUrl, pair.aToken);
            // A is not told B's address: B's daemon told A its admin URL and token as it asked for the shards.
            SwitchoverReport there = aAdmin.switchover(SwitchoverRequest.known());
            System.out.println("FailoverIT (switch): A -> B " + there);
            assertThat(there.epoch()).isEqualTo(2);
            pair.checkOneHolder(pair.b.statusReport().coordination(), aAdmin.status().coordination(), 2, bUrl);
            assertThat(aAdmin.status().proxy()).as("A's proxy forwards, unfenced").doesNotStartWith("fenced");
            load.awaitAcknowledged(100);
            assertThat(load.errors()).as("client errors across the switchover").isEmpty();
            // The switch back needs A's replicas seen running (the switchover checks the standby's report) and
            // B's proxy, which starts after B's take-over answered, listening (it holds B's side's statements).
            SwitchoverIT.awaitProxy(pair.b, Integer.parseInt(pair.addresses.proxyListen().split(":")[1]));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!aAdmin.standby().shards().stream().allMatch(ShardReplication::replicating)) {
                assertThat(System.nanoTime()).as("A's replicas reported running within 30 s").isLessThan(deadline);
                Thread.sleep(50);
            }

            load.resume();
        SwitchoverReport back = AdminClient.remote(bUrl, pair.b.adminToken()).switchover(SwitchoverRequest.known());
            System.out.println("FailoverIT (switch): B -> A " + back);
            assertThat(back.epoch()).isEqualTo(3);
            pair.checkOneHolder(aAdmin.status().coordination(), pair.b.statusReport().coordination(), 3, pair.aUrl);
            load.awaitAcknowledged(100);
            assertThat(load.errors()).as("client errors across the switch back").isEmpty();

            // A's host dies: B, the standby of epoch 3 whose proxy forwarded to A, takes over by itself. A's
            // proxy leaves a cross-shard commit prepared on both shards with its decision recorded; B knows that
            // proxy's run from the first switchover and must settle its branches all the same.
            String aRun = Files.readAllLines(pair.b.home().state().resolve("forwarding-proxies")).get(0).trim();
            List<Connection> held = pair.holdPreparedOnA("cleave:0:" + aRun + ":999:1");
            pair.killAAndCheckB("switch", 4);
            for (Connection c : held) {
                c.close();
            }
            for (int s = 0; s < 2; s++) {
                try (Connection c = shard(pair.b, s)) {
                    assertThat(single(c, "SELECT COUNT(*) FROM probe.t")).as("A's proxy's branch committed on shard %d", s)
                            .isEqualTo("1");
                }
            }
        }
    }

    @Test
    void aPrimaryCutOffFromEtcdFencesItselfAndTheStandbyTakesOver() throws Exception {
        try (Pair pair = Pair.start("cut", true, Primary.BANK, "auto")) {
            BankTransfers load = pair.load;
            long lost;
            try {
                lost = System.nanoTime();
                for (TcpRelay r : pair.relays) {
                    r.cut();
                }
                // A fences itself before its lease can lapse: its proxy refuses with the fence's error.
                String refusal = pair.awaitRefusalOnA(null);
                System.out.println("FailoverIT (cut): A refused after " + (System.nanoTime() - lost) / 1_000_000
                        + " ms: " + refusal);
                assertThat(refusal).contains("fenced").contains("lease");
                load.outageBegins();
            } finally {
                load.close();
            }
            System.out.println("FailoverIT (cut): " + load.summary());
            assertThat(load.errors()).as("errors other than the fence's refusal")
                    .allSatisfy(e -> assertThat(e).contains("1290").contains("fenced"));

            long firstWrite = pair.awaitFirstWriteOnB(lost);
            System.out.println("FailoverIT (cut): from cutting the primary's way to etcd to the first write served"
                    + " through the standby's proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
            // A takes no write after B's promotion: its shards' binlogs stand still, its proxy refuses.
            Map<Integer, String> gtids = pair.gtidsOnA();
            assertThat(pair.writeThroughA()).startsWith("1290");
            assertThat(pair.gtidsOnA()).as("A's shards wrote nothing after B's promotion").isEqualTo(gtids);

            pair.checkB(load, 2);

            // A reaches etcd again: it learns of the newer epoch (and logs the primary it names), and as it holds
            // nothing B lacks it rejoins B as its standby by itself (coordination.rejoin: auto), with the admin token
            // B's daemon told it while B was its standby; it then replicates what B writes.
            for (TcpRelay r : pair.relays) {
                r.heal();
            }
            AdminClient aAdmin = AdminClient.connect(pair.a.home()).orElseThrow();
            StandbyReport asStandby = awaitStandby(aAdmin);
            long logDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String aLog = Files.readString(pair.work.resolve("primary.log"));
            while (!aLog.contains("as its standby by itself (coordination.rejoin: auto)")) {
                assertThat(System.nanoTime()).as("A's log says it rejoined by itself").isLessThan(logDeadline);
                Thread.sleep(100);
                aLog = Files.readString(pair.work.resolve("primary.log"));
            }
            assertThat(aLog).contains("the primary is now http://127.0.0.1:" + pair.b.adminPort() + " (")
                    .contains("epoch 2). It stays fenced");
            System.out.println("FailoverIT (cut): A rejoined B by itself: " + asStandby.role() + " at epoch "
                    + asStandby.epoch());
            assertThat(asStandby.epoch()).isEqualTo(2);
            try (Connection c = DriverManager.getConnection("jdbc:mysql://" + pair.addresses.proxyListen()
                    + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "")) {
                c.setAutoCommit(false);
                run(c, "UPDATE accounts SET balance = balance - 7 WHERE branch = 1 AND id = 2");
                run(c, "UPDATE accounts SET balance = balance + 7 WHERE branch = 150 AND id = 2");
                c.commit();
            }
            pair.awaitSameRowsOnA();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!pair.b.replication().report().semiSync()) {
                assertThat(System.nanoTime()).as("B waits for A's acknowledgements within a minute").isLessThan(deadline);
                Thread.sleep(100);
            }
            assertThat(aAdmin.status().coordination().state()).isEqualTo(PairState.STANDBY);
        }
    }

    private static StandbyReport awaitStandby(AdminClient admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        StandbyReport last = null;
        while (System.nanoTime() < deadline) {
            last = admin.standby();
            if (last.role() == HostRole.STANDBY && last.shards().size() == SHARDS
                    && last.shards().stream().allMatch(ShardReplication::replicating)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the old primary's replicas do not run: " + last);
    }


    /**
     * What the primary holds besides the bank: its sharding (the bank's branches and anything else), its buffer pool
     * per shard, and what loads the rest once its proxy serves, before the standby is seeded.
     */
    record Primary(String sharding, int bufferPoolPerShardMiB, Load load) {
        static final Primary BANK = new Primary(StandbyIT.sharding(SHARDS), 64, a -> { });

        @FunctionalInterface
        interface Load {
            void into(CleaveTestHome a) throws Exception;
        }
    }

    /** A primary from the jar with its standby seeded and in sync, under bank transfers; etcd behind them. */
    static final class Pair implements AutoCloseable {
        final Path work;
        final EtcdCluster etcd;
        final List<TcpRelay> relays = new ArrayList<>();
        CleaveTestHome a;
        Process up;
        Daemon b;
        StandbyConfig addresses;
        BankTransfers load;
        String aUrl;
        String aToken;

        private Pair(Path work, EtcdCluster etcd) {
            this.work = work;
            this.etcd = etcd;
        }

        static Pair start(String name, boolean relayed) throws Exception {
            return start(name, relayed, Primary.BANK);
        }

        static Pair start(String name, boolean relayed, Primary primary) throws Exception {
            return start(name, relayed, primary, "manual");
        }

        /** {@code rejoin}: the pair's coordination.rejoin (manual or auto). */
        static Pair start(String name, boolean relayed, Primary primary, String rejoin) throws Exception {
            Assumptions.assumeTrue(EtcdCluster.installed(), "etcd is not installed: scripts/test installs Debian's"
                    + " etcd-server; without it no automatic failover can be tested");
            assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
            Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-failover-", SEARCHABLE);
            Pair pair = new Pair(work, EtcdCluster.start(Files.createDirectory(work.resolve("etcd"))));
            try {
                pair.begin(name, relayed, primary, rejoin);
                return pair;
            } catch (Exception | AssertionError e) {
                pair.close();
                throw e;
            }
        }

        private void begin(String name, boolean relayed, Primary shape, String rejoin) throws Exception {
            String cluster = "failover-" + name + "-" + ProcessHandle.current().pid();
            List<String> aUrls = etcd.urls();
            if (relayed) {
                List<String> through = new ArrayList<>();
                for (int port : etcd.clientPorts()) {
                    TcpRelay r = new TcpRelay(port);
                    relays.add(r);
                    through.add("http://127.0.0.1:" + r.port());
                }
                aUrls = through;
            }
            a = CleaveTestHome.builder().shards(SHARDS).bufferPoolPerShardMiB(shape.bufferPoolPerShardMiB())
                    .extraYaml(shape.sharding() + EtcdCluster.yaml(aUrls, cluster, LEASE_SECONDS) + "  rejoin: " + rejoin + "\n")
                    .serverOption("log_slave_updates", "ON").create();
            JarPrimary primary = JarPrimary.startWithBank(a, work.resolve("primary.log"), SHAPE);
            up = primary.up();
            shape.load().into(a);
            String url = primary.url();
            String token = primary.token();
            aUrl = url;
            aToken = token;
            load = new BankTransfers(SHAPE, a.proxyPort(), 29, new int[] {1, 150});
            addresses = StandbyIT.freeAddresses(SHARDS);
            load.start(2);
            load.awaitAcknowledged(30);
            StandbySeed.Result seeded = StandbyIT.seed(url, token, work, addresses);
            if (relayed) {
                // B reaches etcd directly; only A's way goes through the relays.
                String config = Files.readString(seeded.config());
                for (int i = 0; i < relays.size(); i++) {
                    config = config.replace(":" + relays.get(i).port(), ":" + etcd.clientPorts().get(i));
                }
                Files.writeString(seeded.config(), config);
            }
            b = StandbyIT.startAndAwaitSemiSync(seeded, url, token, SHARDS);
            AdminClient primaryAdmin = AdminClient.remote(url, token);
            CoordinationReport seen = awaitCoordination(r -> r.state() == PairState.STANDBY && r.primary() != null);
            assertThat(seen.epoch()).isEqualTo(1);
            assertThat(seen.primary().admin()).isEqualTo(url);
            assertThat(primaryAdmin.status().coordination().holdsLease()).as("A holds the primary's lease").isTrue();
            load.awaitAcknowledged(150);
        }

        /**
         * After a switchover to {@code primaryUrl} at {@code epoch}: it alone holds the lease, the other home is
         * the standby of that epoch, neither fenced nor superseded, and etcd names the new primary to both.
         */
        void checkOneHolder(CoordinationReport primary, CoordinationReport standby, long epoch, String primaryUrl) {
            assertThat(primary.state()).isEqualTo(PairState.PRIMARY);
            assertThat(primary.holdsLease()).isTrue();
            assertThat(primary.epoch()).isEqualTo(epoch);
            assertThat(primary.primary().admin()).isEqualTo(primaryUrl);
            assertThat(standby.state()).isEqualTo(PairState.STANDBY);
            assertThat(standby.holdsLease()).as("one lease holder").isFalse();
            assertThat(standby.epoch()).isEqualTo(epoch);
        }

        /**
         * A cross-shard commit of A's proxy as its death leaves it: {@code xid}'s branch prepared on both of A's
         * shards and its decision row on shard 0 (semi-sync: B has them). The connections stay open until the kill.
         */
        List<Connection> holdPreparedOnA(String xid) throws Exception {
            List<Connection> held = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                try (Connection c = JarPrimary.shard(a, s)) {
                    run(c, "CREATE DATABASE IF NOT EXISTS probe");
                    run(c, "CREATE TABLE IF NOT EXISTS probe.t (id INT PRIMARY KEY)");
                }
            }
            for (int s = 0; s < 2; s++) {
                held.add(JarPrimary.prepare(JarPrimary.shard(a, s), xid, s + 1));
            }
            try (Connection c = JarPrimary.shard(a, 0)) {
                run(c, "INSERT INTO cleave.decisions (xid, shards) VALUES ('" + xid + "', '0,1')");
            }
            return held;
        }

        CoordinationReport awaitCoordination(Predicate<CoordinationReport> condition) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            CoordinationReport last = null;
            while (System.nanoTime() < deadline) {
                last = b.statusReport().coordination();
                if (last != null && condition.test(last)) {
                    return last;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the standby's coordination never got there: " + last);
        }

        /** Writes through B's proxy until one is served; the milliseconds from {@code lost} to it. */
        long awaitFirstWriteOnB(long lost) throws Exception {
            return ProxyWrites.awaitFirstWrite(addresses.proxyListen(), "", lost,
                    () -> b.statusReport().coordination() + "; " + b.statusReport().proxy());
        }

        /**
         * SIGKILL of A's daemon and every shard under the transfers; B then serves (the time to its first write
         * printed) as the one primary at {@code epoch}, with every acknowledged transfer.
         */
        void killAAndCheckB(String test, long epoch) throws Exception {
            List<Long> shards = List.copyOf(a.serverPids().values());
            long lost;
            try {
                load.outageBegins();
                lost = System.nanoTime();
                up.destroyForcibly();
                for (long pid : shards) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            } finally {
                load.close();
            }
            System.out.println("FailoverIT (" + test + "): " + load.summary());
            assertThat(load.errors()).as("errors clients saw other than the lost connections").isEmpty();
            long firstWrite = awaitFirstWriteOnB(lost);
            System.out.println("FailoverIT (" + test + "): from SIGKILL of the primary host to the first write served"
                    + " through the standby's proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
            checkB(load, epoch);
        }

        /** B is the one primary, holding the lease at {@code epoch}, with every acknowledged transfer. */
        void checkB(BankTransfers load, long epoch) throws Exception {
            // B serves as soon as its proxy listens; its promotion ends a little later (in-doubt scan, replication poll).
            CoordinationReport r = awaitCoordination(c -> c.state() != PairState.PROMOTING);
            assertThat(r.state()).isEqualTo(PairState.PRIMARY);
            assertThat(r.epoch()).isEqualTo(epoch);
            assertThat(r.holdsLease()).isTrue();
            assertThat(r.primary().admin()).endsWith(":" + b.adminPort());
            assertThat(b.replication().report().role()).isEqualTo(HostRole.PRIMARY);
            assertThat(b.replication().report().epoch()).as("standby.json mirrors etcd's epoch").isEqualTo(epoch);
            PromotedHome.servesEveryAcknowledgedTransfer(b, addresses.proxyListen(), load, SHAPE);
        }

        /** Logs in to A's proxy and writes until it refuses with the fence's error; that error's text. */
        String awaitRefusalOnA(Predicate<String> matching) throws Exception {
            return ProxyWrites.awaitRefusal("127.0.0.1:" + a.proxyPort(), "", matching);
        }

        /** Logs in to A's proxy and writes: "accepted", or the error (code first). */
        String writeThroughA() {
            return ProxyWrites.writeThrough("127.0.0.1:" + a.proxyPort(), "");
        }

        /**
         * Waits until A's shards hold the rows of B's (A replicates B), with no branch prepared on either: B answers a
         * cross-shard commit at its decision and commits the branches after, so a branch may still be prepared
         * on B's shard, and then on A's, for a moment.
         */
        void awaitSameRowsOnA() throws Exception {
            String secret = Files.readString(a.home().shardSecretFile()).trim();
            String sql = "SELECT COUNT(*), SUM(balance), BIT_XOR(CRC32(CONCAT(branch, '/', id, '/', balance)))"
                    + " FROM bank.accounts";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int s = 0; s < SHARDS; s++) {
                try (Connection onB = shard(b, s);
                     Connection onA = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + (a.basePort() + s)
                             + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true",
                             io.cleave.manager.instance.ShardAccount.USER, secret)) {
                    while (true) {
                        String b = row(onB, sql);
                        String a = row(onA, sql);
                        boolean settled = nothingPrepared(onB) && nothingPrepared(onA);
                        if (settled && a.equals(b) && row(onB, sql).equals(b)) {
                            break;
                        }
                        assertThat(System.nanoTime()).as("shard %d of A catches up with B's (%s, A has %s; nothing"
                                + " prepared on either: %s)", s, b, a, settled).isLessThan(deadline);
                        Thread.sleep(50);
                    }
                }
            }
        }

        private static boolean nothingPrepared(Connection c) throws SQLException {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("XA RECOVER")) {
                return !rs.next();
            }
        }

        private static String row(Connection c, String sql) throws SQLException {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                return rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getString(3);
            }
        }

        /** Each of A's shards' gtid_binlog_pos, read as the shard account. */
        Map<Integer, String> gtidsOnA() throws Exception {
            String secret = Files.readString(a.home().shardSecretFile()).trim();
            Map<Integer, String> out = new java.util.TreeMap<>();
            for (int s = 0; s < SHARDS; s++) {
                try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + (a.basePort() + s)
                        + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", io.cleave.manager.instance.ShardAccount.USER,
                        secret)) {
                    out.put(s, single(c, "SELECT @@gtid_binlog_pos"));
                }
            }
            return out;
        }

        @Override
        public void close() throws Exception {
            if (load != null) {
                load.close();
            }
            if (up != null) {
                up.destroyForcibly();
                up.waitFor(30, TimeUnit.SECONDS);
            }
            if (a != null) {
                // A daemon 'cleave rejoin --rebuild' started in the background.
                io.cleave.manager.home.DaemonInfo.read(a.home()).filter(io.cleave.manager.home.DaemonInfo::processAlive)
                        .flatMap(d -> ProcessHandle.of(d.pid())).ifPresent(p -> {
                            p.destroyForcibly();
                            p.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                        });
            }
            if (a != null) {
                for (long pid : a.serverPids().values()) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            if (b != null) {
                b.close();
            }
            for (TcpRelay r : relays) {
                r.close();
            }
            etcd.close();
            if (a != null) {
                a.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }
}
