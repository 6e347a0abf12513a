package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.supervisor.InstanceStatus;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the standby's relay costs a client, measured in one run: a primary A of 2 shards and its standby B on
 * loopback; one client at a time, on A's proxy port and on B's (which relays each byte to A's proxy behind a PROXY
 * header), runs point selects by the bank's primary key and single-shard autocommit UPDATEs, one of each in turn, in
 * alternating rounds; then opens and closes connections (TCP, handshake and login) on either port. Per port: rates,
 * p50/p99, and the CPU other processes used meanwhile. A measurement, not a default test:
 * {@code -Dstandby.bench=true} (rounds: {@code -Dstandby.bench.rounds=N}, seconds each: {@code -Dstandby.bench.seconds=S}).
 */
class RelayCostIT {

    private static final int SHARDS = 2;
    private static final BankTransfers.Shape SHAPE = StandbyIT.shape(SHARDS);

    @Test
    void latencyThroughTheStandbysRelayAgainstThePrimarysProxy() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.bench"), "a measurement: run with -Dstandby.bench=true");
        int rounds = Integer.getInteger("standby.bench.rounds", 3);
        int seconds = Integer.getInteger("standby.bench.seconds", 10);
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-relaycost-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = SwitchoverIT.pairHome(SHARDS);
             RunningDaemon a = home.start()) {
            try (Connection c = a.connectProxy("", "")) {
                BankTransfers.create(c, SHAPE);
            }
            StandbyConfig addresses = StandbyIT.freeAddresses(SHARDS);
            b = StandbyIT.seedAndAwaitSemiSync("http://127.0.0.1:" + a.adminPort(), a.adminToken(), work, addresses,
                    SHARDS);
            int relayPort = Integer.parseInt(addresses.proxyListen().split(":")[1]);
            awaitRelay(relayPort);
            List<Long> ours = new ArrayList<>();
            ours.add(ProcessHandle.current().pid());
            for (Daemon d : List.of(a.daemon(), b)) {
                for (InstanceStatus s : d.status()) {
                    ours.add(s.pid());
                }
            }
            Port[] ports = {new Port("A's proxy (direct)", a.proxyPort()), new Port("B's port (relayed to A's proxy)",
                    relayPort)};
            for (int r = 0; r < rounds; r++) {
                for (Port p : (r % 2 == 0 ? ports : new Port[] {ports[1], ports[0]})) {
                    p.statements(seconds, ours, r);
                }
            }
            for (int r = 0; r < rounds; r++) {
                for (Port p : (r % 2 == 0 ? ports : new Port[] {ports[1], ports[0]})) {
                    p.connections(Math.max(1, seconds / 2), ours);
                }
            }
            for (Port p : ports) {
                System.out.println("RelayCostIT: " + p.summary());
                assertThat(p.selects).as(p.name + ": point selects answered").isNotEmpty();
                assertThat(p.logins).as(p.name + ": logins").isNotEmpty();
            }
            assertThat(b.replication().report().relay().relayed()).as("connections B's port relayed").isPositive();
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    private static Connection connect(int port) throws java.sql.SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true&connectTimeout=3000", "root", "");
    }

    /** B's port relays once B has learnt where A's proxy listens (within its 2 s ask). */
    private static void awaitRelay(int port) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (Connection c = connect(port)) {
                return;
            } catch (java.sql.SQLException e) {
                assertThat(System.nanoTime()).as("B's port relays within 30 s: " + e.getMessage()).isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    /** One port's measurements. */
    private static final class Port {
        final String name;
        final int port;
        final List<Long> selects = new ArrayList<>();
        final List<Long> updates = new ArrayList<>();
        final List<Long> logins = new ArrayList<>();
        long statementMillis;
        long loginMillis;
        double otherCpuSeconds;
        long measuredMillis;

        Port(String name, int port) {
            this.name = name;
            this.port = port;
        }

        void statements(int seconds, List<Long> ours, int round) throws Exception {
            long[] cpu0 = SemiSyncCostIT.CpuUse.read(ours);
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            Random random = new Random(round);
            try (Connection c = connect(port);
                 PreparedStatement read = c.prepareStatement("SELECT balance FROM accounts WHERE branch = ? AND id = ?");
                 PreparedStatement write = c.prepareStatement(
                         "UPDATE accounts SET balance = balance + 1 WHERE branch = ? AND id = ?")) {
                while (System.nanoTime() < end) {
                    long t = System.nanoTime();
                    read.setInt(1, 1 + random.nextInt(SHAPE.branches()));
                    read.setInt(2, 1 + random.nextInt(SHAPE.accounts()));
                    try (ResultSet rs = read.executeQuery()) {
                        assertThat(rs.next()).as("the account read").isTrue();
                    }
                    selects.add(System.nanoTime() - t);
                    t = System.nanoTime();
                    write.setInt(1, 1 + random.nextInt(SHAPE.branches()));
                    write.setInt(2, 1 + random.nextInt(SHAPE.accounts()));
                    write.executeUpdate();
                    updates.add(System.nanoTime() - t);
                }
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            statementMillis += elapsed;
            other(cpu0, ours, elapsed);
        }

        void connections(int seconds, List<Long> ours) throws Exception {
            long[] cpu0 = SemiSyncCostIT.CpuUse.read(ours);
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                long t = System.nanoTime();
                try (Connection c = connect(port)) {
                    assertThat(c.isValid(3)).isTrue();
                }
                logins.add(System.nanoTime() - t);
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            loginMillis += elapsed;
            other(cpu0, ours, elapsed);
        }

        private void other(long[] cpu0, List<Long> ours, long elapsedMillis) throws java.io.IOException {
            long[] cpu1 = SemiSyncCostIT.CpuUse.read(ours);
            otherCpuSeconds += ((cpu1[0] - cpu0[0]) - (cpu1[1] - cpu0[1])) / 100.0;
            measuredMillis += elapsedMillis;
        }

        String summary() {
            return String.format("%s: point select %.0f/s p50 %.3f ms p99 %.3f ms; single-shard UPDATE p50 %.3f ms"
                            + " p99 %.3f ms (one of each in turn, %.1f s); connect and log in %.0f/s p50 %.2f ms p99 %.2f"
                            + " ms (%.1f s); other processes' CPU %.0f%% of one core",
                    name, selects.size() * 1000.0 / statementMillis, pct(selects, 50), pct(selects, 99), pct(updates, 50),
                    pct(updates, 99), statementMillis / 1000.0, logins.size() * 1000.0 / loginMillis, pct(logins, 50),
                    pct(logins, 99), loginMillis / 1000.0, otherCpuSeconds * 100_000 / measuredMillis);
        }

        private static double pct(List<Long> nanos, int p) {
            long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e6;
        }
    }
}
