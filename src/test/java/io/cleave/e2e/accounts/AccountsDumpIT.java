package io.cleave.e2e.accounts;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.instance.EmbeddedServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mariadb-dump --system=users} through the proxy of one Cleave, restored through the proxy
 * of another, gives the second the same accounts, roles and grants on every shard: the dump holds
 * what a server's would, without Cleave's shard account.
 */
class AccountsDumpIT {

    private static final List<String> SETUP = List.of(
            "CREATE DATABASE shop",
            "CREATE TABLE shop.t (id INT PRIMARY KEY, name VARCHAR(10))",
            "CREATE ROLE reader",
            "GRANT SELECT ON shop.* TO reader",
            "CREATE ROLE auditor WITH ADMIN CURRENT_USER",
            "GRANT reader TO auditor",
            "CREATE USER 'app'@'%' IDENTIFIED BY 'apw' WITH MAX_USER_CONNECTIONS 10",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'app'@'%'",
            "CREATE USER 'report'@'10.1.%' IDENTIFIED BY 'rpw' ACCOUNT LOCK",
            "GRANT reader TO 'report'@'10.1.%'",
            "GRANT auditor TO 'report'@'10.1.%'",
            "SET DEFAULT ROLE reader FOR 'report'@'10.1.%'",
            "GRANT SELECT (name) ON shop.t TO 'report'@'10.1.%'",
            "GRANT SELECT ON mysql.user TO 'app'@'%'");

    private static final List<String> ACCOUNTS = List.of("'app'@'%'", "'report'@'10.1.%'");
    private static final List<String> ROLES = List.of("reader", "auditor");

    @Test
    void theUsersDumpOfOneCleaveRestoresIntoAnother() throws Exception {
        try (CleaveTestHome homeA = CleaveTestHome.builder().shards(2).create();
             CleaveTestHome homeB = CleaveTestHome.builder().shards(2).create();
             RunningDaemon a = homeA.start(); RunningDaemon b = homeB.start()) {
            try (Connection root = a.connectProxy("", ""); Statement st = root.createStatement()) {
                for (String sql : SETUP) {
                    st.execute(sql);
                }
            }
            Path bin = EmbeddedServer.standard(CleaveHome.cacheDir(System.getenv())).installDir().resolve("bin");
            CommandLine.Result dump = CommandLine.run(List.of(bin.resolve("mariadb-dump").toString(), "--no-defaults",
                    "--skip-ssl", "--protocol=TCP", "-h127.0.0.1", "-P" + a.proxyPort(), "-uroot", "--system=users",
                    "--insert-ignore"), 120);
            assertThat(dump.exitCode()).as(dump.stderr()).isZero();
            assertThat(dump.stdout()).contains("CREATE USER IF NOT EXISTS `app`@`%`").doesNotContain("`cleave`");

            // Column grants name a table: the second Cleave has the schema first, as one restores it first.
            try (Connection root = b.connectProxy("", ""); Statement st = root.createStatement()) {
                st.execute(SETUP.get(0));
                st.execute(SETUP.get(1));
            }
            Path file = homeB.home().root().resolve("users.sql");
            Files.writeString(file, dump.stdout());
            CommandLine.Result restore = CommandLine.run(List.of("/bin/sh", "-c", bin.resolve("mariadb") + " --no-defaults"
                    + " --skip-ssl --protocol=TCP -h127.0.0.1 -P" + b.proxyPort() + " -uroot < " + file), 120);
            assertThat(restore.exitCode()).as(restore.output()).isZero();

            List<String> expected = grants(a, 0);
            assertThat(expected).isNotEmpty();
            for (int shard = 0; shard < 2; shard++) {
                assertThat(grants(b, shard)).as("shard " + shard + " of the second Cleave").isEqualTo(expected);
            }
            try (Connection app = java.sql.DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + b.proxyPort()
                    + "/?sslMode=DISABLED", "app", "apw"); Statement st = app.createStatement();
                 ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("app@%");
            }
        }
    }

    /** Each account's and role's SHOW CREATE USER and SHOW GRANTS on one shard of a Cleave, as the shard account reads them. */
    private static List<String> grants(RunningDaemon cleave, int shard) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cleave.connect(shard); Statement st = c.createStatement()) {
            for (String account : ACCOUNTS) {
                out.addAll(rows(st, "SHOW CREATE USER " + account));
                out.addAll(rows(st, "SHOW GRANTS FOR " + account));
            }
            for (String role : ROLES) {
                out.addAll(rows(st, "SHOW GRANTS FOR " + role));
            }
        }
        // The password hashes are the same: the dump carries them, never a password.
        return out;
    }

    private static List<String> rows(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
