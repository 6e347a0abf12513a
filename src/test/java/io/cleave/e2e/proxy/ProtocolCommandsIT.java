package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.cleave.e2e.support.RawMysqlClient.concat;
import static io.cleave.e2e.support.RawMysqlClient.describe;
import static io.cleave.e2e.support.RawMysqlClient.errorCode;
import static io.cleave.e2e.support.RawMysqlClient.isEof;
import static io.cleave.e2e.support.RawMysqlClient.isErr;
import static io.cleave.e2e.support.RawMysqlClient.isOk;
import static io.cleave.e2e.support.RawMysqlClient.sqlState;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client commands of the protocol, sent as raw packets: what drivers send and what they do
 * not (unknown commands, malformed packets, COM_CHANGE_USER, COM_FIELD_LIST).
 */
class ProtocolCommandsIT {

    /** "secret" as a mysql_native_password hash ('cleave hash-password'). */
    static final String USERS = """
              users:
                - name: root
                  password: ""
                - name: nat
                  mysql_native_password: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
            """;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).proxyUsers(USERS).serverOption("max_allowed_packet", "64M").create();
        daemon = home.start();
        try (RawMysqlClient c = root(null)) {
            for (String sql : List.of("CREATE DATABASE app", "CREATE DATABASE other",
                    "CREATE TABLE app.notes (id INT PRIMARY KEY, body VARCHAR(40) NOT NULL, at DATETIME)",
                    "INSERT INTO app.notes VALUES (1, 'one', NULL), (2, 'two', '2024-01-02 03:04:05')",
                    "CREATE TABLE app.blobs (id INT PRIMARY KEY, data LONGBLOB, note LONGTEXT)")) {
                assertThat(describe(c.query(sql))).isEqualTo("OK");
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

    private static RawMysqlClient root(String database) throws Exception {
        return RawMysqlClient.login(daemon.proxyPort(), "root", "", database);
    }

    private static byte[] command(int code, String body) {
        return concat(new byte[] {(byte) code}, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void initDbPingAndStatistics() throws Exception {
        try (RawMysqlClient c = root(null)) {
            assertThat(describe(c.command(command(0x02, "app")))).isEqualTo("OK");
            assertThat(c.queryRows("SELECT DATABASE(), COUNT(*) FROM notes")).containsExactly(List.of("app", "2"));
            byte[] unknown = c.command(command(0x02, "no_such_db"));
            assertThat(errorCode(unknown)).as(describe(unknown)).isEqualTo(1049);
            assertThat(sqlState(unknown)).isEqualTo("42000");
            assertThat(c.queryRows("SELECT DATABASE(), 1")).containsExactly(List.of("app", "1"));
            assertThat(describe(c.command(new byte[] {0x0e}))).isEqualTo("OK");
            byte[] statistics = c.command(new byte[] {0x09});
            assertThat(new String(statistics, StandardCharsets.UTF_8)).startsWith("Uptime: ").contains("Threads: ")
                    .contains("Questions: ");
            assertThat(describe(c.command(new byte[] {0x0e}))).isEqualTo("OK");
        }
    }

    @Test
    void quitClosesTheConnection() throws Exception {
        try (RawMysqlClient c = root("app")) {
            c.writePacket(0, new byte[] {0x01});
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void unknownCommandsAreRefusedAndTheConnectionKeepsWorking() throws Exception {
        try (RawMysqlClient c = root("app")) {
            for (int code : new int[] {0x99, 0x12, 0x00, 0x20}) {
                byte[] reply = c.command(new byte[] {(byte) code, 1, 2, 3});
                assertThat(isErr(reply)).as("command 0x%x: %s", code, describe(reply)).isTrue();
                assertThat(errorCode(reply)).isEqualTo(1047);
                assertThat(sqlState(reply)).isEqualTo("08S01");
                assertThat(c.queryRows("SELECT body FROM notes WHERE id = 1")).containsExactly(List.of("one"));
            }
        }
    }

    @Test
    void comProcessKillEndsAConnectionOfTheProxy() throws Exception {
        try (RawMysqlClient c = root("app"); RawMysqlClient victim = root("app")) {
            long id = Long.parseLong(victim.queryRows("SELECT CONNECTION_ID()").get(0).get(0));
            byte[] unknown = c.command(new byte[] {0x0c, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f});
            assertThat(errorCode(unknown)).as(describe(unknown)).isEqualTo(1094);
            byte[] killed = c.command(new byte[] {0x0c, (byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24)});
            assertThat(describe(killed)).isEqualTo("OK");
            assertThat(c.queryRows("SELECT body FROM notes WHERE id = 1")).containsExactly(List.of("one"));
        }
    }

    @Test
    void malformedPacketsGetAnErrorAndACloseWhileOthersAreServed() throws Exception {
        try (RawMysqlClient bystander = root("app")) {
            List<byte[]> malformed = List.of(
                    new byte[0],                                // no command byte at all
                    new byte[] {0x17, 1, 0},                    // COM_STMT_EXECUTE cut short
                    new byte[] {0x18, 1},                       // COM_STMT_SEND_LONG_DATA without header
                    new byte[] {0x1a},                          // COM_STMT_RESET without an id
                    new byte[] {0x1b, 0});                      // COM_SET_OPTION cut short
            for (byte[] payload : malformed) {
                try (RawMysqlClient c = root("app")) {
                    byte[] reply = c.command(payload);
                    assertThat(isErr(reply)).as("%s answered %s", java.util.Arrays.toString(payload), describe(reply))
                            .isTrue();
                    assertThat(errorCode(reply)).isEqualTo(1835);
                    assertThat(sqlState(reply)).isEqualTo("08S01");
                    assertThat(c.closedByServer()).isTrue();
                }
                assertThat(bystander.queryRows("SELECT COUNT(*) FROM notes")).containsExactly(List.of("2"));
            }
            try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
                // A handshake response that is not one (no protocol 4.1 capability, truncated).
                c.writePacket(1, new byte[] {0, 0, 0});
                byte[] reply = c.readPacket();
                assertThat(errorCode(reply)).as(describe(reply)).isEqualTo(1835);
                assertThat(c.closedByServer()).isTrue();
            }
            try (RawMysqlClient c = root("app")) {
                assertThat(c.queryRows("SELECT body FROM notes WHERE id = 2")).containsExactly(List.of("two"));
            }
            assertThat(bystander.queryRows("SELECT COUNT(*) FROM notes")).containsExactly(List.of("2"));
        }
    }

    @Test
    void preparedStatementLongDataResetAndClose() throws Exception {
        try (RawMysqlClient c = root("app")) {
            byte[] ok = c.command(command(0x16, "SELECT CONCAT(?, '|', ?) AS joined"));
            assertThat(ok[0]).as(describe(ok)).isZero();
            long id = le(ok, 1, 4);
            int columns = (int) le(ok, 5, 2);
            int params = (int) le(ok, 7, 2);
            assertThat(params).isEqualTo(2);
            assertThat(columns).isEqualTo(1);
            skipDefinitions(c, params);
            skipDefinitions(c, columns);

            c.writePacket(0, concat(concat(new byte[] {0x18}, le(id, 4)), concat(le(0, 2), bytes("abc"))));
            c.writePacket(0, concat(concat(new byte[] {0x18}, le(id, 4)), concat(le(1, 2), bytes("xyz"))));
            assertThat(describe(c.command(concat(new byte[] {0x1a}, le(id, 4))))).as("COM_STMT_RESET").isEqualTo("OK");
            c.writePacket(0, concat(concat(new byte[] {0x18}, le(id, 4)), concat(le(0, 2), bytes("long "))));
            c.writePacket(0, concat(concat(new byte[] {0x18}, le(id, 4)), concat(le(0, 2), bytes("data"))));
            // Parameter 0 came as long data (dropped before the reset, so only what followed it);
            // parameter 1 is bound in the execute.
            assertThat(executeText(c, id, null, "bound")).isEqualTo("long data|bound");
            // Long data serves one execute: the next one binds both parameters in its packet.
            assertThat(executeText(c, id, "inline", "again")).isEqualTo("inline|again");

            c.writePacket(0, concat(new byte[] {0x19}, le(id, 4)));
            byte[] closed = c.command(executePacket(id, "x", "y"));
            assertThat(errorCode(closed)).as(describe(closed)).isEqualTo(1243);
            assertThat(c.queryRows("SELECT 'still here'")).containsExactly(List.of("still here"));
        }
    }

    /** Executes a 2-parameter statement; a null {@code first} comes from long data sent before. */
    private static String executeText(RawMysqlClient c, long id, String first, String second) throws Exception {
        byte[] header = c.command(executePacket(id, first, second));
        assertThat(isErr(header)).as(describe(header)).isFalse();
        skipDefinitions(c, header[0]);
        byte[] row = c.readPacket();
        assertThat(row[0]).as("binary row header").isZero();
        int length = row[2] & 0xff;
        String value = new String(row, 3, length, StandardCharsets.UTF_8);
        assertThat(isEof(c.readPacket())).isTrue();
        return value;
    }

    private static byte[] executePacket(long id, String first, String second) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x17);
        b.writeBytes(le(id, 4));
        b.write(0);                     // no cursor
        b.writeBytes(le(1, 4));         // iteration count
        b.write(0);                     // NULL bitmap: none
        b.write(1);                     // new parameters bound
        b.writeBytes(new byte[] {(byte) 0xfe, 0, (byte) 0xfe, 0});
        for (String value : new String[] {first, second}) {
            if (value != null) {
                byte[] v = bytes(value);
                b.write(v.length);
                b.writeBytes(v);
            }
        }
        return b.toByteArray();
    }

    private static void skipDefinitions(RawMysqlClient c, int count) throws Exception {
        if (count == 0) {
            return;
        }
        for (int i = 0; i < count; i++) {
            c.readPacket();
        }
        assertThat(isEof(c.readPacket())).isTrue();
    }

    @Test
    void setOptionTurnsMultiStatementsOffAndOn() throws Exception {
        try (RawMysqlClient c = root("app")) {
            byte[] off = c.command(new byte[] {0x1b, 1, 0});
            assertThat(isEof(off) || isOk(off)).as(describe(off)).isTrue();
            byte[] refused = c.query("SELECT 1; SELECT 2");
            assertThat(errorCode(refused)).as(describe(refused)).isEqualTo(1064);
            assertThat(c.queryRows("SELECT 3")).containsExactly(List.of("3"));

            byte[] on = c.command(new byte[] {0x1b, 0, 0});
            assertThat(isEof(on) || isOk(on)).as(describe(on)).isTrue();
            byte[] first = c.query("SELECT 1 AS a; SELECT 2 AS b");
            assertThat(c.readRows(first[0])).containsExactly(List.of("1"));
            byte[] second = c.readPacket();
            assertThat(c.readRows(second[0])).containsExactly(List.of("2"));

            byte[] bad = c.command(new byte[] {0x1b, 7, 0});
            assertThat(errorCode(bad)).as(describe(bad)).isEqualTo(1047);
        }
    }

    @Test
    void fieldListDescribesATable() throws Exception {
        try (RawMysqlClient c = root("app")) {
            c.writePacket(0, command(0x04, "notes\0"));
            List<String> names = new java.util.ArrayList<>();
            while (true) {
                byte[] p = c.readPacket();
                assertThat(isErr(p)).as(describe(p)).isFalse();
                if (isEof(p)) {
                    break;
                }
                names.add(columnName(p));
            }
            assertThat(names).containsExactly("id", "body", "at");
            byte[] missing = c.command(command(0x04, "no_such_table\0"));
            assertThat(errorCode(missing)).as(describe(missing)).isEqualTo(1146);
            assertThat(c.queryRows("SELECT COUNT(*) FROM notes")).containsExactly(List.of("2"));
        }
    }

    @Test
    void resetConnectionForgetsTheSessionButKeepsTheSchema() throws Exception {
        try (RawMysqlClient c = root("app")) {
            for (String sql : List.of("SET @kept = 'no'", "SET sql_mode = 'ANSI_QUOTES'", "SET NAMES latin1",
                    "CREATE TEMPORARY TABLE scratch (x INT)", "BEGIN", "INSERT INTO notes VALUES (9, 'uncommitted', NULL)")) {
                assertThat(describe(c.query(sql))).as(sql).isEqualTo("OK");
            }
            assertThat(describe(c.command(new byte[] {0x1f}))).isEqualTo("OK");
            assertThat(c.queryRows("SELECT DATABASE(), @kept, @@session.sql_mode = @@global.sql_mode,"
                    + " @@character_set_client, @@autocommit"))
                    .containsExactly(java.util.Arrays.asList("app", null, "1", "utf8mb4", "1"));
            byte[] gone = c.query("SELECT * FROM scratch");
            assertThat(errorCode(gone)).as(describe(gone)).isEqualTo(1146);
            assertThat(c.queryRows("SELECT COUNT(*) FROM notes WHERE id = 9")).containsExactly(List.of("0"));
        }
    }

    @Test
    void changeUserLogsInAgainAndStartsTheSessionOver() throws Exception {
        try (RawMysqlClient c = root("app")) {
            assertThat(describe(c.query("SET @before = 1"))).isEqualTo("OK");
            assertThat(describe(c.query("CREATE TEMPORARY TABLE mine (x INT)"))).isEqualTo("OK");
            byte[] changed = c.changeUser("nat", "secret", "other");
            assertThat(describe(changed)).isEqualTo("OK");
            assertThat(c.queryRows("SELECT DATABASE(), @before, 1")).containsExactly(java.util.Arrays.asList("other", null, "1"));
            assertThat(errorCode(c.query("SELECT * FROM app.mine"))).isEqualTo(1146);
            assertThat(c.queryRows("SELECT body FROM app.notes WHERE id = 2")).containsExactly(List.of("two"));

            byte[] back = c.changeUser("root", "", null);
            assertThat(describe(back)).isEqualTo("OK");
            assertThat(c.queryRows("SELECT DATABASE(), 1")).containsExactly(java.util.Arrays.asList(null, "1"));
        }
        try (RawMysqlClient c = root("app")) {
            byte[] denied = c.changeUser("nat", "wrong", null);
            assertThat(errorCode(denied)).as(describe(denied)).isEqualTo(1045);
            assertThat(sqlState(denied)).isEqualTo("28000");
            assertThat(RawMysqlClient.errorMessage(denied)).contains("'nat'").contains("using password: YES");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    /** About 20 MB: more than one 16 MB packet, in both directions. */
    private static final int LARGE = 20 * 1024 * 1024 + 12345;

    @Test
    void valuesOfTwentyMegabytesThroughTextAndBinaryProtocol() throws Exception {
        byte[] data = new byte[LARGE];
        new java.util.Random(42).nextBytes(data);
        char[] letters = new char[LARGE];
        for (int i = 0; i < letters.length; i++) {
            letters[i] = (char) ('a' + (i * 7 + i / 1000) % 26);
        }
        String text = new String(letters);
        String url = "jdbc:mysql://127.0.0.1:" + daemon.proxyPort() + "/app?sslMode=DISABLED&useServerPrepStmts=";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url + "false", "root", "");
             java.sql.Statement st = c.createStatement()) {
            // Text protocol: the statement itself is over 16 MB.
            st.executeUpdate("INSERT INTO blobs (id, note) VALUES (1, '" + text + "')");
            try (java.sql.ResultSet rs = st.executeQuery("SELECT note, LENGTH(note) FROM blobs WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(2)).isEqualTo(LARGE);
                assertThat(rs.getString(1)).isEqualTo(text);
            }
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url + "true", "root", "")) {
            try (java.sql.PreparedStatement insert = c.prepareStatement("INSERT INTO blobs (id, data) VALUES (?, ?)")) {
                // Binary protocol: the value inline in one COM_STMT_EXECUTE over 16 MB...
                insert.setInt(1, 2);
                insert.setBytes(2, data);
                assertThat(insert.executeUpdate()).isEqualTo(1);
                // ...and streamed in COM_STMT_SEND_LONG_DATA chunks.
                insert.setInt(1, 3);
                insert.setBinaryStream(2, new java.io.ByteArrayInputStream(data), data.length);
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            try (java.sql.PreparedStatement select = c.prepareStatement("SELECT data, LENGTH(data) FROM blobs WHERE id = ?")) {
                for (int id : new int[] {2, 3}) {
                    select.setInt(1, id);
                    try (java.sql.ResultSet rs = select.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(2)).isEqualTo(LARGE);
                        assertThat(java.util.Arrays.equals(rs.getBytes(1), data)).as("row %d reads back intact", id).isTrue();
                    }
                }
            }
        }
        try (java.sql.Connection shard = daemon.connect(0); java.sql.Statement st = shard.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(LENGTH(data)), SUM(LENGTH(note)) FROM app.blobs")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
            assertThat(rs.getLong(2)).isEqualTo(2L * LARGE);
            assertThat(rs.getLong(3)).isEqualTo(LARGE);
        }
    }

    private static String columnName(byte[] definition) {
        int[] pos = {0};
        for (int i = 0; i < 4; i++) {
            int len = definition[pos[0]] & 0xff;
            pos[0] += 1 + len;
        }
        int len = definition[pos[0]] & 0xff;
        return new String(definition, pos[0] + 1, len, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long le(byte[] p, int pos, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) (p[pos + i] & 0xff) << (8 * i);
        }
        return v;
    }

    private static byte[] le(long v, int n) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) (v >>> (8 * i));
        }
        return out;
    }
}
