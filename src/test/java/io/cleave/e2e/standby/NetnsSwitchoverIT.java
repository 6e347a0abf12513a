package io.cleave.e2e.standby;

import io.cleave.manager.coordination.PairState;
import io.cleave.manager.standby.ReplicationAccount;
import io.cleave.manager.standby.SwitchoverReport;
import io.cleave.manager.standby.SwitchoverRequest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A planned switchover between hosts made of network namespaces (the pair of {@link NetnsFailoverIT}: A and B on
 * hosts of their own, etcd on three more, bank transfers from the test's namespace through A's proxy, each client
 * recording what it saw acknowledged): {@code cleave switchover} A -> B, then B -> A. A's proxy forwards its clients
 * to B's shards over TCP in between, logging in with the account B's take-over made for A's address. After each:
 * no client error, every acknowledged transfer on the new primary, the total unchanged, nothing prepared, one
 * primary holding the lease and the other its standby. The pause A's clients saw is printed. Runs with
 * {@code -Dstandby.netns.all} (25 to 48 s); with {@code -Dstandby.netns.tpcc} TPC-C terminals run beside the
 * transfers, through A's proxy all along: no error, its conditions hold after each switchover.
 */
class NetnsSwitchoverIT {

    /** NetnsFailoverIT's clients' password (its Pair makes root with it). */
    private static final String PASSWORD = "netns-pw";
    private static final String NEAR_PASSWORD = "near-pw";
    /** NetnsFailoverIT's shards' first port on every host. */
    private static final int BASE_PORT = 3307;

    @Test
    void switchesOverToTheStandbyHostAndBackWithoutAClientError() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.netns.all"), "the switchover between namespace hosts"
                + " (25 to 48 s) runs with -Dstandby.netns.all");
        try (NetnsFailoverIT.Pair pair = NetnsFailoverIT.Pair.start("switch", NetnsFailoverIT.TPCC)) {
            // An account bound to the clients' own address (the test's namespace), made through A's proxy.
            String near = "'near'@'" + pair.net.testAddress() + "'";
            try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:mysql://" + pair.proxy("a")
                    + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", PASSWORD);
                 java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE USER " + near + " IDENTIFIED BY '" + NEAR_PASSWORD + "'");
                s.execute("GRANT SELECT, UPDATE ON bank.* TO " + near);
            }
            assertThat(readAs(pair.proxy("a"), "near", NEAR_PASSWORD)).as("near through A's own proxy").isPositive();
            awaitCaughtUp(pair, "b");
            pair.event("switchover A -> B");
            SwitchoverReport there = pair.admin("a").switchover(
                    new SwitchoverRequest(pair.adminUrl("b"), pair.token("b"), 0, 0, 0));
            System.out.printf("NetnsSwitchoverIT: A -> B: %s; A's clients held %.1f ms%n", there, there.pauseMillis());
            assertThat(there.epoch()).isEqualTo(2);
            // A's clients go on through A's proxy, which now forwards them to B's shards from A's host.
            pair.load.awaitAcknowledged(100);
            awaitProxy(pair, "b");
            checkForwardsOverTcp(pair, "a", "b");
            // A's proxy logs near in to B's shards with a PROXY header naming the client: B's shards take it from A.
            assertThat(readAs(pair.proxy("a"), "near", NEAR_PASSWORD)).as("near through A's forwarding proxy").isPositive();
            checkSwitched(pair, "b", "a", 2);

            awaitCaughtUp(pair, "a");
            pair.event("switchover B -> A");
            SwitchoverReport back = pair.admin("b").switchover(SwitchoverRequest.known());
            System.out.printf("NetnsSwitchoverIT: B -> A: %s; A's clients held %.1f ms%n", back,
                    back.standbyProxyPauseMillis());
            assertThat(back.epoch()).isEqualTo(3);
            pair.load.awaitAcknowledged(100);
            // B's proxy forwards to A's shards now: a write through it is served there.
            awaitProxy(pair, "b");
            checkForwardsOverTcp(pair, "b", "a");
            assertThat(readAs(pair.proxy("b"), "near", NEAR_PASSWORD)).as("near through B's forwarding proxy").isPositive();
            // A serves its own shards again: B's shards no longer hold the account made for A's proxy, nor take its
            // PROXY headers.
            for (int s = 0; s < NetnsFailoverIT.SHARDS; s++) {
                assertThat(pair.shards("b").rows(s, "SELECT COUNT(*) FROM mysql.user WHERE User = 'cleave' AND Host = '"
                        + pair.net.address("a") + "'")).as("B's shard %d: the account made for A's proxy", s).containsExactly("0");
                assertThat(pair.shards("b").rows(s, "SELECT @@GLOBAL.proxy_protocol_networks")).containsExactly("127.0.0.1");
                assertThat(pair.shards("a").rows(s, "SELECT @@GLOBAL.proxy_protocol_networks"))
                        .containsExactly("127.0.0.1," + pair.net.address("b"));
            }
            checkSwitched(pair, "a", "b", 3);
            pair.load.awaitAcknowledged(50);
            pair.load.close();
            System.out.println("NetnsSwitchoverIT: " + pair.load.summary());
            assertThat(pair.load.errors()).as("errors A's clients saw").isEmpty();
            pair.finishTpcc("switchover A -> B -> A", "a", true);
        }
    }

    /**
     * A freshly seeded (or switched) standby replays what its primary wrote meanwhile, seconds of it on this shared
     * machine: the switchover refuses a replica more than 5 s behind, so the test starts it once each is within 1 s.
     */
    private static void awaitCaughtUp(NetnsFailoverIT.Pair pair, String standby) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        var shards = pair.admin(standby).standby().shards();
        while (!shards.stream().allMatch(r -> r.replicating() && r.lagSeconds() >= 0 && r.lagSeconds() <= 1)) {
            assertThat(System.nanoTime()).as("%s's replicas within 1 s of the primary in 60 s: %s", standby, shards)
                    .isLessThan(deadline);
            Thread.sleep(100);
            shards = pair.admin(standby).standby().shards();
        }
    }

    /**
     * {@code from}'s proxy reaches {@code to}'s shards over TCP from its own address (the hosts share a file system
     * here, so {@code to}'s Unix sockets would be reachable from {@code from}: on two machines they are not), and the
     * account made for it there logs in from {@code from} with the pair's secret and sees the proxy's XA branches.
     */
    private static void checkForwardsOverTcp(NetnsFailoverIT.Pair pair, String from, String to) throws Exception {
        String address = pair.net.address(from);
        String secret = java.nio.file.Files.readString(pair.home(from).state().resolve("replication-secret")).trim();
        // A transaction open through the proxy over both shards (a read: no lock the transfers could wait for) holds a
        // connection to each, from the proxy's address (an idle proxy, the one clients left, may have closed its
        // others: on 10.11 it had, in two of four runs).
        try (java.sql.Connection open = java.sql.DriverManager.getConnection("jdbc:mysql://" + pair.proxy(from)
                + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", PASSWORD);
             java.sql.Statement st = open.createStatement()) {
            open.setAutoCommit(false);
            try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM accounts WHERE id = 1")) {
                rs.next();
            }
            checkConnections(pair, from, to, address);
            open.rollback();
        }
        for (int s = 0; s < NetnsFailoverIT.SHARDS; s++) {
            assertThat(pair.shards(to).rows(s, "SELECT COUNT(*) FROM mysql.user WHERE User = 'cleave' AND Host = '"
                    + address + "'")).as("%s's shard %d has the account for %s's proxy", to, s, from).containsExactly("1");
            var login = pair.net.run(from, java.util.List.of("mariadb", "-h" + pair.net.address(to), "-P" + (BASE_PORT + s),
                    "-ucleave", "-p" + secret, "-N", "-B", "-e", "XA RECOVER; SELECT CURRENT_USER()"));
            assertThat(login.code()).as("the shard account from %s to %s's shard %d: %s", from, to, s, login.out()).isZero();
            assertThat(login.out()).contains("cleave@" + address);
        }
    }

    /** Logs in to {@code proxy} as {@code user} (from the test's own address) and counts the bank's accounts. */
    private static long readAs(String proxy, String user, String password) throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true&connectTimeout=2000", user, password);
             java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM accounts")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** {@code from}'s proxy has connections to each of {@code to}'s shards from {@code address}. */
    private static void checkConnections(NetnsFailoverIT.Pair pair, String from, String to, String address) throws Exception {
        for (int s = 0; s < NetnsFailoverIT.SHARDS; s++) {
            assertThat(Long.parseLong(pair.shards(to).rows(s, "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE HOST LIKE '" + address + ":%' AND USER <> '" + ReplicationAccount.USER + "'").get(0)))
                    .as("%s's proxy's connections to %s's shard %d over TCP (%s)", from, to, s, pair.shards(to).rows(s,
                            "SELECT CONCAT(USER, '@', HOST, ' ', COMMAND) FROM information_schema.PROCESSLIST")).isPositive();
        }
    }

    /** B's proxy starts once B answered the take-over: waits until it serves a write. */
    private static void awaitProxy(NetnsFailoverIT.Pair pair, String host) throws Exception {
        // Until the home's own proxy runs, its port relays to the other home's proxy: a write there proves nothing.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (pair.stateOf(host).contains("its port ")) {
            org.assertj.core.api.Assertions.assertThat(System.nanoTime()).as("%s's own proxy within 60 s: %s", host,
                    pair.stateOf(host)).isLessThan(deadline);
            Thread.sleep(100);
        }
        ProxyWrites.awaitFirstWrite(pair.proxy(host), PASSWORD, System.nanoTime(), () -> pair.stateOf(host));
    }

    /** {@code primary} alone is the primary at {@code epoch}, with every acknowledged transfer; {@code standby} replicates it. */
    private static void checkSwitched(NetnsFailoverIT.Pair pair, String primary, String standby, long epoch)
            throws Exception {
        pair.load.pause();
        try {
            pair.checkPrimary(primary, epoch);
            var other = pair.awaitCoordination(standby, c -> c.state() == PairState.STANDBY && c.epoch() == epoch);
            assertThat(other.holdsLease()).as("one lease holder").isFalse();
            pair.awaitStandby(standby);
        } finally {
            pair.load.resume();
        }
    }
}
