package io.cleave.e2e.standby;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.SwitchoverReport;
import io.cleave.manager.standby.SwitchoverRequest;
import io.cleave.proxy.tls.SelfSignedCertificate;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pair with {@code server.replication_tls: required}, on loopback: the primary's shards offer a certificate of the
 * home's own, the replication account logs in over TLS only, and the standby's replicas verify the certificate the
 * attach handed over. A shard presenting another certificate (what a host in the middle would offer) is refused,
 * and status says why in words; after a switchover the old primary's replicas verify the new primary's certificate,
 * which the take-over handed back.
 */
class ReplicationTlsIT {

    private static final int SHARDS = 1;

    @Test
    void replicasLogInOverTlsVerifyThePrimarysCertificateAndRefuseAnother() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-repl-tls-", StandbyIT.SEARCHABLE);
        Daemon b = null;
        try (CleaveTestHome home = CleaveTestHome.builder().shards(SHARDS).adminPort(CleaveTestHome.freePort())
                .serverSetting("replication_tls", "required").serverOption("log_slave_updates", "ON").create();
             RunningDaemon a = home.start()) {
            try (Connection c = a.connect(0)) {
                run(c, "CREATE DATABASE probe");
                run(c, "CREATE TABLE probe.t (id INT PRIMARY KEY)");
                assertThat(single(c, "SELECT @@have_ssl")).as("the primary's shard offers TLS").isEqualTo("YES");
            }
            String aUrl = "http://127.0.0.1:" + a.adminPort();
            StandbyConfig addresses = StandbyIT.freeAddresses(SHARDS);
            b = StandbyIT.seedAndAwaitSemiSync(aUrl, a.adminToken(), work, addresses, SHARDS);
            CleaveHome bHome = b.home();

            StandbyReport replicas = b.replication().report();
            assertThat(replicas.shards()).allSatisfy(r -> assertThat(r.tls()).as("shard %d's replica", r.shard())
                    .isEqualTo("verified"));
            try (Connection c = shard(b, 0); java.sql.Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("Master_SSL_Allowed")).as("the server's own word").isEqualTo("Yes");
                assertThat(rs.getString("Master_SSL_Verify_Server_Cert")).isEqualTo("Yes");
            }
            assertThat(b.meterRegistry().scrape()).containsPattern("cleave_standby_replica_tls\\{shard=\"0\",?\\} 1\\.0");

            // The replication account logs in over TLS only: in clear its password is refused, over TLS it is taken.
            ShardEndpoint primaryShard = a.shards().get(0);
            String password = Files.readString(a.daemon().home().state().resolve("replication-secret")).trim();
            try (Connection c = a.connect(0)) {
                assertThat(single(c, "SELECT ssl_type FROM mysql.user WHERE user = 'cleave_repl'")).isEqualTo("ANY");
            }
            assertThatThrownBy(() -> DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + primaryShard.port()
                    + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", "cleave_repl", password).close())
                    .isInstanceOf(SQLException.class).hasMessageContaining("Access denied");
            DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + primaryShard.port()
                    + "/?sslMode=REQUIRED&allowPublicKeyRetrieval=true", "cleave_repl", password).close();

            try (Connection c = a.connect(0)) {
                run(c, "INSERT INTO probe.t VALUES (1)");
            }
            awaitRow(b, 1);

            // A replica set to connect in clear (as a pair that turned TLS on runs from before): the primary refuses its
            // login, and the standby's daemon sets it back to verified TLS at its next asking (every 2 s).
            try (Connection c = shard(b, 0)) {
                run(c, "STOP SLAVE");
                run(c, "CHANGE MASTER TO MASTER_SSL = 0, MASTER_SSL_VERIFY_SERVER_CERT = 0");
                run(c, "START SLAVE");
            }
            await(b, r -> r.shards().stream().anyMatch(s -> !s.replicating() && "off".equals(s.tls())),
                    "the replica in clear is refused");
            await(b, r -> r.shards().stream().allMatch(s -> s.replicating() && "verified".equals(s.tls())),
                    "the standby's daemon links the replica over TLS again");

            // The primary's shard presents another certificate (as a host in the middle would): the replica refuses it.
            CleaveHome aHome = a.daemon().home();
            Path cert = aHome.shardTlsCertificate();
            Path key = aHome.shardTlsKey();
            Path keep = work.resolve("kept");
            Files.createDirectories(keep);
            Files.copy(cert, keep.resolve("cert.pem"));
            Files.copy(key, keep.resolve("key.pem"));
            Path other = work.resolve("other");
            SelfSignedCertificate.create(other.resolve("cert.pem"), other.resolve("key.pem"), "impostor",
                    List.of("localhost", "127.0.0.1"));
            // Written into the files the server reads, keeping their owner (the shards' OS user) and modes.
            Files.write(cert, Files.readAllBytes(other.resolve("cert.pem")));
            Files.write(key, Files.readAllBytes(other.resolve("key.pem")));
            try (Connection c = a.connect(0)) {
                run(c, "FLUSH LOCAL SSL"); // not binlogged: it would wait for the refused replica
            }
            try (Connection c = shard(b, 0)) {
                run(c, "STOP SLAVE");
                run(c, "START SLAVE");
            }
            StandbyReport refused = await(b, r -> r.shards().stream().anyMatch(s -> !s.replicating()
                    && s.lastError() != null && s.lastError().contains("TLS")), "the replica refuses the other certificate");
            ShardReplication broken = refused.shards().get(0);
            System.out.println("ReplicationTlsIT: " + broken.lastError());
            assertThat(broken.ioThread()).isNotEqualTo("Yes");
            assertThat(broken.lastError()).contains("TLS to the primary's shard failed")
                    .contains("its certificate is not the one this home holds for it");

            // The shard's own certificate again: the replica connects and catches up.
            Files.write(cert, Files.readAllBytes(keep.resolve("cert.pem")));
            Files.write(key, Files.readAllBytes(keep.resolve("key.pem")));
            try (Connection c = a.connect(0)) {
                run(c, "FLUSH LOCAL SSL"); // not binlogged: it would wait for the refused replica
            }
            await(b, r -> r.shards().stream().allMatch(ShardReplication::replicating), "the replica runs again");
            try (Connection c = a.connect(0)) {
                run(c, "INSERT INTO probe.t VALUES (2)");
            }
            awaitRow(b, 2);

            // A switchover: the old primary's replicas verify the new primary's certificate, handed back at the take-over.
            String bUrl = "http://127.0.0.1:" + addresses.adminPort();
            String bToken = Files.readString(bHome.adminTokenFile()).trim();
            SwitchoverReport there = AdminClient.remote(aUrl, a.adminToken())
                    .switchover(new SwitchoverRequest(bUrl, bToken, 0, 0, 0));
            assertThat(there.primary()).isEqualTo(bUrl);
            StandbyReport reversed = await(a.daemon(), r -> r.role() == HostRole.STANDBY && r.shards().size() == SHARDS
                    && r.shards().stream().allMatch(ShardReplication::replicating), "the old primary replicates B");
            assertThat(reversed.shards()).allSatisfy(r -> assertThat(r.tls()).isEqualTo("verified"));
            assertThat(Files.readString(aHome.state().resolve("tls/peer-shard-cert.pem")))
                    .as("A verifies B's own certificate").isEqualTo(Files.readString(bHome.state().resolve("tls/shard-cert.pem")))
                    .isNotEqualTo(Files.readString(aHome.state().resolve("tls/shard-cert.pem")));
            try (Connection c = shard(b, 0)) {
                run(c, "INSERT INTO probe.t VALUES (3)");
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try (Connection c = a.connect(0)) {
                    if ("1".equals(single(c, "SELECT COUNT(*) FROM probe.t WHERE id = 3"))) {
                        break;
                    }
                }
                assertThat(System.nanoTime()).as("B's write reaches A within 30 s").isLessThan(deadline);
                Thread.sleep(50);
            }
        } finally {
            if (b != null) {
                b.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    private static void awaitRow(Daemon standby, int id) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (Connection c = shard(standby, 0)) {
                if ("1".equals(single(c, "SELECT COUNT(*) FROM probe.t WHERE id = " + id))) {
                    return;
                }
            }
            assertThat(System.nanoTime()).as("row %d replicated within 30 s", id).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
