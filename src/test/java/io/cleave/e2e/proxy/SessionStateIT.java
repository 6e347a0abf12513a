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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Session state over multiplexed backend connections: the proxy keeps two backend connections
 * to the shard, and clients taking turns one statement at a time all land on the same one (the
 * pool hands out the most recently returned), so each statement finds the previous client's
 * settings there and the proxy must bring its own. Connection-bound state (temporary tables,
 * named locks, LOCK TABLES, SQL PREPARE) keeps its connection until it is gone.
 */
@ServerMatrix
class SessionStateIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(1).proxyOption("max_backend_connections_per_shard", 2).create();
        daemon = home.start();
        try (Connection c = open(""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app");
            st.execute("CREATE DATABASE other");
            st.execute("CREATE TABLE app.items (id INT PRIMARY KEY, name VARCHAR(20))");
            st.execute("CREATE TABLE app.audit (id INT PRIMARY KEY)");
            st.execute("INSERT INTO app.items VALUES (1, 'one'), (2, 'two')");
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

    private static Connection open(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort() + "/" + database
                + "?sslMode=DISABLED&useServerPrepStmts=false", "root", "");
    }

    private static List<String> row(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.add(rs.getString(i));
            }
            return values;
        }
    }

    private static void exec(Connection c, String... sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    // tx_isolation: MariaDB before 11.1 has no transaction_isolation; later ones keep the old name too.
    private static final String STATE = "SELECT DATABASE(), @@character_set_client, @@collation_connection, @@sql_mode,"
            + " @@time_zone, @@tx_isolation, @v, @@autocommit";

    @Test
    void eachClientKeepsItsOwnSettingsOnASharedConnection() throws Exception {
        try (Connection a = open("app"); Connection b = open("other"); Connection c = open("")) {
            exec(a, "SET NAMES latin1 COLLATE latin1_bin", "SET sql_mode = 'ANSI_QUOTES'", "SET time_zone = '+05:00'",
                    "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SET @v = 'from a'");
            exec(b, "SET NAMES utf8mb4", "SET sql_mode = 'NO_ENGINE_SUBSTITUTION'", "SET time_zone = '-03:00'",
                    "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", "SET @v = 'from b'", "SET autocommit = 0");
            List<String> aState = Arrays.asList("app", "latin1", "latin1_bin", "ANSI_QUOTES", "+05:00", "SERIALIZABLE",
                    "from a", "1");
            List<String> bState = Arrays.asList("other", "utf8mb4", "utf8mb4_general_ci", "NO_ENGINE_SUBSTITUTION",
                    "-03:00", "READ-COMMITTED", "from b", "0");
            List<String> cDefault = row(c, STATE);
            assertThat(cDefault.get(0)).as("a client that chose no database has none").isNull();
            for (int round = 0; round < 5; round++) {
                assertThat(row(a, STATE)).isEqualTo(aState);
                assertThat(row(b, STATE)).isEqualTo(bState);
                assertThat(row(c, STATE)).isEqualTo(cDefault);
                exec(a, "SET @v = 'from a'");
            }
            assertThat(row(a, "SELECT \"name\" FROM items WHERE id = 1")).containsExactly("one");
            assertThat(row(b, "SELECT COUNT(*) FROM app.items")).containsExactly("2");
            exec(b, "COMMIT");
        }
    }

    /**
     * FOUND_ROWS() and ROW_COUNT() are the session's, as on one server, even when another client's
     * statement ran on the backend connection in between (the pool lends the connection given back
     * last, so b's statements run where a's ran) and when they stand inside larger expressions.
     */
    @Test
    void foundRowsAndRowCountAreTheSessionsOwnInEveryExpression() throws Exception {
        // useLocalSessionState: Connector/J otherwise reads @@transaction_read_only before each
        // write, a SELECT that sets ROW_COUNT() to -1 on one server as through the proxy.
        try (Connection a = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                + "/app?sslMode=DISABLED&useServerPrepStmts=false&useLocalSessionState=true", "root", "");
             Connection b = open("app")) {
            exec(a, "CREATE TABLE counted_rows (id INT PRIMARY KEY, v INT)");
            StringBuilder values = new StringBuilder();
            for (int i = 1; i <= 30; i++) {
                values.append(i == 1 ? "" : ", ").append("(").append(i).append(", 0)");
            }
            exec(a, "INSERT INTO counted_rows VALUES " + values);

            row(a, "SELECT SQL_CALC_FOUND_ROWS id FROM counted_rows ORDER BY id LIMIT 5");
            row(b, "SELECT id FROM counted_rows WHERE id <= 2");
            assertThat(row(a, "SELECT FOUND_ROWS()")).as("the rows a's SELECT would have found without LIMIT")
                    .containsExactly("30");
            row(a, "SELECT SQL_CALC_FOUND_ROWS id FROM counted_rows WHERE id > 10 LIMIT 3");
            row(b, "SELECT id FROM counted_rows WHERE id <= 2");
            assertThat(row(a, "SELECT FOUND_ROWS() + 0, FOUND_ROWS() > 10, 'x'")).containsExactly("20", "1", "x");
            row(a, "SELECT id FROM counted_rows WHERE id <= 4");
            exec(b, "UPDATE counted_rows SET v = v + 1 WHERE id <= 7");
            assertThat(row(a, "SELECT FOUND_ROWS() AS found")).as("a plain SELECT's rows").containsExactly("4");
            exec(a, "UPDATE counted_rows SET v = 1 WHERE id > 27");
            assertThat(row(a, "SELECT FOUND_ROWS()")).as("an UPDATE leaves FOUND_ROWS() alone").containsExactly("1");

            exec(a, "UPDATE counted_rows SET v = v + 1 WHERE id <= 3");
            exec(b, "UPDATE counted_rows SET v = v + 1 WHERE id <= 9");
            assertThat(row(a, "SELECT ROW_COUNT() * 10, 'y'")).containsExactly("30", "y");
            exec(a, "DELETE FROM counted_rows WHERE id = 30");
            exec(b, "UPDATE counted_rows SET v = v + 1 WHERE id <= 9");
            exec(a, "INSERT INTO counted_rows VALUES (100, ROW_COUNT())");
            assertThat(row(a, "SELECT v FROM counted_rows WHERE id = 100")).as("the DELETE's count").containsExactly("1");
            assertThat(row(a, "SELECT 'ROW_COUNT()', `v` AS row_count FROM counted_rows WHERE id = 100"))
                    .as("the name in a string or as an alias is no call").containsExactly("ROW_COUNT()", "1");
            try (Connection prepared = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                    + "/app?sslMode=DISABLED&useServerPrepStmts=true&emulateUnsupportedPstmts=false", "root", "")) {
                assertThatThrownBy(() -> prepared.prepareStatement("SELECT ROW_COUNT() + ?"))
                        .as("prepared on the server: refused, never answered with another client's count")
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1235));
                try (java.sql.PreparedStatement alone = prepared.prepareStatement("SELECT FOUND_ROWS()")) {
                    row(prepared, "SELECT id FROM counted_rows WHERE id <= 3");
                    try (ResultSet rs = alone.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).as("alone, the proxy answers it").isEqualTo(3);
                    }
                }
            }
            exec(a, "DROP TABLE counted_rows");
        }
    }

    @Test
    void autoIncrementCountsByOneUnlessTheClientChoseItsStep() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            exec(a, "CREATE TABLE counted (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
                    "CREATE TABLE counted_after (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
            exec(b, "SET SESSION auto_increment_increment = 5");
            a.setAutoCommit(false);
            exec(a, "INSERT INTO counted (v) VALUES (1)", "UPDATE counted SET v = 2 WHERE id = 1",
                    "INSERT INTO counted (v) VALUES (3)");
            a.commit();
            a.setAutoCommit(true);
            exec(b, "INSERT INTO counted (v) VALUES (4)");
            // A fresh table: InnoDB moved counted's next id by b's step when b inserted.
            exec(a, "INSERT INTO counted_after (v) VALUES (5)", "INSERT INTO counted_after (v) VALUES (6)");
            assertThat(row(a, "SELECT GROUP_CONCAT(id ORDER BY id), @@auto_increment_increment FROM counted"))
                    .as("a counts by one, b by the 5 it chose, on the connection they share")
                    .containsExactly("1,2,6", "1");
            assertThat(row(a, "SELECT GROUP_CONCAT(id ORDER BY id) FROM counted_after")).containsExactly("1,2");
        }
    }

    @Test
    void userVariablesAssignedInsideStatementsFollowTheClient() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            assertThat(row(a, "SELECT @n := 5")).containsExactly("5");
            exec(b, "SET @n = 'b', @p = 'b'");
            assertThat(row(a, "SELECT @n + 1")).containsExactly("6");
            exec(a, "SELECT name, id INTO @p, @`q q` FROM items WHERE id = 2");
            assertThat(row(b, "SELECT @p, @n")).containsExactly("b", "b");
            assertThat(row(a, "SELECT @p, @`q q`, @n")).containsExactly("two", "2", "5");
            assertThat(row(a, "SELECT COUNT(*) FROM (SELECT @r := id FROM items ORDER BY id) t")).containsExactly("2");
            exec(b, "SET @r = NULL");
            assertThat(row(a, "SELECT @r")).containsExactly("2");
        }
    }

    @Test
    void aClientWithoutDatabaseNeverSeesAnotherClientsSchema() throws Exception {
        try (Connection a = open("app")) {
            exec(a, "USE app");
            assertThat(row(a, "SELECT DATABASE(), 1")).containsExactly("app", "1");
        }
        try (Connection none = open("")) {
            assertThat(row(none, "SELECT DATABASE(), USER() IS NOT NULL")).containsExactly(null, "1");
            assertThatThrownBy(() -> row(none, "SELECT * FROM items")).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1046));
            exec(none, "USE other");
            assertThat(row(none, "SELECT DATABASE(), 2")).containsExactly("other", "2");
        }
        CommandLine.Result cli = CommandLine.mariadb(daemon.proxyPort(), "root", "", List.of("--skip-ssl"), "status");
        assertThat(cli.exitCode()).as(cli.output()).isZero();
        assertThat(cli.stdout()).containsPattern("Current database:\\s*\\n");
    }

    @Test
    void droppingTheCurrentDatabaseLeavesTheClientWithoutOne() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            exec(a, "CREATE DATABASE doomed", "USE doomed", "DROP DATABASE doomed");
            assertThat(row(a, "SELECT DATABASE(), 1")).containsExactly(null, "1");
            assertThat(row(a, "SELECT COUNT(*) FROM app.items")).containsExactly("2");
            assertThat(row(b, "SELECT DATABASE(), COUNT(*) FROM items")).containsExactly("app", "2");
            assertThat(row(a, "SELECT DATABASE(), 2")).containsExactly(null, "2");
        }
    }

    @Test
    void settingsHoldUnderConcurrentClientsQueuedOnTwoConnections() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int id = t;
                runs.add(pool.submit(() -> {
                    try (Connection c = open(id % 2 == 0 ? "app" : "other")) {
                        String zone = String.format("+%02d:00", id);
                        exec(c, "SET time_zone = '" + zone + "'", "SET @v = " + id,
                                "SET sql_mode = '" + (id % 3 == 0 ? "ANSI_QUOTES" : "STRICT_ALL_TABLES") + "'");
                        for (int i = 0; i < 40; i++) {
                            List<String> r = row(c, "SELECT DATABASE(), @@time_zone, @v, @@sql_mode");
                            assertThat(r).containsExactly(id % 2 == 0 ? "app" : "other", zone, Integer.toString(id),
                                    id % 3 == 0 ? "ANSI_QUOTES" : "STRICT_ALL_TABLES");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : runs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void temporaryTablePinsItsConnectionUntilDropped() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            exec(a, "CREATE TEMPORARY TABLE scratch (x INT)", "INSERT INTO scratch VALUES (1)");
            assertInUse(1);
            for (int i = 2; i <= 4; i++) {
                assertThatThrownBy(() -> row(b, "SELECT COUNT(*) FROM scratch")).isInstanceOfSatisfying(
                        SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
                exec(b, "SET @other = 1");
                exec(a, "INSERT INTO scratch VALUES (" + i + ")");
            }
            assertThat(row(a, "SELECT COUNT(*), SUM(x) FROM scratch")).containsExactly("4", "10");
            exec(a, "CREATE TEMPORARY TABLE scratch2 (y INT)", "DROP TEMPORARY TABLE scratch");
            assertInUse(1, "scratch2 still holds the connection");
            exec(a, "DROP TEMPORARY TABLE scratch2");
            assertInUse(0);
        }
    }

    @Test
    void namedLockPinsItsConnectionUntilReleased() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            assertThat(row(a, "SELECT GET_LOCK('job', 0)")).containsExactly("1");
            assertThat(row(a, "SELECT GET_LOCK('job', 0)")).as("held again by its owner").containsExactly("1");
            assertInUse(1);
            assertThat(row(b, "SELECT GET_LOCK('job', 0)")).as("another session cannot take it").containsExactly("0");
            assertThat(row(a, "SELECT IS_USED_LOCK('job') IS NOT NULL, 1")).containsExactly("1", "1");
            assertThat(row(a, "SELECT RELEASE_LOCK('job')")).containsExactly("1");
            assertInUse(1, "taken twice, released once");
            assertThat(row(b, "SELECT GET_LOCK('job', 0)")).containsExactly("0");
            assertThat(row(a, "SELECT RELEASE_LOCK('job')")).containsExactly("1");
            assertInUse(0);
            assertThat(row(b, "SELECT GET_LOCK('job', 0)")).containsExactly("1");
            assertThat(row(b, "SELECT RELEASE_ALL_LOCKS()")).containsExactly("1");
            assertInUse(0);
        }
    }

    @Test
    void lockTablesPinsItsConnectionUntilUnlocked() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            exec(a, "LOCK TABLES items READ");
            assertInUse(1);
            assertThat(row(a, "SELECT COUNT(*) FROM items")).containsExactly("2");
            // Only the locking connection refuses tables it did not lock.
            assertThatThrownBy(() -> exec(a, "INSERT INTO audit VALUES (1)")).isInstanceOfSatisfying(
                    SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1100));
            exec(b, "INSERT INTO audit VALUES (1)");
            assertThat(row(b, "SELECT COUNT(*) FROM items")).containsExactly("2");
            exec(a, "UNLOCK TABLES");
            assertInUse(0);
            exec(a, "INSERT INTO audit VALUES (2)");
            exec(a, "DELETE FROM audit");
        }
    }

    @Test
    void sqlPreparePinsItsConnectionUntilDeallocated() throws Exception {
        try (Connection a = open("app"); Connection b = open("app")) {
            exec(a, "PREPARE plus_one FROM 'SELECT ? + 1'", "SET @a = 41");
            assertInUse(1);
            assertThatThrownBy(() -> exec(b, "EXECUTE plus_one USING @a")).isInstanceOfSatisfying(
                    SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1243));
            exec(b, "SET @a = 1");
            assertThat(row(a, "EXECUTE plus_one USING @a")).containsExactly("42");
            exec(a, "DEALLOCATE PREPARE plus_one");
            assertInUse(0);
        }
    }

    /**
     * Asserts how many backend connections to the shard are lent out between statements (the
     * pinned ones). A statement's answer reaches the client before the proxy has finished with its
     * connection (a GET_LOCK's ownership is read back after the answer went out), so the count is
     * polled until it settles, for up to 10 s; a connection that stays lent fails the test.
     */
    private static void assertInUse(long expected, String... description) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long seen = inUse();
        while (seen != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            seen = inUse();
        }
        assertThat(seen).as(description.length > 0 ? description[0] : "backend connections in use").isEqualTo(expected);
    }

    /** Backend connections to the shard lent out right now. */
    private static long inUse() throws Exception {
        String body = daemon.admin("GET", "/metrics", false).body();
        Matcher m = Pattern.compile("cleave_proxy_backend_connections\\{shard=\"0\",state=\"in_use\"} ([0-9.]+)")
                .matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return (long) Double.parseDouble(m.group(1));
    }
}
