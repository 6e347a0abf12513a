package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Logins to the proxy with accounts of the shards' grant tables (proxy.users creates them at the
 * first start): mysql_native_password with both drivers, with and without TLS, an auth switch when
 * the client starts with caching_sha2_password, the command-line client, COM_CHANGE_USER, wrong
 * passwords, and an account whose plugin the proxy cannot log in to the shards with.
 */
@ServerMatrix
class AuthIT {

    /** Every account's password is "secret" ('cleave hash-password'); "both" has both hashes (MariaDB stores the first). */
    private static final String USERS = """
              users:
                - name: root
                  password: ""
                - name: nat
                  mysql_native_password: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
                - name: both
                  mysql_native_password: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
                  caching_sha2_password: "$A$005$Jk1zmYek5ZLnhxen0m/XX3cyKIX2qCeNI/6YAAtR06BemTtm6IV0HPE4HCCnv.D"
            """;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() {
        home = CleaveTestHome.builder().shards(1).proxyUsers(USERS).create();
        daemon = home.start();
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

    private static Connection mysql(String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort() + "/?" + options, user, password);
    }

    private static Connection mariadb(String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + daemon.proxyPort() + "/?" + options, user,
                password);
    }

    private static void assertWorks(Connection c) throws SQLException {
        try (c; Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 6 * 7")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }

    private static void assertDenied(ThrowingLogin login, String user) {
        assertThatThrownBy(login::open).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1045);
            assertThat(e.getSQLState()).isEqualTo("28000");
            assertThat(e.getMessage()).contains("Access denied for user '" + user + "'");
        });
    }

    interface ThrowingLogin {
        Connection open() throws SQLException;
    }

    @Test
    void nativePasswordWithBothDrivers() throws Exception {
        assertWorks(mysql("nat", "secret", "sslMode=DISABLED"));
        assertWorks(mysql("nat", "secret", "sslMode=REQUIRED"));
        assertWorks(mariadb("nat", "secret", "sslMode=disable"));
        assertWorks(mysql("both", "secret", "sslMode=DISABLED&defaultAuthenticationPlugin=mysql_native_password"));
    }

    @Test
    void aClientStartingWithCachingSha2IsSwitchedToTheAccountsPlugin() throws Exception {
        assertWorks(mysql("both", "secret", "sslMode=DISABLED&defaultAuthenticationPlugin=caching_sha2_password"));
        assertWorks(mysql("nat", "secret", "sslMode=REQUIRED&defaultAuthenticationPlugin=caching_sha2_password"));
        assertDenied(() -> mysql("nat", "Secret", "sslMode=DISABLED&defaultAuthenticationPlugin=caching_sha2_password"),
                "nat");
    }

    @Test
    void anAccountWhosePluginTheProxyCannotRelayIsRefusedNamingIt() throws Exception {
        try (Connection root = mysql("root", "", "sslMode=DISABLED"); Statement st = root.createStatement()) {
            st.execute("CREATE USER 'socket'@'%' IDENTIFIED VIA unix_socket");
        }
        assertThatThrownBy(() -> mysql("socket", "", "sslMode=DISABLED").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getMessage()).contains("unix_socket").contains("mysql_native_password");
                });
    }

    @Test
    void commandLineClientWithBothPlugins() throws Exception {
        for (List<String> tls : List.of(List.of("--skip-ssl"), List.of("--ssl"))) {
            for (String user : List.of("nat", "both")) {
                CommandLine.Result r = CommandLine.mariadb(daemon.proxyPort(), user, "secret", tls, "SELECT 6 * 7 AS answer");
                assertThat(r.exitCode()).as(user + " " + tls + ": " + r.output()).isZero();
                assertThat(r.stdout()).isEqualTo("answer\n42\n");
            }
        }
        CommandLine.Result denied = CommandLine.mariadb(daemon.proxyPort(), "nat", "nope", List.of("--skip-ssl"), "SELECT 1");
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.stderr()).contains("ERROR 1045 (28000): Access denied for user 'nat'@'127.0.0.1' (using password: YES)");
    }

    @Test
    void wrongPasswordsAreDeniedAndCounted() throws Exception {
        double failuresBefore = metric("cleave_proxy_auth_failures_total");
        double deniedBefore = metric("cleave_proxy_errors_total{code=\"1045\"}");
        assertDenied(() -> mysql("nat", "wrong", "sslMode=DISABLED"), "nat");
        assertDenied(() -> mariadb("nat", "", "sslMode=disable"), "nat");
        assertDenied(() -> mysql("nobody", "secret", "sslMode=DISABLED"), "nobody");
        assertDenied(() -> mysql("root", "not-empty", "sslMode=DISABLED"), "root");
        assertThat(metric("cleave_proxy_auth_failures_total") - failuresBefore).isEqualTo(4);
        assertThat(metric("cleave_proxy_errors_total{code=\"1045\"}") - deniedBefore).isEqualTo(4);
        // The proxy keeps serving everyone else.
        assertWorks(mysql("nat", "secret", "sslMode=DISABLED"));
    }

    @Test
    void changeUserThroughConnectorJ() throws Exception {
        try (Connection c = mysql("nat", "secret", "sslMode=REQUIRED")) {
            try (Statement st = c.createStatement()) {
                st.execute("SET @mark = 'before'");
            }
            ((com.mysql.cj.jdbc.JdbcConnection) c).changeUser("both", "secret");
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @mark IS NULL, 1")) {
                rs.next();
                assertThat(rs.getBoolean(1)).as("session state is reset by COM_CHANGE_USER").isTrue();
            }
            assertThatThrownBy(() -> ((com.mysql.cj.jdbc.JdbcConnection) c).changeUser("both", "wrong"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
        }
    }

    private static double metric(String series) throws Exception {
        String body = daemon.admin("GET", "/metrics", false).body();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
