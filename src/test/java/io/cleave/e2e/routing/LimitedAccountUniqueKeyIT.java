package io.cleave.e2e.routing;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.daemon.ShardEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Accounts without privileges on {@code *.*} and a table with a global unique key
 * ({@code shop.users.email}, users sharded by id over four shards), through the proxy and on one
 * plain server with the same accounts and grants: an account that may write the table inserts,
 * upserts, replaces, updates and deletes as on the server (its lookup kept through Cleave's
 * procedure); one that may only read gets the server's 1142 for the table and leaves no lookup
 * row; and no client account reads the lookup or runs the procedure itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LimitedAccountUniqueKeyIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: uid, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: users, keyspace: uid, column: id }
            """;
    private static final String LOOKUP = "cleave.u_shop_users_email";
    private static final int SHARDS = 4;
    private static final List<String> SETUP = List.of(
            "CREATE DATABASE shop",
            "CREATE TABLE shop.users (id INT NOT NULL PRIMARY KEY, email VARCHAR(40) NOT NULL, name VARCHAR(20),"
                    + " UNIQUE KEY email (email))",
            "CREATE USER 'app'@'%' IDENTIFIED BY 'apw'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'app'@'%'",
            "CREATE USER 'ro'@'%' IDENTIFIED BY 'rpw'",
            "GRANT SELECT ON shop.* TO 'ro'@'%'",
            "CREATE USER 'wo'@'%' IDENTIFIED BY 'wpw'",
            "GRANT INSERT ON shop.users TO 'wo'@'%'");

    private ServerAndShards sides;
    private RunningDaemon sharded;

    @BeforeAll
    void start() throws SQLException {
        sides = ServerAndShards.start(SHARDS, SHARDING, Map.of());
        sharded = sides.sharded();
        try (Connection ref = sides.plainConnection(""); Connection proxy = sides.proxyConnection("")) {
            for (String sql : SETUP) {
                Outcome.must(ref, sql);
                Outcome.must(proxy, sql);
            }
        }
    }

    @AfterAll
    void stop() {
        if (sides != null) {
            sides.close();
        }
    }

    @Test
    void anAccountThatMayWriteTheTableWritesItAsOnOneServer() throws SQLException {
        List<String> statements = List.of(
                "INSERT INTO users (id, email, name) VALUES (1, 'a@x', 'a'), (2, 'b@x', 'b'), (3, 'c@x', 'c')",
                "INSERT INTO users (id, email, name) VALUES (40, 'A@X', 'dup')",
                "INSERT INTO users (id, email, name) VALUES (41, 'd@x', 'd'), (42, 'd@x', 'again')",
                "INSERT IGNORE INTO users (id, email, name) VALUES (43, 'b@x', 'skip'), (44, 'e@x', 'e')",
                "INSERT INTO users (id, email, name) VALUES (45, 'c@x', 'c2') ON DUPLICATE KEY UPDATE name = 'upserted'",
                "REPLACE INTO users (id, email, name) VALUES (46, 'a@x', 'replaced')",
                "SELECT id, email, name FROM users WHERE email = 'a@x'",
                "SELECT id, email, name FROM users WHERE email IN ('b@x', 'c@x', 'nobody@x') ORDER BY id",
                "UPDATE users SET email = 'b2@x' WHERE id = 2",
                "UPDATE users SET email = 'e@x' WHERE id = 3",
                "DELETE FROM users WHERE email = 'e@x'",
                "INSERT INTO users (id, email, name) VALUES (47, 'e@x', 'took over')",
                "INSERT INTO users (id, email, name) VALUES (48, 'b@x', 'freed')",
                "DELETE FROM users WHERE email = 'nobody@x'",
                "INSERT INTO users (id, email, name) VALUES (49, 'ä@x', 'umlaut')",
                "INSERT INTO users (id, email, name) VALUES (50, 'o''brien@x', 'quote'), (51, 'back\\\\slash@x', 'b')",
                "INSERT INTO users (id, email, name) VALUES (52, 'O''Brien@X', 'same')",
                "SELECT id, email, name FROM users WHERE email = 'e@x'");
        List<String> failures;
        try (Sessions as = sessions("app", "apw")) {
            failures = differences(as, statements, as);
        }
        // Server prepared statements: the values come bound, and go to the lookup as hex all the same.
        try (Sessions as = sessions("app", "apw", "useServerPrepStmts=true&cachePrepStmts=false")) {
            String insert = "INSERT INTO users (id, email, name) VALUES (?, ?, ?)";
            for (List<Object> values : List.<List<Object>>of(List.of(60, "p@x", "p"), List.of(61, "P@X", "dup"),
                    List.of(62, "é@x", "accent"), List.of(63, "E@X", "dup of e@x"))) {
                String difference = differentError(Outcome.runPrepared(as.ref(), insert, values),
                        Outcome.runPrepared(as.proxy(), insert, values));
                if (difference == null) {
                    difference = Outcome.tableDifference(as.ref(), as.proxy(), "shop.users");
                }
                if (difference != null) {
                    failures.add(insert + " " + values + ": " + difference);
                }
            }
        }
        assertThat(failures).isEmpty();
        try (Connection proxy = sides.proxyConnection("")) {
            assertThat(missingLookupRows(proxy)).as("rows whose value has no lookup row naming them").isEmpty();
        }
    }

    @Test
    void anAccountThatMayOnlyReadGetsTheServersErrorAndLeavesNoLookupRow() throws SQLException {
        List<String> writes = List.of(
                "INSERT INTO users (id, email, name) VALUES (100, 'ro@x', 'ro')",
                "INSERT IGNORE INTO users (id, email, name) VALUES (101, 'ro2@x', 'ro')",
                "INSERT INTO users (id, email, name) VALUES (102, 'ro3@x', 'ro') ON DUPLICATE KEY UPDATE name = 'ro'",
                "REPLACE INTO users (id, email, name) VALUES (103, 'ro4@x', 'ro')");
        try (Sessions as = sessions("ro", "rpw")) {
            Connection ref = as.ref();
            Connection proxy = as.proxy();
            for (String sql : writes) {
                Outcome expected = Outcome.run(ref, sql);
                Outcome actual = Outcome.run(proxy, sql);
                assertThat(expected).as(sql).isInstanceOf(Outcome.Failure.class);
                assertThat(((Outcome.Failure) expected).code()).isEqualTo(1142);
                assertThat(differentError(expected, actual)).as(sql).isNull();
            }
            // Reads by the key are routed by the lookup for this account too.
            try (Connection adminRef = sides.plainConnection(""); Connection adminProxy = sides.proxyConnection("")) {
                Outcome.must(adminRef, "INSERT INTO shop.users (id, email, name) VALUES (104, 'seen@x', 's')");
                Outcome.must(adminProxy, "INSERT INTO shop.users (id, email, name) VALUES (104, 'seen@x', 's')");
            }
            assertThat(Outcome.sameAnswer(ref, proxy, "SELECT id, name FROM users WHERE email = 'seen@x'", true)).isNull();
        }
        for (String email : List.of("ro@x", "ro2@x", "ro3@x", "ro4@x")) {
            assertThat(lookupRowsOf(email)).as("lookup rows of " + email).isEmpty();
        }
    }

    @Test
    void anAccountThatMayInsertButNotReadGetsTheServersAnswers() throws SQLException {
        List<String> inserts = List.of(
                "INSERT INTO users (id, email, name) VALUES (200, 'wo@x', 'w')",
                "INSERT INTO users (id, email, name) VALUES (201, 'WO@X', 'dup')",
                "INSERT IGNORE INTO users (id, email, name) VALUES (202, 'wo@x', 'skip'), (203, 'wo2@x', 'w2')",
                "INSERT INTO users (id, email, name) VALUES (204, 'wo2@x', 'dup') ON DUPLICATE KEY UPDATE name = 'x'");
        try (Sessions as = sessions("wo", "wpw"); Sessions admin = new Sessions(sides.plainConnection(""),
                sides.proxyConnection(""))) {
            assertThat(differences(as, inserts, admin)).isEmpty();
        }
    }

    @Test
    void noClientAccountReadsTheLookupOrRunsCleavesProcedureItself() throws SQLException {
        try (Connection proxy = sides.proxyConnection("app", "apw", "allowMultiQueries=true")) {
            Outcome read = Outcome.run(proxy, "SELECT * FROM " + LOOKUP);
            assertThat(read).isInstanceOf(Outcome.Failure.class);
            assertThat(((Outcome.Failure) read).code()).isEqualTo(1044);
            // SQL assembled at run time goes to a shard unread: the procedure refuses what the proxy did not seal.
            Outcome.must(proxy, "SET @s = CONCAT('CALL clea', 've.unique_lookup(@@session.sql_mode,"
                    + " X''53454C454354202A2046524F4D20636C656176652E755F73686F705F75736572735F656D61696C'', ''00'')')");
            Outcome call = Outcome.run(proxy, "EXECUTE IMMEDIATE @s");
            assertThat(call).as(call.toString()).isInstanceOf(Outcome.Failure.class);
            assertThat(((Outcome.Failure) call).code()).isEqualTo(1370);
        }
        ShardEndpoint shard = sharded.shards().get(0);
        try (Connection direct = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + shard.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", "app", "apw")) {
            Outcome read = Outcome.run(direct, "SELECT * FROM " + LOOKUP);
            assertThat(read).isInstanceOf(Outcome.Failure.class);
            assertThat(((Outcome.Failure) read).code()).isEqualTo(1142);
            Outcome call = Outcome.run(direct, "CALL cleave.unique_lookup(@@session.sql_mode,"
                    + " X'53454C454354202A2046524F4D20636C656176652E755F73686F705F75736572735F656D61696C', 'forged')");
            assertThat(call).as(call.toString()).isInstanceOf(Outcome.Failure.class);
            assertThat(((Outcome.Failure) call).code()).isEqualTo(1370);
        }
    }

    /** A session on the plain server and one through the proxy, as the same account, in shop. */
    private record Sessions(Connection ref, Connection proxy) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            try (proxy) {
                ref.close();
            }
        }
    }

    private Sessions sessions(String user, String password) throws SQLException {
        return sessions(user, password, "");
    }

    private Sessions sessions(String user, String password, String options) throws SQLException {
        Sessions s = new Sessions(sides.plainConnection(user, password, options), sides.proxyConnection(user, password,
                options));
        Outcome.must(s.ref(), "USE shop");
        Outcome.must(s.proxy(), "USE shop");
        return s;
    }

    /**
     * Runs {@code statements} on both sides of {@code as}: reads must answer alike, writes succeed or
     * fail alike and leave shop.users alike as {@code reader} sees it. The differences found.
     */
    private static List<String> differences(Sessions as, List<String> statements, Sessions reader) {
        List<String> failures = new ArrayList<>();
        for (String sql : statements) {
            String difference;
            if (sql.startsWith("SELECT")) {
                difference = Outcome.sameAnswer(as.ref(), as.proxy(), sql, true);
            } else {
                difference = differentError(Outcome.run(as.ref(), sql), Outcome.run(as.proxy(), sql));
                if (difference == null) {
                    difference = Outcome.tableDifference(reader.ref(), reader.proxy(), "shop.users");
                }
            }
            if (difference != null) {
                failures.add(sql + ": " + difference);
            }
        }
        return failures;
    }

    /** Null when both sides succeeded alike or failed with the same code and message (the account's host aside). */
    private static String differentError(Outcome expected, Outcome actual) {
        if (expected instanceof Outcome.Failure e && actual instanceof Outcome.Failure a) {
            String x = withoutHost(e.message());
            String y = withoutHost(a.message());
            return e.code() == a.code() && x.equals(y) ? null
                    : "the server failed with " + e.code() + " (" + e.message() + "), the proxy with " + a.code() + " ("
                    + a.message() + ")";
        }
        if (expected instanceof Outcome.Count e && actual instanceof Outcome.Count a) {
            return e.count() == a.count() ? null : "the server counted " + e.count() + ", the proxy " + a.count();
        }
        return "the server gave " + expected + ", the proxy " + actual;
    }

    private static String withoutHost(String message) {
        return message.replaceAll("'@'[^']*'", "'@'...'");
    }

    /** The lookup rows naming {@code email}, on every shard. */
    private List<Long> lookupRowsOf(String email) throws SQLException {
        List<Long> keys = new ArrayList<>();
        for (int s = 0; s < SHARDS; s++) {
            try (Connection c = sharded.connect(s);
                 java.sql.PreparedStatement st = c.prepareStatement("SELECT cleave_key FROM " + LOOKUP + " WHERE email = ?")) {
                st.setString(1, email);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        keys.add(rs.getLong(1));
                    }
                }
            }
        }
        return keys;
    }

    /** The rows (read through the proxy) whose email has no lookup row naming their id. */
    private List<String> missingLookupRows(Connection proxy) throws SQLException {
        List<String> missing = new ArrayList<>();
        try (Statement st = proxy.createStatement(); ResultSet rs = st.executeQuery("SELECT id, email FROM shop.users")) {
            while (rs.next()) {
                if (!lookupRowsOf(rs.getString(2)).contains(rs.getLong(1))) {
                    missing.add(rs.getLong(1) + " " + rs.getString(2));
                }
            }
        }
        return missing;
    }
}
