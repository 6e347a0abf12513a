package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TwoShardItems;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.proxy.transport.Transport;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy with {@code proxy.transport: io_uring}: clients over TCP, TLS and the proxy's Unix
 * socket, the proxy reaching both shards over their Unix sockets, all on io_uring's event loops.
 * Skipped, with the kernel's reason, where io_uring cannot run.
 */
class IoUringTransportIT {

    private static final AtomicReference<CleaveProxyService> proxy = new AtomicReference<>();
    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws SQLException {
        Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring cannot run here: " + IoUring.unavailabilityCause());
        home = CleaveTestHome.builder().shards(2).extraYaml(TwoShardItems.SHARDING).proxyOption("transport", "io_uring")
                .proxy(context -> {
                    CleaveProxyService service = new CleaveProxyService(context);
                    proxy.set(service);
                    return service;
                })
                .create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE ring");
            st.execute("CREATE TABLE ring.items (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(2000))");
        }
    }

    @AfterAll
    static void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    void theProxyRunsOnIoUring() {
        assertThat(proxy.get().server().transport()).isEqualTo(Transport.IO_URING);
    }

    @Test
    void statementsOverTcpReachBothShards() throws Exception {
        try (Connection c = daemon.connectProxy("ring", ""); Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("INSERT INTO items VALUES (1, 10, 'one'), (150, 20, 'one fifty')")).isEqualTo(2);
            assertThat(st.executeUpdate("UPDATE items SET v = v + 1 WHERE id = 150")).isEqualTo(1);
            try (ResultSet rs = st.executeQuery("SELECT id, v FROM items WHERE id IN (1, 150) ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getInt(2)).isEqualTo(10);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(150);
                assertThat(rs.getInt(2)).isEqualTo(21);
                assertThat(rs.next()).isFalse();
            }
        }
        assertThat(daemon.querySocket(0, "SELECT s FROM ring.items WHERE id = 1")).isEqualTo("one");
        assertThat(daemon.querySocket(1, "SELECT s FROM ring.items WHERE id = 150")).isEqualTo("one fifty");
    }

    @Test
    void aTlsClientIsServed() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                + "/ring?sslMode=REQUIRED&allowPublicKeyRetrieval=true", "root", "");
             Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO items VALUES (2, 30, 'two over tls')");
            try (ResultSet rs = st.executeQuery("SELECT s FROM items WHERE id = 2")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("two over tls");
            }
            try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE 'Ssl_version'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).startsWith("TLSv1.");
            }
        }
    }

    @Test
    void statementsOverTheProxysUnixSocket() throws Exception {
        assertThat(daemon.queryProxySocket("INSERT INTO ring.items VALUES (3, 40, 'three'), (160, 50, 'one sixty');"
                + " SELECT id, s FROM ring.items WHERE id IN (3, 160) ORDER BY id"))
                .isEqualTo("3\tthree\n160\tone sixty");
    }
}
