package io.cleave.e2e.standby;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static io.cleave.e2e.standby.StandbyIT.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of a pair's proxy ports from an address of its own, 127.0.0.7, with an account that may log in from there
 * only: through a standby's relay it logs in to the primary's proxy only when that proxy takes its address from the
 * relay's PROXY header (the relay itself connects from 127.0.0.1).
 */
final class RelayedClients {

    static final String ADDRESS = "127.0.0.7";
    private static final String USER = "near";
    private static final String PASSWORD = "near-secret";

    private RelayedClients() {
    }

    /** The account, made through the primary's proxy (every shard, and the standby by replication). */
    static void createAccount(Connection primaryProxy) {
        run(primaryProxy, "CREATE USER '" + USER + "'@'" + ADDRESS + "' IDENTIFIED BY '" + PASSWORD + "'");
        run(primaryProxy, "GRANT ALL ON bank.* TO '" + USER + "'@'" + ADDRESS + "'");
    }

    static Connection connect(int port) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true&connectTimeout=3000&localSocketAddress=" + ADDRESS, USER, PASSWORD);
    }

    /** Connects through a standby's port once it relays (it learns where the primary's proxy is within 2 s). */
    static Connection awaitRelayed(int port) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return connect(port);
            } catch (SQLException e) {
                assertThat(System.nanoTime()).as("the standby's port relays within 30 s: " + e.getMessage())
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    /** The Host column the proxy shows for this connection's own session ({@code address:port}). */
    static String ownHost(Connection c) throws SQLException {
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
