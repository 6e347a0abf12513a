package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Debian's mariadb command-line client against the proxy, in clear and over TLS. */
@ServerMatrix
class CommandLineClientIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).create();
        daemon = home.start();
        CommandLine.Result setup = mysql(List.of("--default-character-set=utf8mb4"),
                "CREATE DATABASE cli CHARACTER SET utf8mb4; USE cli;"
                + " CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(100));"
                + " INSERT INTO notes VALUES (1, 'first'), (2, 'zweite \\'Notiz\\''), (3, 'ünïcødé ✓');");
        assertThat(setup.exitCode()).as(setup.output()).isZero();
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

    /** What the shards' server calls itself: the proxy shows clients the same. */
    private static String shardVersion() throws Exception {
        try (Connection c = daemon.connect(0); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static CommandLine.Result mysql(List<String> options, String sql) throws Exception {
        return CommandLine.mariadb(daemon.proxyPort(), "root", "", options, sql);
    }

    @Test
    void queriesReadBackWhatTheyWrote() throws Exception {
        CommandLine.Result r = mysql(List.of("--skip-ssl", "--default-character-set=utf8mb4", "cli"),
                "SELECT id, body FROM notes ORDER BY id; SELECT COUNT(*) AS n FROM notes WHERE id IN (1, 3)");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stdout()).isEqualTo("id\tbody\n1\tfirst\n2\tzweite 'Notiz'\n3\tünïcødé ✓\nn\n2\n");
    }

    @Test
    void useShowAndVersionBehaveAsOnOneServer() throws Exception {
        CommandLine.Result r = mysql(List.of("--skip-ssl", "--skip-column-names"),
                "SHOW DATABASES; USE cli; SELECT DATABASE(); SHOW TABLES; SELECT @@version");
        assertThat(r.exitCode()).as(r.output()).isZero();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines).contains("cli", "information_schema", "notes");
        assertThat(lines).containsSubsequence("cli", "notes");
        assertThat(lines.get(lines.size() - 1)).contains("MariaDB");
    }

    @Test
    void statusReportsAPlainConnection() throws Exception {
        CommandLine.Result r = mysql(List.of("--skip-ssl", "cli"), "status");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stdout()).containsPattern("Current database:\\s+cli")
                .containsPattern("SSL:\\s+Not in use")
                .containsPattern("Server version:\\s+" + Pattern.quote(shardVersion()))
                .containsPattern("TCP port:\\s+" + daemon.proxyPort());
    }

    @Test
    void tlsConnectionUsesACipher() throws Exception {
        CommandLine.Result r = mysql(List.of("--ssl", "cli"), "status; SELECT COUNT(*) AS n FROM notes");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stdout()).containsPattern("SSL:\\s+Cipher in use is TLS_AES_\\d+_GCM_SHA\\d+|SSL:\\s+Cipher in use is TLS_CHACHA20")
                .containsPattern("Current database:\\s+cli")
                .contains("n\n3\n");
    }

    @Test
    void tls12WithAChosenCipher() throws Exception {
        CommandLine.Result r = mysql(List.of("--ssl", "--ssl-cipher=ECDHE-RSA-AES256-GCM-SHA384", "--tls-version=TLSv1.2"),
                "status");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.stdout()).containsPattern("SSL:\\s+Cipher in use is ECDHE-RSA-AES256-GCM-SHA384");
    }

    @Test
    void errorsAreReportedWithCodeAndState() throws Exception {
        CommandLine.Result r = mysql(List.of("--skip-ssl", "cli"), "SELECT * FROM no_such_table");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("ERROR 1146 (42S02)").contains("no_such_table");
        CommandLine.Result after = mysql(List.of("--skip-ssl", "--skip-column-names", "cli"), "SELECT body FROM notes WHERE id = 1");
        assertThat(after.stdout()).isEqualTo("first\n");
    }
}
