package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.SwitchoverRequest;
import io.cleave.manager.standby.forwarding.PeerProxy;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * After {@code cleave switchover} A -> B, A's proxy forwards its clients to B's shards by the shard map it had at the
 * switchover, and follows no later version. Before B refused layout changes meanwhile, a key move on B lost a write
 * through A's proxy (it went to the key's old shard, which B's proxy no longer reads for it) and A's proxy read the
 * moved key's rows as gone. Now every layout change on B (moves, shard-table, scale, import, a global unique key's
 * build) is refused while A's proxy runs, naming it and what to do; once A's forwarding stops, B moves the keys and
 * routes them to their new shard.
 */
class ForwardingProxyLayoutIT {

    private static final int SHARDS = 2;
    private static final BankTransfers.Shape SHAPE = StandbyIT.shape(SHARDS);
    /** Branches 1-100 live on shard 0: these go to shard 1. */
    private static final String MOVED = "1-20";
    private static final int MOVED_BRANCH = 5;

    /** The pair after A -> B: A's proxy forwards to B's shards. */
    private record Switched(Daemon b, String aUrl, AdminClient primary, int bProxy) {
    }

    /** The bank on A, B seeded from it, and the switchover A -> B; B's daemon is the caller's to close. */
    private static Switched switchOver(RunningDaemon a, Path work) throws Exception {
        try (Connection c = a.connectProxy("", "")) {
            BankTransfers.create(c, SHAPE);
            run(c, "CREATE TABLE bank.notes (branch INT PRIMARY KEY, note VARCHAR(64) NOT NULL)");
            run(c, "INSERT INTO bank.notes VALUES (1, 'one'), (2, 'two')");
        }
        String aUrl = "http://127.0.0.1:" + a.adminPort();
        StandbyConfig addresses = StandbyIT.freeAddresses(SHARDS);
        Daemon b = StandbyIT.seedAndAwaitSemiSync(aUrl, a.adminToken(), work, addresses, SHARDS);
        try {
            String bUrl = "http://127.0.0.1:" + addresses.adminPort();
            String bToken = Files.readString(b.home().adminTokenFile()).trim();
            AdminClient.remote(aUrl, a.adminToken()).switchover(new SwitchoverRequest(bUrl, bToken, 0, 0, 0));
            int bProxy = Integer.parseInt(addresses.proxyListen().split(":")[1]);
            SwitchoverIT.awaitProxy(b, bProxy);
            return new Switched(b, aUrl, AdminClient.remote(bUrl, bToken), bProxy);
        } catch (Exception | AssertionError e) {
            b.close();
            throw e;
        }
    }

    @Test
    void aLayoutChangeOnThePrimaryLosesNoWriteOfTheOtherHomesForwardingProxy() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-fwdguard-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = SwitchoverIT.pairHome(SHARDS);
             RunningDaemon a = home.start()) {
            Switched pair = switchOver(a, work);
            b = pair.b();
            String aUrl = pair.aUrl();
            AdminClient primary = pair.primary();
            int bProxy = pair.bProxy();

            // A's proxy forwards to B's shards by the map it had at the switchover: B takes no layout change meanwhile.
            try (Connection c = proxy(a.proxyPort())) {
                run(c, "INSERT INTO bank.accounts (branch, id, balance, pad) VALUES (" + MOVED_BRANCH + ", 900, 77, 'A')");
            }
            String forwards = aUrl + " (the pair's other home, the primary before the switchover) runs a proxy";
            assertRefused(() -> primary.startMove("branch", MOVED, 1), forwards, "a move of keys " + MOVED + " of branch");
            assertRefused(() -> primary.shardTable("bank.notes", java.util.Map.of("keyspace", "branch", "column", "branch")),
                    forwards, "a move of tables");
            assertRefused(() -> primary.startScale(3), forwards, "a scale from 2 to 3 shards");
            assertRefused(() -> primary.startImport("mysql://root:x@127.0.0.1:1/db"), forwards, "an import");
            try (Connection c = proxy(bProxy)) {
                assertThatThrownBy(() -> run(c, "CREATE UNIQUE INDEX pad_unique ON bank.accounts (pad)"))
                        .as("a global unique key's build through B's proxy").hasMessageContaining(aUrl)
                        .hasMessageContaining("a global unique key's build is refused");
            }
            // Nor a table with a global unique key, through either proxy: the other would not enforce it.
            String members = "CREATE TABLE other.accounts (branch INT NOT NULL, id INT NOT NULL, email VARCHAR(64),"
                    + " PRIMARY KEY (branch, id), UNIQUE KEY (email))";
            try (Connection c = proxy(bProxy)) {
                run(c, "CREATE DATABASE other");
                assertThatThrownBy(() -> run(c, members)).as("a sharded table with a global unique key through B's proxy")
                        .hasMessageContaining(aUrl).hasMessageContaining("a sharded table created with a global unique key"
                                + " is refused while it forwards");
            }
            try (Connection c = proxy(a.proxyPort())) {
                assertThatThrownBy(() -> run(c, "CREATE UNIQUE INDEX pad_unique ON bank.accounts (pad)"))
                        .as("a global unique key's build through A's forwarding proxy")
                        .hasMessageContaining("this home's proxy forwards its clients to the primary's shards");
                assertThatThrownBy(() -> run(c, members)).as("a sharded table with a global unique key through A's proxy")
                        .hasMessageContaining("this home's proxy forwards its clients to the primary's shards");
            }
            assertThatThrownBy(() -> primary.stopForwarding()).as("stopping the primary's own proxy")
                    .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                    .hasMessageContaining("this home is not a standby");

            // A's clients moved to B's proxy: A's forwarding stops, and B takes the move.
            PeerProxy stopped = AdminClient.remote(aUrl, a.adminToken()).stopForwarding();
            assertThat(stopped.runs()).as("A's proxy after --stop-forwarding").isFalse();
            // A's port now relays to B's proxy, which routes by B's map: a client of A's port writes on B's shards.
            long relayDeadline = System.nanoTime() + 30_000_000_000L;
            while (!a.daemon().statusReport().proxy().contains("its port relays")) {
                assertThat(System.nanoTime()).as("A's port relays to B's proxy: " + a.daemon().statusReport().proxy())
                        .isLessThan(relayDeadline);
                Thread.sleep(100);
            }
            try (Connection c = proxy(a.proxyPort())) {
                run(c, "INSERT INTO bank.notes VALUES (3, 'through A relayed')");
            }
            try (Connection c = proxy(bProxy)) {
                assertThat(single(c, "SELECT note FROM bank.notes WHERE branch = 3")).isEqualTo("through A relayed");
            }
            MoveRecord move = primary.startMove("branch", MOVED, 1);
            StandbyLayoutIT.awaitPhase(primary, move.id, MovePhase.DONE);
            try (Connection c = proxy(bProxy)) {
                run(c, "INSERT INTO bank.accounts (branch, id, balance, pad) VALUES (" + MOVED_BRANCH + ", 901, 78, 'B')");
                assertThat(single(c, "SELECT COUNT(*) FROM bank.accounts WHERE branch = " + MOVED_BRANCH))
                        .as("branch %d's accounts through B's proxy after the move", MOVED_BRANCH).isEqualTo("12");
            }
            try (Connection c = proxy(bProxy)) {
                run(c, members);
            }
            for (int s = 0; s < SHARDS; s++) {
                try (Connection c = shard(b, s)) {
                    assertThat(single(c, "SELECT COUNT(*) FROM bank.accounts WHERE branch = " + MOVED_BRANCH))
                            .as("branch %d's accounts on B's shard %d (the map puts them on shard 1)", MOVED_BRANCH, s)
                            .isEqualTo(s == 1 ? "12" : "0");
                }
            }

            // An old primary that cannot be asked counts as forwarding, until the operator says it is gone for good.
            String gone = "http://127.0.0.1:1";
            io.cleave.manager.standby.forwarding.ForwardingPeer.mark(b.home().state(), gone);
            assertThatThrownBy(() -> primary.startMove("branch", "21-30", 1)).as("a move while %s cannot be asked", gone)
                    .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                    .hasMessageStartingWith("cannot ask " + gone).hasMessageContaining("cleave standby --forwarding-gone");
            assertThat(primary.forgetForwarding()).isEqualTo(gone);
            StandbyLayoutIT.awaitPhase(primary, primary.startMove("branch", "21-30", 1).id, MovePhase.DONE);
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * The other way to end A's forwarding: A's daemon restarted (as a standby its port relays to B's proxy). B's question every
     * 2 s finds it, and a unique key's DDL through B's proxy, which asks no one, is taken within seconds.
     */
    @Test
    void restartingTheOldPrimarysDaemonEndsItsForwarding() throws Exception {
        assumeTrue(Boolean.getBoolean("standby.forwarding.all"), "-Dstandby.forwarding.all=true runs it");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-fwdguard-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = SwitchoverIT.pairHome(SHARDS)) {
            RunningDaemon a = home.start();
            Switched pair;
            try {
                pair = switchOver(a, work);
                b = pair.b();
                assertRefused(() -> pair.primary().startMove("branch", MOVED, 1), pair.aUrl()
                        + " (the pair's other home, the primary before the switchover) runs a proxy", "a move of keys "
                        + MOVED + " of branch");
            } finally {
                a.closeLeavingInstancesRunning();
            }
            try (RunningDaemon again = home.start(); Connection c = proxy(pair.bProxy())) {
                assertThat(again.daemon().status()).as("A's shards, adopted").hasSize(SHARDS);
                // Its port relays to B's proxy (or refuses until it knows where that is); its own proxy does not run.
                assertThat(again.daemon().ownProxyRuns()).as("A's own proxy, restarted as a standby").isFalse();
                run(c, "CREATE DATABASE other");
                long asked = System.nanoTime();
                long deadline = asked + 20_000_000_000L;
                while (true) {
                    try {
                        run(c, "CREATE TABLE other.accounts (branch INT NOT NULL, id INT NOT NULL, email VARCHAR(64),"
                                + " PRIMARY KEY (branch, id), UNIQUE KEY (email))");
                        break;
                    } catch (RuntimeException e) {
                        assertThat(e).hasMessageContaining("may still forward");
                        assertThat(System.nanoTime()).as("B forgets A within 20 s of its restart").isLessThan(deadline);
                        Thread.sleep(200);
                    }
                }
                System.out.printf("ForwardingProxyLayoutIT: B took unique keys' DDL %d ms after A's daemon was up again%n",
                        (System.nanoTime() - asked) / 1_000_000);
                StandbyLayoutIT.awaitPhase(pair.primary(), pair.primary().startMove("branch", MOVED, 1).id, MovePhase.DONE);
            }
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable change, String forwards,
                                      String what) {
        assertThatThrownBy(change).as(what + " on B")
                .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessageContaining(forwards).hasMessageContaining(what + " is refused while it forwards")
                .hasMessageContaining("cleave standby --stop-forwarding");
    }

    private static Connection proxy(int port) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", "root", "");
    }
}
