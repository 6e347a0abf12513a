package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Manual failover: the primary host is gone (its daemon, run from the shipped jar in its own process,
 * and every one of its shards killed like kill -9 while cross-shard transfers run through its proxy) and
 * {@code cleave promote} makes the standby the primary. Through the promoted home's proxy every transfer
 * a client saw acknowledged is there, the bank's total is unchanged, no XA branch is left prepared, and
 * writes work.
 */
class PromoteIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(200, 10, 100);

    @Test
    void thePromotedStandbyServesEveryAcknowledgedTransferWhenThePrimaryHostIsGone() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-promote-", SEARCHABLE);
        Daemon standby = null;
        Process up = null;
        List<Connection> held = List.of();
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING)
                // The primary's proxy leaves the branches this test holds prepared to the promotion.
                .proxyOption("xa_recovery_interval_s", 0).create()) {
            JarPrimary primary = JarPrimary.startWithBank(a, work.resolve("primary.log"), SHAPE);
            up = primary.up();
            String url = primary.url();
            String token = primary.token();

            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 23, new int[] {1, 150});
            StandbyConfig addresses = StandbyIT.freeAddresses();
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                standby = StandbyIT.seedAndAwaitSemiSync(url, token, work, addresses, 2);
                // The standby's port relays to the primary's proxy: the primary's rows, read through it.
                try (Connection c = awaitRelayed(addresses.proxyListen())) {
                    assertThat(single(c, "SELECT COUNT(*) FROM accounts")).isEqualTo(String.valueOf(SHAPE.rows()));
                }
                load.awaitAcknowledged(150);
                held = holdPrepared(a);

                // The primary host is gone: its daemon and every shard killed at once, transfers in flight.
                List<Long> shards = List.copyOf(a.serverPids().values());
                assertThat(shards).hasSize(2);
                load.outageBegins();
                up.destroyForcibly();
                for (long pid : shards) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
                up.waitFor(30, TimeUnit.SECONDS);
                for (long pid : shards) {
                    ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
                }
            } finally {
                load.close();
            }
            System.out.println("PromoteIT: " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            // The primary's proxy is gone: the standby's port says so with an error packet, and its status too.
            assertThatThrownBy(() -> viaStandbyPort(addresses.proxyListen()).close())
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(2003))
                    .hasMessageContaining("is not reachable from this standby");
            assertThat(standby.statusReport().proxy()).contains("its port refuses clients on " + addresses.proxyListen())
                    .contains("is not reachable from this standby");

            // cleave promote --home B, as an operator runs it.
            long started = System.nanoTime();
            Process promote = new ProcessBuilder(CleaveJar.javaBin(), "-jar", CleaveJar.JAR.toString(), "promote",
                    "--home=" + seeded(standby)).redirectErrorStream(true).start();
            String out = new String(promote.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(promote.waitFor(2, TimeUnit.MINUTES)).isTrue();
            System.out.println("cleave promote:\n" + out);
            assertThat(promote.exitValue()).as(out).isZero();
            assertThat(out).contains("promoted to primary at epoch 2").containsPattern("shard 0: applied up to GTID"
                    + " 0-[0-9]+-[0-9]+; [1-9][0-9]* XA branch").containsPattern("shard 1: applied up to GTID 0-[0-9]+-[0-9]+;"
                    + " [2-9][0-9]* XA branch");
            String proxy = addresses.proxyListen();
            long firstWrite;
            try (Connection c = DriverManager.getConnection("jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true", "root", "")) {
                run(c, "UPDATE accounts SET balance = balance + 0 WHERE branch = 1 AND id = 1");
                firstWrite = (System.nanoTime() - started) / 1_000_000;
                System.out.println("PromoteIT: from 'cleave promote' (a JVM start included) to the first write served: "
                        + firstWrite + " ms");
            }
            PromotedHome.servesEveryAcknowledgedTransfer(standby, proxy, load, SHAPE);
            // The held branches settled by the replicated decision rows: committed on both shards, the other rolled back.
            try (Connection s0 = shard(standby, 0); Connection s1 = shard(standby, 1)) {
                assertThat(single(s0, "SELECT GROUP_CONCAT(id ORDER BY id) FROM probe.t")).isEqualTo("10");
                assertThat(single(s1, "SELECT GROUP_CONCAT(id ORDER BY id) FROM probe.t")).isEqualTo("1");
            }
            StandbyReport report = standby.replication().report();
            assertThat(report.role()).isEqualTo(HostRole.PRIMARY);
            assertThat(report.epoch()).isEqualTo(2);
            CleaveHome promoted = standby.home();
            assertThatThrownBy(() -> AdminClient.connect(promoted).orElseThrow().promote())
                    .as("a second promotion").isInstanceOfSatisfying(AdminClient.DaemonAnswer.class,
                            e -> assertThat(e.status()).isEqualTo(409)).hasMessageContaining("already the primary (epoch 2)");
            // The promoted home's shards restart writable: the config's replica options are overridden.
            assertThat(Files.readString(Path.of(seeded(standby)).resolve("etc").resolve("shard-0.cnf")))
                    .contains("read_only = OFF");
        } finally {
            if (up != null) {
                up.destroyForcibly();
            }
            for (Connection c : held) {
                try {
                    c.close();
                } catch (SQLException e) {
                    // its server is gone
                }
            }
            if (standby != null) {
                standby.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * XA branches prepared on the primary's shards as a dying proxy leaves them, acknowledged by the standby:
     * {@code cleave:0:promote-commit} on both shards with its decision row on coordinator shard 0, and
     * {@code cleave:0:promote-rollback} on shard 1 without one. Their connections stay open until the host dies.
     */
    private static List<Connection> holdPrepared(CleaveTestHome a) throws Exception {
        java.util.ArrayList<Connection> held = new java.util.ArrayList<>();
        for (int s = 0; s < 2; s++) {
            try (Connection c = JarPrimary.shard(a, s)) {
                run(c, "CREATE DATABASE probe");
                run(c, "CREATE TABLE probe.t (id INT PRIMARY KEY)");
            }
        }
        held.add(JarPrimary.prepare(JarPrimary.shard(a, 0), "cleave:0:promote-commit", 10));
        held.add(JarPrimary.prepare(JarPrimary.shard(a, 1), "cleave:0:promote-commit", 1));
        held.add(JarPrimary.prepare(JarPrimary.shard(a, 1), "cleave:0:promote-rollback", 2));
        try (Connection c = JarPrimary.shard(a, 0)) {
            run(c, "INSERT INTO cleave.decisions (xid, shards) VALUES ('cleave:0:promote-commit', '0,1')");
        }
        return held;
    }

    private static Connection viaStandbyPort(String listen) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + listen + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=3000", "root", "");
    }

    /** The standby learns where the primary's proxy listens at its first asking (every 2 s). */
    private static Connection awaitRelayed(String listen) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return viaStandbyPort(listen);
            } catch (SQLException e) {
                assertThat(System.nanoTime()).as("the standby's port relays within 30 s: " + e.getMessage())
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static String seeded(Daemon daemon) {
        return daemon.home().root().toString();
    }
}
