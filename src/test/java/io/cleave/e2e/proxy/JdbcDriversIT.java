package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * mysql-connector-j (server-side prepared statements on and off, statement cache on) and MariaDB
 * Connector/J (server-side prepared statements on and off) against two shards: a table sharded
 * by id and an unsharded one. Each driver setup works in its own key range, so they share a daemon.
 */
@ServerMatrix
class JdbcDriversIT {

    /** A driver and its URL options; {@code keys} is the first id this setup writes. */
    record Setup(String name, String scheme, String options, long keys) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Setup> setups() {
        return Stream.of(
                new Setup("connector-j client-side", "mysql", "useServerPrepStmts=false", 1_000),
                new Setup("connector-j server-side", "mysql", "useServerPrepStmts=true", 2_000),
                new Setup("connector-j server-side cached", "mysql",
                        "useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=50", 3_000),
                new Setup("connector-j client-side cached", "mysql", "useServerPrepStmts=false&cachePrepStmts=true", 4_000),
                new Setup("mariadb client-side", "mariadb", "useServerPrepStmts=false", 5_000),
                new Setup("mariadb server-side", "mariadb", "useServerPrepStmts=true", 6_000));
    }

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml("""
                sharding:
                  keyspaces:
                    - { name: items, function: hash, buckets: 16, key_type: integer }
                  tables:
                    - { name: items, keyspace: items, column: id }
                    - { name: journal, type: unsharded, shard: 1 }
                    - { name: journal_cursor, type: unsharded, shard: 1 }
                """).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app CHARACTER SET utf8mb4");
            st.execute("USE app");
            st.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, name VARCHAR(100), price DECIMAL(12,2),"
                    + " ratio DOUBLE, born DATE, seen DATETIME(6), flag BOOLEAN, data BLOB, note TEXT)");
            st.execute("CREATE TABLE journal (seq BIGINT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(100))");
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

    private static Connection open(Setup s) throws SQLException {
        String tls = s.scheme().equals("mysql") ? "sslMode=DISABLED" : "sslMode=disable";
        return DriverManager.getConnection("jdbc:" + s.scheme() + "://127.0.0.1:" + daemon.proxyPort() + "/app?" + tls
                + "&" + s.options(), "root", "");
    }

    /**
     * A DATETIME(6) value as this driver carries it to and from one server directly (a shard):
     * MySQL Connector/J sends no fractional seconds to a server whose version it reads as older
     * than 5.6.4, and it reads MariaDB 10's "5.5.5-10.11..." as 5.5.5. The proxy must keep
     * exactly what the driver sends.
     */
    private static LocalDateTime directRoundTrip(Setup s, LocalDateTime value) throws SQLException {
        var shard = daemon.shards().get(0);
        String tls = s.scheme().equals("mysql") ? "sslMode=DISABLED&allowPublicKeyRetrieval=true" : "sslMode=disable";
        try (Connection c = DriverManager.getConnection("jdbc:" + s.scheme() + "://127.0.0.1:" + shard.port() + "/?" + tls
                + "&" + s.options(), shard.user(), shard.secret());
             PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS DATETIME(6))")) {
            ps.setTimestamp(1, Timestamp.valueOf(value));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getTimestamp(1).toLocalDateTime();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void typesRoundTripThroughPreparedStatements(Setup s) throws Exception {
        LocalDateTime seen = directRoundTrip(s, LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000));
        if (s.scheme().equals("mariadb")) {
            assertThat(seen.getNano()).as("MariaDB Connector/J sends microseconds to every MariaDB").isEqualTo(123_456_000);
        }
        byte[] data = new byte[3000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        try (Connection c = open(s)) {
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO items (id, name, price, ratio, born, seen, flag, data, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < 20; i++) {
                    insert.setLong(1, s.keys() + i);
                    insert.setString(2, "näme ✓ " + i + " 'quoted' \\ back");
                    insert.setBigDecimal(3, new BigDecimal("1234567.89").add(BigDecimal.valueOf(i)));
                    insert.setDouble(4, i / 3.0);
                    insert.setObject(5, LocalDate.of(2000, 1, 1).plusDays(i));
                    insert.setTimestamp(6, Timestamp.valueOf(seen.plusSeconds(i)));
                    insert.setBoolean(7, i % 2 == 0);
                    insert.setBytes(8, data);
                    if (i % 5 == 0) {
                        insert.setNull(9, java.sql.Types.VARCHAR);
                    } else {
                        insert.setString(9, "note " + i);
                    }
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT id, name, price, ratio, born, seen, flag, data, note FROM items WHERE id = ?")) {
                for (int i = 0; i < 20; i++) {
                    select.setLong(1, s.keys() + i);
                    try (ResultSet rs = select.executeQuery()) {
                        assertThat(rs.next()).as("row %d", i).isTrue();
                        assertThat(rs.getLong(1)).isEqualTo(s.keys() + i);
                        assertThat(rs.getString(2)).isEqualTo("näme ✓ " + i + " 'quoted' \\ back");
                        assertThat(rs.getBigDecimal(3)).isEqualByComparingTo(new BigDecimal("1234567.89").add(BigDecimal.valueOf(i)));
                        assertThat(rs.getDouble(4)).isEqualTo(i / 3.0);
                        assertThat(rs.getObject(5, LocalDate.class)).isEqualTo(LocalDate.of(2000, 1, 1).plusDays(i));
                        assertThat(rs.getTimestamp(6).toLocalDateTime()).isEqualTo(seen.plusSeconds(i));
                        assertThat(rs.getBoolean(7)).isEqualTo(i % 2 == 0);
                        assertThat(rs.getBytes(8)).isEqualTo(data);
                        assertThat(rs.getString(9)).isEqualTo(i % 5 == 0 ? null : "note " + i);
                        assertThat(rs.next()).isFalse();
                    }
                }
            }
            try (PreparedStatement in = c.prepareStatement("SELECT COUNT(*), SUM(price) FROM items WHERE id IN (?, ?, ?)")) {
                in.setLong(1, s.keys());
                in.setLong(2, s.keys() + 1);
                in.setLong(3, s.keys() + 2);
                try (ResultSet rs = in.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                    assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(new BigDecimal("3703706.67"));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void batchesGeneratedKeysAndTransactions(Setup s) throws Exception {
        try (Connection c = open(s)) {
            List<Long> keys = new ArrayList<>();
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO journal (what) VALUES (?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                for (int i = 0; i < 3; i++) {
                    insert.setString(1, s.name() + " " + i);
                    insert.executeUpdate();
                    try (ResultSet rs = insert.getGeneratedKeys()) {
                        assertThat(rs.next()).isTrue();
                        keys.add(rs.getLong(1));
                    }
                }
            }
            assertThat(keys).doesNotHaveDuplicates().isSorted();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT what FROM journal WHERE seq = LAST_INSERT_ID()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(s.name() + " 2");
            }

            try (PreparedStatement batch = c.prepareStatement("INSERT INTO items (id, name) VALUES (?, ?)")) {
                for (int i = 100; i < 110; i++) {
                    batch.setLong(1, s.keys() + i);
                    batch.setString(2, "batch " + i);
                    batch.addBatch();
                }
                int[] counts = batch.executeBatch();
                assertThat(counts).hasSize(10);
                for (int n : counts) {
                    assertThat(n == 1 || n == Statement.SUCCESS_NO_INFO).as("batch count %d", n).isTrue();
                }
            }
            assertThat(count(c, "SELECT COUNT(*) FROM items WHERE id BETWEEN " + (s.keys() + 100) + " AND " + (s.keys() + 109)))
                    .isEqualTo(10);

            c.setAutoCommit(false);
            try (PreparedStatement update = c.prepareStatement("UPDATE items SET name = ? WHERE id = ?")) {
                update.setString(1, "rolled back");
                update.setLong(2, s.keys() + 100);
                assertThat(update.executeUpdate()).isEqualTo(1);
                c.rollback();
                update.setString(1, "committed");
                update.setLong(2, s.keys() + 101);
                assertThat(update.executeUpdate()).isEqualTo(1);
                c.commit();
            }
            c.setAutoCommit(true);
            try (PreparedStatement select = c.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                select.setLong(1, s.keys() + 100);
                assertThat(single(select)).isEqualTo("batch 100");
                select.setLong(1, s.keys() + 101);
                assertThat(single(select)).isEqualTo("committed");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void errorsLeaveTheConnectionUsable(Setup s) throws Exception {
        try (Connection c = open(s)) {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO items (id, name) VALUES (?, ?)")) {
                insert.setLong(1, s.keys() + 200);
                insert.setString(2, "once");
                insert.executeUpdate();
                assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1062);
                    assertThat(e.getSQLState()).isEqualTo("23000");
                });
                insert.setLong(1, s.keys() + 201);
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement batch = c.prepareStatement("INSERT INTO items (id, name) VALUES (?, ?)")) {
                batch.setLong(1, s.keys() + 202);
                batch.setString(2, "new");
                batch.addBatch();
                batch.setLong(1, s.keys() + 200);
                batch.setString(2, "duplicate");
                batch.addBatch();
                assertThatThrownBy(batch::executeBatch).isInstanceOf(BatchUpdateException.class);
            }
            try (Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.execute("SELEKT 1")).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(1064));
                assertThat(count(c, "SELECT COUNT(*) FROM items WHERE id IN (" + (s.keys() + 200) + ", "
                        + (s.keys() + 201) + ", " + (s.keys() + 202) + ")")).isEqualTo(3);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void catalogAndMetadataFollowTheSession(Setup s) throws Exception {
        try (Connection c = open(s)) {
            assertThat(c.getCatalog()).isEqualTo("app");
            assertThat(c.getMetaData().getDatabaseProductVersion()).contains("MariaDB");
            try (ResultSet rs = c.getMetaData().getColumns("app", null, "items", "price")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TYPE_NAME")).isEqualToIgnoringCase("DECIMAL");
            }
            c.setCatalog("information_schema");
            assertThat(c.getCatalog()).isEqualTo("information_schema");
            assertThat(string(c, "SELECT DATABASE() AS db, 1")).isEqualTo("information_schema");
            try (Statement st = c.createStatement()) {
                st.execute("USE app");
            }
            assertThat(string(c, "SELECT DATABASE() AS db, 1")).isEqualTo("app");
            if (s.scheme().equals("mariadb")) {
                // This driver follows USE through the schema the server reports in session state changes.
                assertThat(c.getCatalog()).isEqualTo("app");
            }
            assertThat(count(c, "SELECT COUNT(*) FROM items WHERE id = " + s.keys())).isBetween(0L, 1L);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            c.setReadOnly(true);
            assertThat(c.isReadOnly()).isTrue();
            c.setReadOnly(false);
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void cursorFetchReadsInBatchesAndReleasesTheConnection() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                + "/app?sslMode=DISABLED&useServerPrepStmts=true&useCursorFetch=true", "root", "")) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS journal_cursor (n INT PRIMARY KEY, label VARCHAR(20))");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO journal_cursor VALUES (?, ?)")) {
                for (int n = 1; n <= 50; n++) {
                    insert.setInt(1, n);
                    insert.setString(2, "row " + n);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            long fetchesBefore = shardStatus(1, "Com_stmt_fetch");
            for (int round = 0; round < 2; round++) {
                try (PreparedStatement select = c.prepareStatement(
                        "SELECT n, label FROM journal_cursor WHERE n > ? ORDER BY n")) {
                    select.setFetchSize(7);
                    select.setInt(1, round * 10);
                    List<Integer> seen = new ArrayList<>();
                    try (ResultSet rs = select.executeQuery();
                         PreparedStatement other = c.prepareStatement("SELECT label FROM journal_cursor WHERE n = ?")) {
                        while (rs.next()) {
                            seen.add(rs.getInt(1));
                            assertThat(rs.getString(2)).isEqualTo("row " + rs.getInt(1));
                            if (seen.size() % 10 == 0) {
                                // Other statements run on the same connection while the cursor is open.
                                other.setInt(1, 50);
                                assertThat(single(other)).isEqualTo("row 50");
                            }
                        }
                    }
                    assertThat(seen).hasSize(50 - round * 10).isSorted().startsWith(round * 10 + 1);
                }
            }
            // 50 and 40 rows by 7: the shard served them from a cursor, batch by batch.
            assertThat(shardStatus(1, "Com_stmt_fetch") - fetchesBefore).isGreaterThanOrEqualTo(8 + 6);
            // A statement whose rows come from both shards is merged and sent whole, without a cursor.
            try (PreparedStatement merged = c.prepareStatement("SELECT COUNT(*) FROM items WHERE id >= ?")) {
                merged.setFetchSize(3);
                merged.setLong(1, 0);
                try (ResultSet rs = merged.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isGreaterThanOrEqualTo(0);
                }
            }
            // The cursor's connection went back to the pool with its last row.
            String metrics = daemon.admin("GET", "/metrics", false).body();
            assertThat(metrics).contains("cleave_proxy_backend_connections{shard=\"1\",state=\"in_use\"} 0.0");
        }
    }

    private static long shardStatus(int shard, String variable) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(2);
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String string(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    private static String single(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
