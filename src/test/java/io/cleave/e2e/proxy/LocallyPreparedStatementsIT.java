package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements the proxy runs itself (transaction control, SET, LAST_INSERT_ID()) prepared with
 * COM_STMT_PREPARE: drivers and sysbench prepare BEGIN and COMMIT, and must get a statement id
 * back, not an error that sends them to the text protocol.
 */
class LocallyPreparedStatementsIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml("""
                sharding:
                  keyspaces:
                    - { name: ids, function: hash, buckets: 16, key_type: integer }
                  tables:
                    - { name: things, keyspace: ids, column: id }
                """).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app");
            st.execute("CREATE TABLE app.things (id BIGINT PRIMARY KEY, note VARCHAR(20))");
            st.execute("CREATE TABLE app.log (seq BIGINT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20))");
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
    void beginAndRollbackPreparedOnTheWireEndTheTransaction() throws Exception {
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            long begin = prepare(c, "BEGIN", 0, 0);
            long rollback = prepare(c, "ROLLBACK", 0, 0);
            assertThat(begin).isNotEqualTo(rollback);

            byte[] ok = c.command(execute(begin));
            assertThat(RawMysqlClient.isOk(ok)).as(RawMysqlClient.describe(ok)).isTrue();
            assertThat(status(ok) & 1).as("IN_TRANS after the prepared BEGIN").isEqualTo(1);
            assertThat(RawMysqlClient.isOk(c.query("INSERT INTO things (id, note) VALUES (7, 'gone')"))).isTrue();
            byte[] done = c.command(execute(rollback));
            assertThat(RawMysqlClient.isOk(done)).as(RawMysqlClient.describe(done)).isTrue();
            assertThat(status(done) & 1).as("no transaction after the prepared ROLLBACK").isZero();
            assertThat(c.queryRows("SELECT COUNT(*) FROM things WHERE id = 7")).containsExactly(java.util.List.of("0"));
            // Executing again works: the statement stays prepared.
            assertThat(status(c.command(execute(begin))) & 1).isEqualTo(1);
            assertThat(status(c.command(execute(rollback))) & 1).isZero();
        }
    }

    @Test
    void lastInsertIdPreparedAnnouncesItsColumnAndAnswersInBinary() throws Exception {
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            assertThat(RawMysqlClient.isOk(c.query("INSERT INTO log (what) VALUES ('x')"))).isTrue();
            long expected = Long.parseLong(c.queryRows("SELECT LAST_INSERT_ID()").get(0).get(0));
            assertThat(expected).isPositive();
            long id = prepare(c, "SELECT LAST_INSERT_ID()", 1, 0);
            byte[] count = c.command(execute(id));
            assertThat(count).as("one column").containsExactly(1);
            c.readPacket(); // column definition
            assertThat(RawMysqlClient.isEof(c.readPacket())).isTrue();
            byte[] row = c.readPacket();
            // Binary row: 0x00 header, NULL bitmap (1 byte for one column), then an 8-byte LONGLONG.
            assertThat(row[0]).isZero();
            assertThat(ByteBuffer.wrap(row, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()).isEqualTo(expected);
            assertThat(RawMysqlClient.isEof(c.readPacket())).isTrue();
        }
    }

    @Test
    void driversPrepareTransactionControlAndSetServerSide() throws Exception {
        double before = metric("cleave_proxy_queries_total{command=\"stmt_prepare\",route=\"local\"}");
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + daemon.proxyPort()
                + "/app?sslMode=disable&useServerPrepStmts=true", "root", "")) {
            try (PreparedStatement set = c.prepareStatement("SET @limit = ?")) {
                set.setInt(1, 42);
                set.execute();
            }
            try (PreparedStatement begin = c.prepareStatement("START TRANSACTION");
                 PreparedStatement insert = c.prepareStatement("INSERT INTO things (id, note) VALUES (?, ?)");
                 PreparedStatement commit = c.prepareStatement("COMMIT")) {
                begin.execute();
                for (long id = 100; id < 104; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "kept");
                    insert.executeUpdate();
                }
                commit.execute();
            }
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT @limit")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
        // The rows of a transaction spread over both shards were committed on both.
        long kept = 0;
        for (int shard = 0; shard < 2; shard++) {
            try (Connection s = daemon.connect(shard); Statement st = s.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM app.things WHERE note = 'kept'")) {
                rs.next();
                kept += rs.getLong(1);
            }
        }
        assertThat(kept).isEqualTo(4);
        assertThat(metric("cleave_proxy_queries_total{command=\"stmt_prepare\",route=\"local\"}") - before)
                .as("SET, START TRANSACTION and COMMIT were prepared by the proxy, not refused").isGreaterThanOrEqualTo(3);
    }

    /** COM_STMT_PREPARE; checks the PREPARE_OK and its definitions; returns the statement id. */
    private static long prepare(RawMysqlClient c, String sql, int columns, int params) throws Exception {
        byte[] payload = RawMysqlClient.concat(new byte[] {0x16}, sql.getBytes(StandardCharsets.UTF_8));
        byte[] ok = c.command(payload);
        assertThat(ok[0]).as("PREPARE_OK for %s: %s", sql, RawMysqlClient.describe(ok)).isZero();
        ByteBuffer b = ByteBuffer.wrap(ok).order(ByteOrder.LITTLE_ENDIAN);
        long id = b.getInt(1) & 0xffffffffL;
        assertThat(b.getShort(5) & 0xffff).as("columns").isEqualTo(columns);
        assertThat(b.getShort(7) & 0xffff).as("parameters").isEqualTo(params);
        for (int i = 0; i < params; i++) {
            c.readPacket();
        }
        if (params > 0) {
            assertThat(RawMysqlClient.isEof(c.readPacket())).isTrue();
        }
        for (int i = 0; i < columns; i++) {
            c.readPacket();
        }
        if (columns > 0) {
            assertThat(RawMysqlClient.isEof(c.readPacket())).isTrue();
        }
        return id;
    }

    /** COM_STMT_EXECUTE of a statement without parameters, no cursor. */
    private static byte[] execute(long id) {
        return ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0x17).putInt((int) id)
                .put((byte) 0).putInt(1).array();
    }

    /** Status flags of an OK packet (after the header, affected rows and insert id, both one byte here). */
    private static int status(byte[] ok) {
        return (ok[3] & 0xff) | (ok[4] & 0xff) << 8;
    }

    private static double metric(String series) throws Exception {
        for (String line : daemon.admin("GET", "/metrics", false).body().split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return 0;
    }
}
