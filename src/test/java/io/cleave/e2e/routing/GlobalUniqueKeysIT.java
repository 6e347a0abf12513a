package io.cleave.e2e.routing;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unique keys that leave out the sharding column, enforced across shards through lookup tables:
 * every statement runs on one plain MariaDB and through the proxy on four shards, and each
 * outcome (count, error code and message, rows) and each table afterwards must be the same.
 * Then duplicates from two clients on different shards at once: exactly one wins every round.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GlobalUniqueKeysIT {

    private static final int SHARDS = 4;
    static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: uid, function: hash, buckets: 64, key_type: integer }
                - { name: cust, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: users, keyspace: uid, column: id }
                - { name: orders, keyspace: cust, column: cust_id }
                - { name: pairs, keyspace: uid, column: id }
                - { name: race, keyspace: uid, column: id }
                - { name: tags, keyspace: uid, column: id }
                - { name: labels, keyspace: uid, column: id }
                - { name: altered, keyspace: uid, column: id }
                - { name: keyless, keyspace: uid, column: id }
            """;

    private ServerAndShards sides;
    private Connection plain;
    private Connection proxy;

    @BeforeAll
    void start() throws SQLException {
        sides = ServerAndShards.start(SHARDS, SHARDING, Map.of());
        plain = sides.plainConnection("");
        proxy = sides.proxyConnection("");
        for (Connection c : List.of(plain, proxy)) {
            Outcome.must(c, "CREATE DATABASE gu");
            Outcome.must(c, "USE gu");
            Outcome.must(c, "CREATE TABLE users (id INT NOT NULL PRIMARY KEY, email VARCHAR(64) UNIQUE,"
                    + " name VARCHAR(20))");
            Outcome.must(c, "CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, cust_id INT NOT NULL,"
                    + " note VARCHAR(20), KEY (cust_id))");
            Outcome.must(c, "CREATE TABLE pairs (id INT NOT NULL PRIMARY KEY, a INT, b VARCHAR(10),"
                    + " UNIQUE KEY ab (a, b))");
        }
    }

    @AfterAll
    void stop() throws SQLException {
        for (AutoCloseable c : new AutoCloseable[] {plain, proxy, sides}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static final String[] SCRIPT = {
            "INSERT INTO users VALUES (1,'a@x','a'),(2,'b@x','b'),(3,'c@x','c'),(4,NULL,'n1'),(5,NULL,'n2')",
            "INSERT INTO users VALUES (6,'a@x','dup')",
            "INSERT INTO users VALUES (7,'A@X','dupcase')",
            "INSERT INTO users VALUES (8,'d@x','d'),(9,'b@x','dup2')",
            "INSERT INTO users VALUES (10,'e@x','e'),(11,'e@x','e2')",
            "INSERT INTO users VALUES (20,'h@x','e'),(21,'i@x','e2'),(22,'h@x','e3'),(23,'i@x','e4')",
            "INSERT IGNORE INTO users VALUES (12,'a@x','i1'),(13,'f@x','f'),(14,'f@x','f2')",
            "REPLACE INTO users VALUES (15,'b@x','replaced')",
            "INSERT INTO users VALUES (16,'c@x','odku') ON DUPLICATE KEY UPDATE name = 'updated'",
            "INSERT INTO users VALUES (24,'j@x','new') ON DUPLICATE KEY UPDATE name = 'updated'",
            "DELETE FROM users WHERE id = 1",
            "INSERT INTO users VALUES (17,'a@x','again')",
            "UPDATE users SET email = 'g@x' WHERE id = 17",
            "INSERT INTO users VALUES (18,'a@x','third')",
            "UPDATE users SET email = 'c@x' WHERE id = 18",
            "UPDATE users SET email = NULL WHERE id = 18",
            "INSERT INTO users (id, email, name) VALUES (25, 'a@x', 'fourth')",
            "SELECT id, name FROM users WHERE email = 'c@x'",
            "SELECT id FROM users WHERE email IN ('c@x', 'g@x', 'zz') ORDER BY id",
            "SELECT COUNT(*) FROM users WHERE email = 'nobody'",
            "UPDATE users SET name = 'nm' WHERE email = 'b@x'",
            "DELETE FROM users WHERE email = 'g@x'",
            "INSERT INTO users VALUES (26,'g@x','back')",
            "BEGIN",
            "INSERT INTO users VALUES (30, 't1@x', 't')",
            "INSERT INTO users VALUES (31, 't1@x', 'dup')",
            "INSERT INTO users VALUES (32, 't2@x', 't')",
            "SELECT id FROM users WHERE email = 't1@x'",
            "UPDATE users SET email = 't3@x' WHERE id = 32",
            "COMMIT",
            "BEGIN",
            "INSERT INTO users VALUES (33, 't4@x', 'gone')",
            "ROLLBACK",
            "INSERT INTO users VALUES (34, 't4@x', 'kept'), (35, 't2@x', 'again')",
            "INSERT INTO orders VALUES (1, 10, 'o1'), (2, 20, 'o2'), (3, 30, 'o3')",
            "INSERT INTO orders VALUES (2, 40, 'dup')",
            "INSERT INTO orders VALUES (4, 10, 'o4') ON DUPLICATE KEY UPDATE note = 'x'",
            "INSERT INTO orders VALUES (1, 50, 'o1b') ON DUPLICATE KEY UPDATE note = 'hit'",
            "INSERT IGNORE INTO orders VALUES (3, 60, 'ign'), (5, 60, 'o5')",
            "REPLACE INTO orders VALUES (2, 70, 'moved')",
            "SELECT id, cust_id, note FROM orders WHERE id = 2",
            "INSERT INTO pairs VALUES (1, 1, 'x'), (2, 1, 'y'), (3, NULL, 'x'), (4, NULL, 'x')",
            "INSERT INTO pairs VALUES (5, 1, 'x')",
            "INSERT INTO pairs VALUES (6, 2, 'x')",
            "SELECT id FROM pairs WHERE a = 1 AND b = 'y'",
    };

    @Test
    void statementsBehaveAsOnOneServer() {
        List<String> differences = new ArrayList<>();
        for (String sql : SCRIPT) {
            Outcome expected = Outcome.run(plain, sql);
            Outcome actual = Outcome.run(proxy, sql);
            if (!same(expected, actual)) {
                differences.add(sql + "\n  one server: " + expected + "\n  proxy:      " + actual);
            }
            for (String table : List.of("users", "orders", "pairs")) {
                String d = Outcome.tableDifference(plain, proxy, table);
                if (d != null) {
                    differences.add("after " + sql + ": " + table + " differs: " + d);
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    /** CREATE UNIQUE INDEX on a table with rows: built from them, or refused by the rows that break it. */
    private static final String[] ADDED_KEYS = {
            "CREATE TABLE gu.labels (id INT NOT NULL PRIMARY KEY, label VARCHAR(20), code INT)",
            "INSERT INTO gu.labels VALUES (1, 'red', 1), (2, 'blue', 1), (3, 'red', 2), (4, NULL, 1), (5, NULL, 1),"
                    + " (6, 'green', 2), (7, 'Teal', 3), (8, 'gold', 4), (9, 'pink', 5), (10, 'grey', 6)",
            "CREATE UNIQUE INDEX label ON gu.labels (label)",
            "INSERT INTO gu.labels VALUES (11, 'red', 3)",
            "CREATE UNIQUE INDEX lc ON gu.labels (label, code)",
            "INSERT INTO gu.labels VALUES (12, 'red', 1)",
            "INSERT INTO gu.labels VALUES (13, 'red', 9), (14, NULL, 1)",
            "SELECT id FROM gu.labels WHERE label = 'red' AND code = 2",
            "DELETE FROM gu.labels WHERE id IN (3, 11, 13)",
            "CREATE UNIQUE INDEX label ON gu.labels (label)",
            "INSERT INTO gu.labels VALUES (15, 'RED', 7)",
            "INSERT INTO gu.labels VALUES (16, 'teal', 7)",
            "INSERT IGNORE INTO gu.labels VALUES (17, 'blue', 7), (18, 'navy', 7)",
            // Every column of lc (label, code) is set: an UPDATE of part of a key is refused (see below).
            "UPDATE gu.labels SET label = 'green', code = 7 WHERE id = 18",
            "UPDATE gu.labels SET label = 'lime', code = 7 WHERE id = 18",
            "SELECT id, code FROM gu.labels WHERE label IN ('red', 'lime', 'none') ORDER BY id",
            "DROP INDEX label ON gu.labels",
            "INSERT INTO gu.labels VALUES (19, 'red', 8)",
            "DELETE FROM gu.labels WHERE id = 19",
            // Five rows on four shards: two of them break the key on one shard, which refuses the index itself.
            "INSERT INTO gu.labels VALUES (20, 'five', 0), (21, 'five', 0), (22, 'five', 0), (23, 'five', 0),"
                    + " (24, 'five', 0)",
            "CREATE UNIQUE INDEX label ON gu.labels (label)",
            "INSERT INTO gu.labels VALUES (25, 'five', 0)",
    };

    @Test
    void keysAddedToTablesWithRowsBehaveAsOnOneServer() {
        List<String> differences = new ArrayList<>();
        for (String sql : ADDED_KEYS) {
            Outcome expected = Outcome.run(plain, sql);
            Outcome actual = Outcome.run(proxy, sql);
            if (!same(expected, actual)) {
                differences.add(sql + "\n  one server: " + expected + "\n  proxy:      " + actual);
            }
            String d = Outcome.tableDifference(plain, proxy, "gu.labels");
            if (d != null) {
                differences.add("after " + sql + ": labels differs: " + d);
            }
        }
        assertThat(differences).isEmpty();
    }

    private static final String INDEXES = "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS"
            + " WHERE TABLE_SCHEMA = 'gu' AND TABLE_NAME = 'altered' ORDER BY INDEX_NAME, SEQ_IN_INDEX";

    /**
     * ALTER TABLE ... ADD UNIQUE | ADD CONSTRAINT ... UNIQUE | ADD PRIMARY KEY leaving out the sharding
     * column, alone or with other indexes: built from the rows, or refused by the rows that break it
     * (ids 1 and 3 are on shards 2 and 3, 2 and 3 both on shard 3) with every index of the statement
     * gone again. After each statement the indexes, as the default shard lists them, are compared too.
     */
    private static final String[] ALTERED_KEYS = {
            "CREATE TABLE gu.altered (id INT NOT NULL PRIMARY KEY, email VARCHAR(20), code INT, KEY x (code))",
            "INSERT INTO gu.altered VALUES (1, 'a', 1), (2, 'b', 2), (3, 'a', 2), (4, NULL, 4), (5, NULL, 5),"
                    + " (6, 'c', 6), (7, 'd', 7), (8, 'e', 8)",
            "ALTER TABLE gu.altered ADD UNIQUE (email)",
            "ALTER TABLE gu.altered ADD CONSTRAINT cu UNIQUE (email), ADD KEY (code), ALGORITHM = INPLACE",
            "ALTER TABLE gu.altered ADD UNIQUE KEY by_code (code), ADD INDEX e (email)",
            "DELETE FROM gu.altered WHERE id = 3",
            // x is taken by a plain index: refused by the shards, and x stays.
            "CREATE UNIQUE INDEX x ON gu.altered (email)",
            "ALTER TABLE gu.altered ADD UNIQUE x (email)",
            "ALTER TABLE gu.altered ADD UNIQUE (email), ADD KEY (code)",
            "INSERT INTO gu.altered VALUES (9, 'a', 9)",
            "INSERT INTO gu.altered VALUES (10, 'A', 10)",
            "INSERT INTO gu.altered VALUES (11, 'f', 11), (12, 'f', 12)",
            "SELECT id FROM gu.altered WHERE email = 'c'",
            "ALTER TABLE gu.altered ADD UNIQUE KEY IF NOT EXISTS email (code)",
            "ALTER TABLE gu.altered DROP INDEX email",
            "INSERT INTO gu.altered VALUES (13, 'a', 13)",
            "ALTER TABLE gu.altered ADD CONSTRAINT c2 UNIQUE KEY ce (code, email)",
            "INSERT INTO gu.altered VALUES (14, 'a', 13)",
            "ALTER TABLE gu.altered DROP KEY ce",
            "INSERT INTO gu.altered VALUES (14, 'a', 13)",
            "CREATE TABLE gu.keyless (id INT NOT NULL, code INT NOT NULL)",
            "INSERT INTO gu.keyless VALUES (1, 10), (2, 20), (3, 10)",
            "ALTER TABLE gu.keyless ADD PRIMARY KEY (code)",
            "DELETE FROM gu.keyless WHERE id = 3",
            "ALTER TABLE gu.keyless ADD CONSTRAINT pk PRIMARY KEY (code)",
            "INSERT INTO gu.keyless VALUES (4, 20)",
            "INSERT INTO gu.keyless VALUES (5, 50)",
            "SELECT id FROM gu.keyless WHERE code = 20",
    };

    @Test
    void keysAddedByAlterTableBehaveAsOnOneServer() throws Exception {
        List<String> differences = new ArrayList<>();
        List<String> tables = new ArrayList<>(List.of("gu.altered"));
        for (String sql : ALTERED_KEYS) {
            Outcome expected = Outcome.run(plain, sql);
            Outcome actual = Outcome.run(proxy, sql);
            if (!same(expected, actual)) {
                differences.add(sql + "\n  one server: " + expected + "\n  proxy:      " + actual);
            }
            if (sql.startsWith("CREATE TABLE gu.keyless")) {
                tables.add("gu.keyless");
            }
            for (String table : tables) {
                String d = Outcome.tableDifference(plain, proxy, table);
                if (d != null) {
                    differences.add("after " + sql + ": " + table + " differs: " + d);
                }
            }
            String indexes = Outcome.sameAnswer(plain, proxy, INDEXES, true);
            if (indexes != null) {
                differences.add("after " + sql + ": the indexes differ: " + indexes);
            }
        }
        assertThat(differences).isEmpty();
        // The lookups of keys the rows broke or that were dropped are gone; the primary key's stays.
        for (String gone : List.of("email", "cu", "by_code", "x", "ce")) {
            assertThat(lookupTables("u_gu_altered_" + gone)).as("lookup tables of " + gone).isZero();
        }
        assertThat(lookupTables("u_gu_keyless_primary")).isEqualTo(SHARDS);
        try (Connection c = sides.sharded().connect(0)) {
            Outcome keys = Outcome.run(c, "SELECT table_name, key_name FROM cleave.unique_keys WHERE table_name"
                    + " IN ('altered', 'keyless') UNION ALL SELECT table_name, key_name FROM cleave.unique_key_builds");
            assertThat(((Outcome.Rows) keys).rows()).containsExactly(List.of("keyless", "PRIMARY"));
        }
    }

    private static boolean same(Outcome expected, Outcome actual) {
        if (expected instanceof Outcome.Failure e && actual instanceof Outcome.Failure a) {
            return e.code() == a.code() && e.message().equals(a.message());
        }
        if (expected instanceof Outcome.Rows e && actual instanceof Outcome.Rows a) {
            return e.rows().equals(a.rows());
        }
        return expected.equals(actual);
    }

    @Test
    void preparedStatementsBindTheKeysValues() throws Exception {
        String prepared = "useServerPrepStmts=true&cachePrepStmts=false";
        try (Connection ref = sides.plainConnection(prepared); Connection px = sides.proxyConnection(prepared)) {
            List<String> differences = new ArrayList<>();
            for (Connection c : List.of(ref, px)) {
                Outcome.must(c, "USE gu");
            }
            Object[][] inserts = {{40, "p1@x"}, {41, "p1@x"}, {42, "P1@X"}, {43, "p2@x"}};
            for (Object[] row : inserts) {
                String expected = preparedOutcome(ref, "INSERT INTO users (id, email, name) VALUES (?, ?, 'p')", row);
                String actual = preparedOutcome(px, "INSERT INTO users (id, email, name) VALUES (?, ?, 'p')", row);
                if (!expected.equals(actual)) {
                    differences.add("insert " + java.util.Arrays.toString(row) + ": " + expected + " / " + actual);
                }
            }
            for (Object[] args : new Object[][] {{"p2@x", 40}, {"p9@x", 43}}) {
                String expected = preparedOutcome(ref, "UPDATE users SET email = ? WHERE id = ?", args);
                String actual = preparedOutcome(px, "UPDATE users SET email = ? WHERE id = ?", args);
                if (!expected.equals(actual)) {
                    differences.add("update " + java.util.Arrays.toString(args) + ": " + expected + " / " + actual);
                }
            }
            for (String email : List.of("p1@x", "p9@x", "p2@x", "none")) {
                String expected = preparedOutcome(ref, "SELECT id, name FROM users WHERE email = ?", new Object[]{email});
                String actual = preparedOutcome(px, "SELECT id, name FROM users WHERE email = ?", new Object[]{email});
                if (!expected.equals(actual)) {
                    differences.add("select " + email + ": " + expected + " / " + actual);
                }
            }
            assertThat(Outcome.tableDifference(ref, px, "users")).isNull();
            assertThat(differences).isEmpty();
        }
    }

    private static String preparedOutcome(Connection c, String sql, Object[] args) {
        try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            if (ps.execute()) {
                List<String> rows = new ArrayList<>();
                try (java.sql.ResultSet rs = ps.getResultSet()) {
                    while (rs.next()) {
                        rows.add(rs.getString(1) + " " + rs.getString(2));
                    }
                }
                return rows.toString();
            }
            return "count " + ps.getUpdateCount();
        } catch (SQLException e) {
            return "error " + e.getErrorCode() + " " + e.getMessage();
        }
    }

    @Test
    void concurrentDuplicatesOnDifferentShardsLetExactlyOneWin() throws Exception {
        try (Connection c = sides.proxyConnection("")) {
            Outcome.must(c, "CREATE TABLE gu.race (id INT NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL UNIQUE)");
        }
        HashShardFunction hash = new HashShardFunction(64, KeyType.INTEGER);
        List<int[]> pairs = new ArrayList<>();
        for (int id = 1; pairs.size() < 60; id += 2) {
            int a = hash.bucketOf(ShardKey.of(id)) * SHARDS / 64;
            int b = hash.bucketOf(ShardKey.of(id + 1)) * SHARDS / 64;
            if (a != b) {
                pairs.add(new int[]{id, id + 1});
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection one = sides.proxyConnection(""); Connection two = sides.proxyConnection("")) {
            CyclicBarrier barrier = new CyclicBarrier(2);
            int round = 0;
            for (int[] ids : pairs) {
                String email = "race" + round++ + "@x";
                Future<Outcome> first = pool.submit(() -> insert(one, barrier, ids[0], email));
                Future<Outcome> second = pool.submit(() -> insert(two, barrier, ids[1], email));
                List<Outcome> outcomes = List.of(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS));
                assertThat(outcomes).filteredOn(o -> o instanceof Outcome.Count c && c.count() == 1).hasSize(1);
                assertThat(outcomes).filteredOn(o -> o instanceof Outcome.Failure f && f.code() == 1062
                        && f.message().equals("Duplicate entry '" + email + "' for key 'email'")).hasSize(1);
            }
            Outcome rows = Outcome.run(one, "SELECT COUNT(*), COUNT(DISTINCT email) FROM gu.race");
            assertThat(((Outcome.Rows) rows).rows()).containsExactly(List.of(
                    String.valueOf(pairs.size()), String.valueOf(pairs.size())));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void explainTellsTheLookupAndShardsListsTheKeys() throws Exception {
        try (Connection c = sides.proxyConnection("")) {
            Outcome.must(c, "USE gu");
            Outcome.Rows select = explained(c, "SELECT id FROM users WHERE email = 'zz@x'");
            assertThat(select.rows().get(0).get(1)).startsWith("lookup by unique key email in cleave.u_gu_users_email"
                    + " on shard(s) ").contains("first, then only the shards of the keys it finds; without it: shards"
                    + " 0, 1, 2, 3 (all)");
            Outcome.Rows insert = explained(c, "INSERT INTO users VALUES (90, 'q@x', 'q')");
            assertThat(insert.rows().get(0).get(1)).startsWith("each row's value of unique key email (cleave."
                    + "u_gu_users_email, on shards 0-3) is claimed in its lookup first");
            Outcome.Rows update = explained(c, "UPDATE users SET email = 'q@x' WHERE id = 5");
            assertThat(update.rows().get(0).get(1)).startsWith("the new value of unique key email is claimed in"
                    + " cleave.u_gu_users_email first");
        }
        io.cleave.e2e.support.CleaveJar.Result shards = io.cleave.e2e.support.CleaveJar.run(sides.sharded().home(),
                "shards", "--exact");
        assertThat(shards.code()).as(shards.out()).isZero();
        assertThat(shards.out()).contains("global unique keys").containsPattern(
                "gu\\.users\\s+email \\(email\\)\\s+enforced\\s+0-3");
        assertThat(shards.out()).containsPattern("gu\\.orders\\s+PRIMARY \\(id\\)\\s+enforced");
    }

    private static Outcome.Rows explained(Connection c, String sql) {
        Outcome o = Outcome.run(c, "EXPLAIN CLEAVE " + sql);
        assertThat(o).as("EXPLAIN CLEAVE %s", sql).isInstanceOf(Outcome.Rows.class);
        return (Outcome.Rows) o;
    }

    @Test
    void shapesThatCannotKeepTheKeyAreRefusedNamingIt() {
        try (Connection c = sides.proxyConnection("")) {
            Outcome.must(c, "USE gu");
            Outcome set = Outcome.run(c, "INSERT INTO users SET id = 70, email = 'set@x'");
            assertThat(set).as("INSERT ... SET").isInstanceOf(Outcome.Failure.class);
            assertThat(((Outcome.Failure) set).message()).contains("INSERT ... SET into users, which has the global"
                    + " unique key email, is not supported");
            Outcome update = Outcome.run(c, "UPDATE users SET email = CONCAT(name, '@y') WHERE id = 2");
            assertThat(((Outcome.Failure) update).message()).contains("unique key email").contains("must set every column");
            Outcome keyless = Outcome.run(c, "UPDATE users SET email = 'k@y' WHERE name = 'zz'");
            assertThat(((Outcome.Failure) keyless).message()).contains("must name one row's sharding key (id = value)");
            Outcome index = Outcome.run(c, "ALTER TABLE users ADD COLUMN z INT, ADD UNIQUE KEY by_name (name)");
            assertThat(((Outcome.Failure) index).code()).isEqualTo(1235);
            assertThat(((Outcome.Failure) index).message()).contains("adds the unique key by_name (name), which leaves"
                    + " out the sharding column id, together with 'ADD COLUMN z INT'");
            // A column's own UNIQUE was enforced by each shard alone before.
            Outcome column = Outcome.run(c, "ALTER TABLE users ADD COLUMN nick VARCHAR(10) UNIQUE");
            assertThat(((Outcome.Failure) column).code()).isEqualTo(1235);
            assertThat(((Outcome.Failure) column).message()).contains("makes nick a unique key, which leaves out the"
                    + " sharding column id");
            Outcome ignore = Outcome.run(c, "ALTER IGNORE TABLE users ADD UNIQUE KEY by_name (name)");
            assertThat(((Outcome.Failure) ignore).message()).contains("IGNORE, which deletes the rows that break the key,"
                    + " is not supported");
            Outcome odku = Outcome.run(c, "INSERT INTO users VALUES (71, 'o@y', 'o') ON DUPLICATE KEY UPDATE email = 'p@y'");
            assertThat(((Outcome.Failure) odku).message()).contains("ON DUPLICATE KEY UPDATE of email, a column of the"
                    + " unique key email");
            Outcome rename = Outcome.run(c, "RENAME TABLE users TO people");
            assertThat(((Outcome.Failure) rename).message()).contains("renaming users is not supported while it has"
                    + " global unique keys");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aKeyGoesWithItsIndexAndItsTable() throws Exception {
        List<Connection> both = List.of(plain, sides.proxyConnection(""));
        for (Connection c : both) {
            Outcome.must(c, "CREATE TABLE gu.tags (id INT NOT NULL PRIMARY KEY, tag VARCHAR(20), UNIQUE KEY by_tag (tag))");
            Outcome.must(c, "INSERT INTO gu.tags VALUES (1, 't'), (2, 'u')");
        }
        assertThat(lookupTables("u_gu_tags_by_tag")).as("lookup tables of by_tag").isEqualTo(SHARDS);
        for (Connection c : both) {
            Outcome.must(c, "DROP INDEX by_tag ON gu.tags");
        }
        assertThat(lookupTables("u_gu_tags_by_tag")).as("lookup tables of by_tag once it is dropped").isZero();
        String twice = "INSERT INTO gu.tags VALUES (3, 't')";
        assertThat(Outcome.run(both.get(1), twice)).isEqualTo(Outcome.run(plain, twice)).isEqualTo(new Outcome.Count(1));
        for (Connection c : both) {
            Outcome.must(c, "ALTER TABLE gu.tags ADD COLUMN code INT");
            Outcome.must(c, "DROP TABLE gu.tags");
            Outcome.must(c, "CREATE TABLE gu.tags (id INT NOT NULL PRIMARY KEY, tag VARCHAR(20) UNIQUE)");
        }
        assertThat(lookupTables("u_gu_tags_tag")).isEqualTo(SHARDS);
        String again = "INSERT INTO gu.tags VALUES (1, 't'), (2, 't')";
        assertThat(Outcome.run(both.get(1), again)).isEqualTo(Outcome.run(plain, again));
        for (Connection c : both) {
            Outcome.must(c, "DROP TABLE gu.tags");
        }
        assertThat(lookupTables("u_gu_tags_tag")).isZero();
        both.get(1).close();
    }

    /** How many shards have the lookup table {@code cleave.name}. */
    private int lookupTables(String name) throws SQLException {
        int found = 0;
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection c = sides.sharded().connect(shard)) {
                Outcome rows = Outcome.run(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave'"
                        + " AND TABLE_NAME = '" + name + "'");
                found += Integer.parseInt(((Outcome.Rows) rows).rows().get(0).get(0));
            }
        }
        return found;
    }

    private static Outcome insert(Connection c, CyclicBarrier barrier, int id, String email) throws Exception {
        barrier.await(10, TimeUnit.SECONDS);
        return Outcome.run(c, "INSERT INTO gu.race VALUES (" + id + ", '" + email + "')");
    }
}
