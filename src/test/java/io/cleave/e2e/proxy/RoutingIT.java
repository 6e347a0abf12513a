package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.cleave.e2e.support.QueryRows.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Single-shard routing against two real shards, checked on the shards themselves: a sharded
 * table (hash on id) and one co-located with it, a reference table, an unsharded table, and
 * the statements that must behave as on one server. Rows planted directly on the wrong shard
 * ("shadows", which the proxy must never read) show that a statement went to exactly one shard.
 */
@ServerMatrix
class RoutingIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;
    /** Which shard holds each account id, read from the shards. */
    private static final List<Set<Long>> onShard = List.of(new TreeSet<>(), new TreeSet<>());

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml("""
                sharding:
                  keyspaces:
                    - { name: acct, function: hash, buckets: 16, key_type: integer }
                  tables:
                    - { name: accounts, keyspace: acct, column: id }
                    - { name: orders, keyspace: acct, column: account_id }
                    - { name: countries, type: reference }
                    - { name: settings, type: unsharded, shard: 1 }
                """).create();
        daemon = home.start();
        try (Connection c = proxy(""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app");
            st.execute("USE app");
            st.execute("CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(40))");
            st.execute("CREATE TABLE orders (account_id BIGINT, seq INT, amount INT, PRIMARY KEY (account_id, seq))");
            st.execute("CREATE TABLE countries (code CHAR(2) PRIMARY KEY, name VARCHAR(40))");
            st.execute("CREATE TABLE settings (k VARCHAR(20) PRIMARY KEY, v VARCHAR(40))");
            for (long id = 1; id <= 40; id++) {
                st.execute("INSERT INTO accounts (id, owner) VALUES (" + id + ", 'owner " + id + "')");
                st.execute("INSERT INTO orders (account_id, seq, amount) VALUES (" + id + ", 1, " + id * 10 + "), (" + id
                        + ", 2, " + id * 20 + ")");
            }
            st.execute("INSERT INTO countries VALUES ('CH', 'Switzerland'), ('FR', 'France')");
            st.execute("INSERT INTO settings VALUES ('mode', 'fast')");
        }
        for (int shard = 0; shard < 2; shard++) {
            try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id FROM app.accounts")) {
                while (rs.next()) {
                    onShard.get(shard).add(rs.getLong(1));
                }
            }
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

    private static Connection proxy(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort() + "/" + database
                + "?sslMode=DISABLED", "root", "");
    }

    private static void direct(int shard, String sql) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void rowsAreSplitAcrossBothShardsWithoutOverlap() {
        assertThat(onShard.get(0)).isNotEmpty();
        assertThat(onShard.get(1)).isNotEmpty();
        Set<Long> all = new HashSet<>(onShard.get(0));
        all.addAll(onShard.get(1));
        assertThat(all).hasSize(40);
        assertThat(onShard.get(0)).doesNotContainAnyElementsOf(onShard.get(1));
    }

    @Test
    void keyEqualityAndSameShardInListsReadExactlyTheirShard() throws Exception {
        for (int shard = 0; shard < 2; shard++) {
            List<Long> ids = new ArrayList<>(onShard.get(shard)).subList(0, 2);
            int other = 1 - shard;
            for (long id : ids) {
                direct(other, "INSERT INTO app.accounts VALUES (" + id + ", 'shadow')");
            }
            try (Connection c = proxy("app")) {
                for (long id : ids) {
                    assertThat(column(c, "SELECT owner FROM accounts WHERE id = " + id)).containsExactly("owner " + id);
                    assertThat(column(c, "SELECT SUM(amount) FROM orders o JOIN accounts a ON a.id = o.account_id"
                            + " WHERE a.id = " + id)).containsExactly(Long.toString(id * 30));
                }
                assertThat(column(c, "SELECT owner FROM accounts WHERE id IN (" + ids.get(0) + ", " + ids.get(1)
                        + ") ORDER BY id")).containsExactly("owner " + ids.get(0), "owner " + ids.get(1));
                try (PreparedStatement ps = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                        + "/app?sslMode=DISABLED&useServerPrepStmts=true", "root", "")
                        .prepareStatement("SELECT owner FROM accounts WHERE id IN (?, ?)")) {
                    ps.setLong(1, ids.get(0));
                    ps.setLong(2, ids.get(1));
                    List<String> owners = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            owners.add(rs.getString(1));
                        }
                    }
                    assertThat(owners).containsExactlyInAnyOrder("owner " + ids.get(0), "owner " + ids.get(1));
                    ps.getConnection().close();
                }
                // An update by key changes its shard's row only.
                try (Statement st = c.createStatement()) {
                    assertThat(st.executeUpdate("UPDATE accounts SET owner = 'renamed' WHERE id = " + ids.get(0)))
                            .isEqualTo(1);
                }
            }
            try (Connection c = daemon.connect(other); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT owner FROM app.accounts WHERE id = " + ids.get(0))) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("shadow");
            }
            for (long id : ids) {
                direct(other, "DELETE FROM app.accounts WHERE id = " + id);
            }
            try (Connection c = proxy("app"); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE accounts SET owner = 'owner " + ids.get(0) + "' WHERE id = " + ids.get(0));
            }
        }
    }

    @Test
    void referenceTableIsWrittenEverywhereAndReadFromTheShardInUse() throws Exception {
        for (int shard = 0; shard < 2; shard++) {
            try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM app.countries")) {
                rs.next();
                assertThat(rs.getInt(1)).as("shard %d has the reference rows", shard).isEqualTo(2);
            }
        }
        // Make the copies tell which shard answered.
        direct(0, "INSERT INTO app.countries VALUES ('ZZ', 'shard zero')");
        direct(1, "INSERT INTO app.countries VALUES ('ZZ', 'shard one')");
        try (Connection c = proxy("app")) {
            for (int shard = 0; shard < 2; shard++) {
                long id = onShard.get(shard).iterator().next();
                c.setAutoCommit(false);
                assertThat(column(c, "SELECT owner FROM accounts WHERE id = " + id)).hasSize(1);
                for (int i = 0; i < 4; i++) {
                    assertThat(column(c, "SELECT name FROM countries WHERE code = 'ZZ'"))
                            .containsExactly(shard == 0 ? "shard zero" : "shard one");
                }
                c.commit();
                c.setAutoCommit(true);
            }
        } finally {
            direct(0, "DELETE FROM app.countries WHERE code = 'ZZ'");
            direct(1, "DELETE FROM app.countries WHERE code = 'ZZ'");
        }
    }

    @Test
    void unshardedTableLivesOnItsHomeShard() throws Exception {
        try (Connection c = proxy("app")) {
            assertThat(column(c, "SELECT v FROM settings WHERE k = 'mode'")).containsExactly("fast");
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO settings VALUES ('size', 'large')");
            }
        }
        try (Connection c = daemon.connect(1); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM app.settings")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }
        try (Connection c = daemon.connect(0); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM app.settings")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }

    @Test
    void sessionAndServerStatementsBehaveAsOnOneServer() throws Exception {
        try (Connection p = proxy(""); Connection s = daemon.connect(0)) {
            TreeSet<String> onTheShard = new TreeSet<>(column(s, "SHOW DATABASES"));
            // Cleave's own schema is on every shard and hidden from clients.
            assertThat(onTheShard.remove("cleave")).isTrue();
            assertThat(new TreeSet<>(column(p, "SHOW DATABASES"))).isEqualTo(onTheShard);
            assertThat(column(p, "SELECT @@version")).isEqualTo(column(s, "SELECT @@version"));
            assertThat(column(p, "SELECT @@version_comment")).isEqualTo(column(s, "SELECT @@version_comment"));
            try (Statement st = p.createStatement()) {
                st.execute("USE app");
                st.execute("SET @@session.sql_mode = 'ANSI_QUOTES,NO_ZERO_DATE', @marker = 17");
            }
            try (Statement st = s.createStatement()) {
                st.execute("USE app");
            }
            assertThat(column(p, "SHOW TABLES")).isEqualTo(column(s, "SHOW TABLES"))
                    .containsExactly("accounts", "countries", "orders", "settings");
            assertThat(column(p, "SHOW FULL TABLES LIKE 'acc%'")).isEqualTo(column(s, "SHOW FULL TABLES LIKE 'acc%'"));
            for (int i = 0; i < 3; i++) {
                assertThat(column(p, "SELECT CONCAT(@@sql_mode, '/', @marker, '/', DATABASE())"))
                        .containsExactly("ANSI_QUOTES,NO_ZERO_DATE/17/app");
            }
            assertThat(column(p, "SHOW VARIABLES LIKE 'sql_mode'")).containsExactly("sql_mode");
            try (Statement st = p.createStatement()) {
                // Dropped on every shard while current: the session has no schema any more, as on one server.
                st.execute("CREATE DATABASE doomed");
                st.execute("USE doomed");
                st.execute("DROP DATABASE doomed");
            }
            for (int i = 0; i < 3; i++) {
                assertThat(column(p, "SELECT IFNULL(DATABASE(), 'none')")).containsExactly("none");
            }
            try (Statement st = p.createStatement()) {
                st.execute("USE app");
            }
            assertThat(column(p, "SELECT \"owner\" FROM accounts WHERE id = 1")).hasSize(1);
        }
    }

    @Test
    void metricsDescribeTheTraffic() throws Exception {
        try (Connection c = proxy("app"); Statement st = c.createStatement()) {
            st.executeQuery("SELECT owner FROM accounts WHERE id = 3").close();
            st.executeQuery("SELECT COUNT(*) FROM accounts").close();
            st.execute("CREATE TABLE scratch (x INT)");
            st.execute("DROP TABLE scratch");
            try (Connection prepared = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                    + "/app?sslMode=DISABLED&useServerPrepStmts=true", "root", "");
                 PreparedStatement ps = prepared.prepareStatement("SELECT owner FROM accounts WHERE id = ?")) {
                ps.setLong(1, 5);
                ps.executeQuery().close();
            }
            try {
                st.execute("SELECT * FROM no_such_table");
            } catch (SQLException expected) {
                assertThat(expected.getErrorCode()).isEqualTo(1146);
            }
            String m = daemon.admin("GET", "/metrics", false).body();
            assertThat(value(m, "cleave_proxy_queries_total{command=\"query\",route=\"single_shard\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_queries_total{command=\"query\",route=\"multi_shard\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_queries_total{command=\"query\",route=\"broadcast\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_queries_total{command=\"query\",route=\"local\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_queries_total{command=\"stmt_execute\",route=\"single_shard\"}")).isPositive();
            for (int shard = 0; shard < 2; shard++) {
                assertThat(value(m, "cleave_proxy_shard_latency_seconds_count{shard=\"" + shard + "\"}")).isPositive();
                assertThat(m).containsPattern("cleave_proxy_shard_latency_seconds_bucket\\{shard=\"" + shard
                        + "\",le=\"[0-9.E-]+\"} [1-9]");
                for (String state : List.of("in_use", "idle", "waiting")) {
                    assertThat(value(m, "cleave_proxy_backend_connections{shard=\"" + shard + "\",state=\"" + state
                            + "\"}")).as(state).isNotNegative();
                }
            }
            assertThat(value(m, "cleave_proxy_backend_connections{shard=\"0\",state=\"idle\"}")
                    + value(m, "cleave_proxy_backend_connections{shard=\"1\",state=\"idle\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_errors_total{code=\"1146\"}")).isPositive();
            assertThat(value(m, "cleave_proxy_client_connections")).isGreaterThanOrEqualTo(1);
        }
    }

    private static double value(String metrics, String series) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1));
            }
        }
        throw new AssertionError("no " + series + " in /metrics");
    }
}
