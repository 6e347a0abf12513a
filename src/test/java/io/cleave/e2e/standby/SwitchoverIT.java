package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.CatchUp;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.SwitchoverReport;
import io.cleave.manager.standby.SwitchoverRequest;
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

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A planned switchover of a standby pair and back, both homes up, while cross-shard bank transfers run
 * through the first primary's proxy: its clients see a pause, never an error. After each switch every
 * transfer a client saw acknowledged is on the new primary, the bank's total is unchanged, no XA branch
 * is prepared anywhere, the new primary's shards are writable and wait for the new standby's
 * acknowledgement, the new standby's shards are read-only and replicate them, and a write through
 * either proxy lands on the new primary. Over 2 shards; {@code -Dstandby.shards=N} runs it over N (bench/RESULTS.md
 * "Switchover").
 */
class SwitchoverIT {

    private static final int SHARDS = StandbyIT.PAIR_SHARDS;
    private static final BankTransfers.Shape SHAPE = StandbyIT.shape(SHARDS);

    @Test
    void thePairSwapsRolesAndBackUnderCrossShardTransfersWithNoClientErrorAndNoAcknowledgedTransferLost()
            throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-switchover-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = pairHome(SHARDS);
             RunningDaemon a = home.start()) {
            try (Connection c = a.connectProxy("", "")) {
                BankTransfers.create(c, SHAPE);
                run(c, "CREATE TABLE bank.marks (id INT PRIMARY KEY, written_through VARCHAR(8))");
                RelayedClients.createAccount(c);
            }
            String aUrl = "http://127.0.0.1:" + a.adminPort();
            StandbyConfig addresses = StandbyIT.freeAddresses(SHARDS);
            b = StandbyIT.seedAndAwaitSemiSync(aUrl, a.adminToken(), work, addresses, SHARDS);
            CleaveHome bHome = b.home();
            String bUrl = "http://127.0.0.1:" + addresses.adminPort();
            String bToken = Files.readString(bHome.adminTokenFile()).trim();
            // An event runs on the primary only: replication makes it DISABLE ON SLAVE on the standby.
            try (Connection c = a.connectProxy("", "")) {
                run(c, "CREATE EVENT bank.tidy ON SCHEDULE EVERY 1 DAY DO DELETE FROM bank.marks WHERE id < 0");
            }
            String tidy = tidy(a.daemon()).get(0).split(" ", 4)[3];
            assertThat(tidy(a.daemon())).as("the event on A").containsExactly("shard 0: ENABLED " + tidy);
            long replicated = System.nanoTime() + 60_000_000_000L;
            while (!tidy(b).equals(List.of("shard 0: SLAVESIDE_DISABLED " + tidy))) {
                assertThat(System.nanoTime()).as("the event replicated to B: %s", tidy(b)).isLessThan(replicated);
                Thread.sleep(50);
            }
            int bProxy = Integer.parseInt(addresses.proxyListen().split(":")[1]);
            // B's port relays to A's proxy, which sees the client at its own address: a client there is A's.
            Connection relayed = RelayedClients.awaitRelayed(bProxy);
            assertThat(RelayedClients.ownHost(relayed)).startsWith(RelayedClients.ADDRESS + ":");
            assertWriteLands(relayed, 100, "B-relay", a.daemon());
            StandbyReport relaying = b.replication().report();
            assertThat(relaying.relay().state()).isEqualTo("relaying");
            assertThat(relaying.relay().relayed()).isPositive();
            assertThat(relaying.relay().bytesToPrimary()).isPositive();
            assertThat(relaying.relay().bytesToClients()).isPositive();
            assertThat(b.statusReport().proxy()).startsWith("standby of " + aUrl).contains("; its port relays "
                    + addresses.proxyListen()
                    + " to the primary's proxy 127.0.0.1:" + a.proxyPort());
            assertThat(b.meterRegistry().scrape()).containsPattern("cleave_standby_relay_connections [1-9]")
                    .containsPattern("cleave_standby_relay_bytes_total\\{direction=\"to_primary\"\\} [1-9]");

            List<Double> pauses = new ArrayList<>();
            List<Long> ours = new ArrayList<>();
            ours.add(ProcessHandle.current().pid());
            for (Daemon d : List.of(a.daemon(), b)) {
                d.status().forEach(s -> ours.add(s.pid()));
            }
            long[] cpu0 = SemiSyncCostIT.CpuUse.read(ours);
            long started = System.nanoTime();
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 41, new int[] {1, 150});
            try {
                load.start(4);
                load.awaitAcknowledged(100);

                // A replica that does not run refuses the switchover before anything is held.
                try (Connection c = shard(b, 1)) {
                    run(c, "STOP SLAVE SQL_THREAD");
                    b.replication().poll();
                    assertThatThrownBy(() -> AdminClient.remote(aUrl, a.adminToken())
                            .switchover(new SwitchoverRequest(bUrl, bToken, 0, 0, 0)))
                            .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                            .hasMessageContaining("shard 1's replica is not running");
                    run(c, "START SLAVE SQL_THREAD");
                }
                await(b, r -> r.shards().stream().allMatch(ShardReplication::replicating), "the replica runs again");

                // A session keeping a temporary table on A's shard cannot follow to B: the switchover waits for it
                // and is abandoned at its deadline, nothing changed, the transfers going on on A.
                try (Connection pinned = proxy(a.proxyPort())) {
                    run(pinned, "CREATE TEMPORARY TABLE bank.scratch (id INT)");
                    assertThatThrownBy(() -> AdminClient.remote(aUrl, a.adminToken())
                            .switchover(new SwitchoverRequest(bUrl, bToken, 300, 0, 0)))
                            .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                            .hasMessageContaining("abandoned").hasMessageContaining("connection-bound")
                            .hasMessageContaining("nothing was changed");
                    run(pinned, "INSERT INTO bank.scratch VALUES (1)");
                }
                assertThat(a.daemon().replication().report().role()).isEqualTo(HostRole.PRIMARY);
                for (int s = 0; s < SHARDS; s++) {
                    try (Connection c = a.connect(s)) {
                        assertThat(single(c, "SELECT @@read_only")).as("A's shard %d still writable", s).isEqualTo("0");
                    }
                }
                load.awaitAcknowledged(20);

                // The catch-up a switchover runs before its hold: B applies up to A's positions as they are now,
                // changing nothing; a primary has nothing to catch up.
                Map<Integer, String> positions = new java.util.HashMap<>();
                for (int s = 0; s < SHARDS; s++) {
                    try (Connection c = a.connect(s)) {
                        positions.put(s, single(c, "SELECT @@gtid_binlog_pos"));
                    }
                }
                CatchUp.Result caughtUp = AdminClient.remote(bUrl, bToken).catchUp(new CatchUp(positions, 10_000));
                assertThat(caughtUp.reached()).as("B applied A's positions: %s", caughtUp).isTrue();
                for (int s = 0; s < SHARDS; s++) {
                    try (Connection c = shard(b, s)) {
                        assertThat(single(c, "SELECT MASTER_GTID_WAIT('" + positions.get(s) + "', 0)")).isEqualTo("0");
                    }
                }
                assertThat(b.replication().report().role()).isEqualTo(HostRole.STANDBY);
                assertThatThrownBy(() -> AdminClient.remote(aUrl, a.adminToken()).catchUp(new CatchUp(positions, 1000)))
                        .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                        .hasMessageContaining("is the primary");

                // A -> B, transfers running through A's proxy.
                SwitchoverReport there = AdminClient.remote(aUrl, a.adminToken())
                        .switchover(new SwitchoverRequest(bUrl, bToken, 0, 0, 0));
                System.out.println("SwitchoverIT: A -> B " + there);
                pauses.add(there.pauseMillis());
                assertThat(there.epoch()).isEqualTo(2);
                assertThat(there.primary()).isEqualTo(bUrl);
                assertThat(there.shards()).hasSize(SHARDS).allSatisfy(s -> assertThat(s.gtid()).matches("0-[0-9]+-[0-9]+"));
                load.awaitAcknowledged(100);
                checkPair(b, a.daemon(), 2, bUrl);
                checkLedger(load, a.proxyPort(), b, a.daemon());
                // The event runs on the new primary, with its own definer, and no longer on the old one.
                assertThat(tidy(b)).as("the event on B").containsExactly("shard 0: ENABLED " + tidy);
                assertThat(tidy(a.daemon())).as("the event on A").containsExactly("shard 0: SLAVESIDE_DISABLED " + tidy);
                assertWriteLands(a.proxyPort(), 1, "A", b);
                // The connection B's port relayed to A's proxy goes on: A's proxy forwards it to B's shards.
                assertWriteLands(relayed, 101, "B-relay", b);
                relayed.close();
                // B's port is B's own proxy once it runs: the client logs in there with A's accounts, at its address.
                awaitProxy(b, bProxy);
                try (Connection own = RelayedClients.connect(bProxy)) {
                    assertThat(RelayedClients.ownHost(own)).startsWith(RelayedClients.ADDRESS + ":");
                    assertWriteLands(own, 102, "B", b);
                }
                assertThat(b.replication().report().relay()).as("B's relay stopped").isNull();

                // B -> A: B's proxy holds its clients, A's proxy (forwarding to B) holds its own.
                SwitchoverReport back = AdminClient.remote(bUrl, bToken).switchover(SwitchoverRequest.known());
                System.out.println("SwitchoverIT: B -> A " + back);
                assertThat(back.standbyProxyPauseMillis()).as("A's proxy forwarded to B: it was held too").isPositive();
                // A's clients are on A's proxy: their pause is its hold, which B's own hold lies within.
                pauses.add(back.standbyProxyPauseMillis());
                assertThat(back.epoch()).isEqualTo(3);
                assertThat(back.primary()).isEqualTo(aUrl);
                load.awaitAcknowledged(100);
                checkPair(a.daemon(), b, 3, aUrl);
                checkLedger(load, a.proxyPort(), a.daemon(), b);
                assertThat(tidy(a.daemon())).as("the event on A").containsExactly("shard 0: ENABLED " + tidy);
                assertThat(tidy(b)).as("the event on B").containsExactly("shard 0: SLAVESIDE_DISABLED " + tidy);
                assertWriteLands(a.proxyPort(), 2, "A", a.daemon());
                assertWriteLands(bProxy, 3, "B", a.daemon());
            } finally {
                load.close();
            }
            System.out.println("SwitchoverIT: " + load.summary());
            assertThat(load.errors()).as("errors clients of A's proxy saw").isEmpty();
            pauses.sort(Double::compare);
            long[] cpu1 = SemiSyncCostIT.CpuUse.read(ours);
            double others = ((cpu1[0] - cpu0[0]) - (cpu1[1] - cpu0[1])) / 100.0 * 1e9 / (System.nanoTime() - started);
            System.out.printf("SwitchoverIT: client-visible pause over %d switchovers: p50 %.1f ms, max %.1f ms;"
                            + " other processes' CPU %.0f%% of one core%n", pauses.size(),
                    pauses.get((pauses.size() - 1) / 2), pauses.get(pauses.size() - 1), others * 100);
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** The event bank.tidy on each shard of {@code home} that has it: its status and definer. */
    private static List<String> tidy(Daemon home) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < SHARDS; s++) {
            try (Connection c = shard(home, s)) {
                String found = single(c, "SELECT COALESCE((SELECT CONCAT(STATUS, ' ', DEFINER) FROM information_schema.EVENTS"
                        + " WHERE EVENT_SCHEMA = 'bank' AND EVENT_NAME = 'tidy'), '')");
                if (!found.isEmpty()) {
                    out.add("shard " + s + ": " + found);
                }
            }
        }
        return out;
    }

    /**
     * The first primary of a pair that switches over: the bank's sharding over {@code shards} shards, and an admin port
     * of its own (the other home keeps its admin URL, also across a restart of its daemon).
     */
    static CleaveTestHome pairHome(int shards) {
        return CleaveTestHome.builder().shards(shards).extraYaml(StandbyIT.sharding(shards)).adminPort(CleaveTestHome.freePort())
                // A replica keeps what it replicates in its own binlog: the switch back starts from there.
                .serverOption("log_slave_updates", "ON").create();
    }

    /**
     * The new primary's shards are writable and wait for the standby's acknowledgement; the standby's are
     * read-only and replicate them, acknowledging; both homes know their role and the epoch.
     */
    private static void checkPair(Daemon primary, Daemon standby, long epoch, String primaryUrl) throws Exception {
        StandbyReport p = await(primary, r -> r.role() == HostRole.PRIMARY && r.semiSync()
                && r.shards().size() == SHARDS && r.shards().stream().allMatch(s -> "ON".equals(s.semiSync())
                && s.semiSyncClients() == 1 && !s.readOnly()), "the new primary's shards wait for the new standby");
        assertThat(p.epoch()).isEqualTo(epoch);
        StandbyReport s = await(standby, r -> r.role() == HostRole.STANDBY && r.shards().size() == SHARDS
                && r.shards().stream().allMatch(x -> x.replicating() && x.readOnly() && "ON".equals(x.semiSync())),
                "the new standby's shards replicate the new primary's");
        assertThat(s.epoch()).isEqualTo(epoch);
        assertThat(s.primary()).as("the standby's primary").isEqualTo(primaryUrl);
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection c = shard(primary, shard)) {
                assertThat(single(c, "SELECT @@read_only")).as("primary shard %d writable", shard).isEqualTo("0");
            }
        }
    }

    /**
     * With the writers paused: every acknowledged transfer is on the new primary, read through the clients'
     * proxy, and the total is unchanged; no XA branch is left prepared on either home.
     */
    private static void checkLedger(BankTransfers load, int proxyPort, Daemon primary, Daemon standby) throws Exception {
        load.pause();
        try {
            try (Connection c = proxy(proxyPort)) {
                Map<Long, Long> balances = BankTransfers.balances(c, "SELECT branch, id, balance FROM bank.accounts");
                assertThat(load.differences(balances)).as("accounts that differ from the acknowledged transfers").isEmpty();
                assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                        .isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
            }
            for (Daemon d : List.of(primary, standby)) {
                for (int s = 0; s < SHARDS; s++) {
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    while (prepared(d, s) > 0) {
                        assertThat(System.nanoTime()).as("shard %d of %s: branches prepared after 5 s", s, d.home().root())
                                .isLessThan(deadline);
                        Thread.sleep(20);
                    }
                }
            }
        } finally {
            load.resume();
        }
    }

    /** A row written through a proxy is on the primary's shards, and replicated to the standby's. */
    private static void assertWriteLands(int proxyPort, int id, String through, Daemon primary) throws Exception {
        try (Connection c = proxy(proxyPort)) {
            assertWriteLands(c, id, through, primary);
        }
    }

    /** A row written on {@code client} (a client of a proxy) is on the primary's shards. */
    private static void assertWriteLands(Connection client, int id, String through, Daemon primary) throws Exception {
        run(client, "INSERT INTO bank.marks VALUES (" + id + ", '" + through + "')");
        int found = 0;
        for (int s = 0; s < SHARDS; s++) {
            try (Connection c = shard(primary, s)) {
                if (!single(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'bank'"
                        + " AND table_name = 'marks'").equals("0")) {
                    found += Integer.parseInt(single(c, "SELECT COUNT(*) FROM bank.marks WHERE id = " + id));
                }
            }
        }
        assertThat(found).as("mark %d written through %s's proxy, on the primary's shards", id, through).isEqualTo(1);
    }

    private static int prepared(Daemon d, int shard) throws SQLException {
        int n = 0;
        try (Connection c = shard(d, shard); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    /**
     * The new primary starts its proxy once it took over (the old primary's proxy serves meanwhile, and until then
     * the port relays to it): waits until the home's own proxy serves the port.
     */
    static void awaitProxy(Daemon home, int port) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try (Connection c = proxy(port)) {
                if (!home.ownProxyRuns()) {
                    throw new SQLException("the port is relayed to the other home's proxy: " + home.statusReport().proxy());
                }
                return;
            } catch (SQLException e) {
                assertThat(System.nanoTime()).as("the new primary's proxy serves within a minute: " + e.getMessage())
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static Connection proxy(int port) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", "root", "");
    }
}
