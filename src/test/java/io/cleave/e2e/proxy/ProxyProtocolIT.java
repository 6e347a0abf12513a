package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.config.HostPort;
import io.cleave.manager.standby.relay.PrimaryProxyRelay;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A relay in front of the proxy that passes each client's address on with a PROXY protocol header, as HAProxy's
 * {@code send-proxy-v2} does (here the standby's relay, which writes the same version 2 header), with {@code
 * proxy.proxy_protocol_networks} listing the relay's address and {@code proxy_protocol_required} on: real shards,
 * real account host matching.
 */
class ProxyProtocolIT {

    @Test
    void theProxyTakesTheClientsAddressFromATrustedRelayAndRefusesItsPeerWithoutAHeader() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(1)
                .proxyOption("proxy_protocol_networks", "\"127.0.0.1\"").proxyOption("proxy_protocol_required", true)
                .create();
             RunningDaemon daemon = home.start()) {
            // A trusted peer that sends no header is refused, saying why.
            assertThatThrownBy(() -> connect(daemon.proxyPort(), null, "root", "").close())
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1130))
                    .hasMessageContaining("proxy.proxy_protocol_required is on, but sent no PROXY protocol header");

            PrimaryProxyRelay relay = new PrimaryProxyRelay(new HostPort("127.0.0.1", CleaveTestHome.freePort()));
            relay.start();
            try {
                relay.target(new HostPort("127.0.0.1", daemon.proxyPort()));
                int port = Integer.parseInt(relay.report().listen().split(":")[1]);
                try (Connection root = connect(port, null, "root", "")) {
                    run(root, "CREATE DATABASE app");
                    run(root, "CREATE USER 'near'@'127.0.0.7' IDENTIFIED BY 'near-secret'");
                    run(root, "GRANT ALL ON app.* TO 'near'@'127.0.0.7'");
                }
                // The account matches the client's own address, which only the header tells the proxy.
                try (Connection near = connect(port, "127.0.0.7", "near", "near-secret")) {
                    run(near, "CREATE TABLE app.t (id INT PRIMARY KEY)");
                    run(near, "INSERT INTO app.t VALUES (1)");
                    // One shard: the process list is the shard's, where the proxy logged the client in with its own
                    // PROXY header naming the same address (the account depends on it).
                    assertThat(ownHost(near)).startsWith("127.0.0.7");
                }
                assertThatThrownBy(() -> connect(port, "127.0.0.8", "near", "near-secret").close())
                        .as("the same account from another address").isInstanceOfSatisfying(SQLException.class,
                                e -> assertThat(e.getErrorCode()).isEqualTo(1045));
            } finally {
                relay.close();
            }
        }
    }

    private static Connection connect(int port, String from, String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true" + (from == null ? "" : "&localSocketAddress=" + from), user, password);
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String ownHost(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW PROCESSLIST")) {
            while (rs.next()) {
                if ("SHOW PROCESSLIST".equals(rs.getString("Info"))) {
                    return rs.getString("Host");
                }
            }
        }
        throw new AssertionError("no session of the process list runs SHOW PROCESSLIST");
    }
}
