package io.cleave.e2e.routing;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.TargetResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Writes through the proxy over 4 shards, checked on the shards themselves: generated ids are
 * unique across shards and the client learns its row's id (LAST_INSERT_ID(), the OK packet); a
 * sharding key left out of an INSERT comes from the proxy's durable sequence, also after a
 * restart; DDL reaches every shard, and a DDL that fails on some shards says which applied it;
 * writes to a reference table reach every copy; UPDATE and DELETE without a key reach every shard.
 * One daemon serves the whole class (one test restarts it).
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WritesAcrossShardsIT {

    private static final int SHARDS = 4;
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: owner, function: hash, buckets: 64, key_type: integer }
                - { name: seq, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: events, keyspace: owner, column: owner }
                - { name: sb, keyspace: seq, column: id }
                - { name: kl, keyspace: seq, column: id }
                - { name: dense, keyspace: seq, column: id }
                - { name: ref, type: reference }
                - { name: solo, type: unsharded, shard: 3 }
            """;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE wx");
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        home.close();
    }

    // ---- generated ids -------------------------------------------------------------------------

    @Test
    void shardsGenerateIdsThatNeverCollideAndTheClientLearnsItsRowsId() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE events (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, owner INT NOT NULL,"
                    + " note VARCHAR(40))");
            for (int owner = 1; owner <= 40; owner++) {
                long generated = insertReturningKey(c, "INSERT INTO events (owner, note) VALUES (" + owner + ", 'one-"
                        + owner + "')");
                assertThat(lastInsertId(c)).as("LAST_INSERT_ID() after owner %d", owner).isEqualTo(generated);
                assertThat(single(c, "SELECT id FROM events WHERE owner = " + owner + " AND note = 'one-" + owner
                        + "'")).as("the row's own id").isEqualTo(generated);
            }
            // One statement with rows on every shard: LAST_INSERT_ID() is the first row's id, as on one server.
            StringJoiner rows = new StringJoiner(", ");
            for (int owner = 1; owner <= 24; owner++) {
                rows.add("(" + owner + ", 'many-" + owner + "')");
            }
            execute(c, "INSERT INTO events (owner, note) VALUES " + rows);
            assertThat(lastInsertId(c)).isEqualTo(single(c, "SELECT id FROM events WHERE owner = 1 AND note = 'many-1'"));

            assertThat(column(c, "SELECT id FROM events")).hasSize(64).doesNotHaveDuplicates();
            Set<Integer> shardsWithRows = new HashSet<>();
            for (int shard = 0; shard < SHARDS; shard++) {
                try (Connection s = settledShard(shard)) {
                    if (single(s, "SELECT COUNT(*) FROM wx.events") > 0) {
                        shardsWithRows.add(shard);
                    }
                }
            }
            assertThat(shardsWithRows).as("rows spread over the shards").hasSize(SHARDS);
        }
    }

    @Test
    void theProxyDrawsShardingKeysFromADurableSequenceAlsoAfterARestart() throws Exception {
        Set<Long> seen = new HashSet<>();
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE sb (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT, c VARCHAR(20))");
            insertWithoutKeys(c, seen, "before");
        }
        checkPlacement("sb");
        daemon.close();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("wx", "")) {
            insertWithoutKeys(c, seen, "after");
            List<Long> ids = column(c, "SELECT id FROM sb");
            assertThat(ids).as("ids across the restart").hasSize(seen.size()).doesNotHaveDuplicates();
            assertThat(new HashSet<>(ids)).isEqualTo(seen);
        }
        checkPlacement("sb");
    }

    @Test
    void drawnKeysStayDenseAndStartAfreshWithTheTable() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE dense (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
            for (int i = 0; i < 3; i++) {
                execute(c, "INSERT INTO dense (v) VALUES (" + i + ")");
            }
            // A statement wanting more ids than the reserved block has left still gets a dense run.
            StringJoiner rows = new StringJoiner(", ");
            for (int i = 0; i < 150; i++) {
                rows.add("(" + i + ")");
            }
            execute(c, "INSERT INTO dense (v) VALUES " + rows);
            assertThat(lastInsertId(c)).isEqualTo(4);
            assertThat(rows(c, "SELECT COUNT(*), MIN(id), MAX(id) FROM dense")).containsExactly("153 1 153");
            checkPlacement("dense");

            // As on one server, a truncated table starts again at 1 ...
            execute(c, "TRUNCATE TABLE dense");
            execute(c, "INSERT INTO dense (v) VALUES (1), (2)");
            assertThat(rows(c, "SELECT MIN(id), MAX(id) FROM dense")).containsExactly("1 2");
            // ... and so does a table dropped and created again, or one whose schema was dropped.
            execute(c, "DROP TABLE dense");
            execute(c, "CREATE TABLE dense (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
            execute(c, "INSERT INTO dense (v) VALUES (1)");
            assertThat(lastInsertId(c)).isEqualTo(1);
            execute(c, "CREATE DATABASE wy");
            execute(c, "CREATE TABLE wy.dense (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
            execute(c, "INSERT INTO wy.dense (v) VALUES (1), (2), (3)");
            execute(c, "DROP DATABASE wy");
            assertThat(rows(c, "SELECT DATABASE()")).as("dropping another schema keeps the session's").containsExactly("wx");
            execute(c, "CREATE DATABASE wy");
            execute(c, "CREATE TABLE wy.dense (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
            execute(c, "INSERT INTO wy.dense (v) VALUES (1)");
            assertThat(lastInsertId(c)).isEqualTo(1);
            // A table that keeps its rows continues after its largest key, whatever happened to the sequence.
            assertThat(rows(c, "SELECT MAX(id) FROM dense")).containsExactly("1");
        }
    }

    /** Single-row and multi-row INSERTs without the key; each row's id checked and collected. */
    private static void insertWithoutKeys(Connection c, Set<Long> seen, String tag) throws SQLException {
        for (int i = 0; i < 20; i++) {
            String note = tag + "-" + i;
            long generated = insertReturningKey(c, "INSERT INTO sb (k, c) VALUES (" + i + ", '" + note + "')");
            assertThat(lastInsertId(c)).isEqualTo(generated);
            assertThat(single(c, "SELECT id FROM sb WHERE id = " + generated + " AND c = '" + note + "'"))
                    .as("the row is found by its key, on its shard").isEqualTo(generated);
            assertThat(seen.add(generated)).as("id %d handed out twice", generated).isTrue();
        }
        StringJoiner rows = new StringJoiner(", ");
        for (int i = 0; i < 30; i++) {
            rows.add("(" + i + ", '" + tag + "-many-" + i + "')");
        }
        execute(c, "INSERT INTO sb (k, c) VALUES " + rows);
        long first = lastInsertId(c);
        assertThat(column(c, "SELECT id FROM sb WHERE id = " + first + " AND c = '" + tag + "-many-0'"))
                .as("LAST_INSERT_ID() is the first row's id").hasSize(1);
        for (long id : column(c, "SELECT id FROM sb WHERE c LIKE '" + tag + "-many-%'")) {
            assertThat(seen.add(id)).as("id %d handed out twice", id).isTrue();
        }
    }

    /** Every row of a table hashed by id lives on the shard its id maps to. */
    private void checkPlacement(String table) throws Exception {
        TargetResolver resolver = new TargetResolver(daemon.daemon().config().sharding().topology());
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                for (long id : column(s, "SELECT id FROM wx." + table)) {
                    assertThat(resolver.shardOf("seq", ShardKey.of(id), daemon.daemon().shardMaps().current()))
                            .as("shard of %s id %d", table, id).isEqualTo(shard);
                }
            }
        }
    }

    // ---- DDL -----------------------------------------------------------------------------------

    @Test
    void ddlReachesEveryShard() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE ddl_t (id INT PRIMARY KEY, a INT)");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'wx'"
                    + " AND table_name = 'ddl_t'", 1);
            execute(c, "ALTER TABLE ddl_t ADD COLUMN b VARCHAR(10) DEFAULT 'x'");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'wx'"
                    + " AND table_name = 'ddl_t' AND column_name = 'b'", 1);
            execute(c, "CREATE INDEX ddl_a ON ddl_t (a)");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = 'wx'"
                    + " AND table_name = 'ddl_t' AND index_name = 'ddl_a'", 1);
            execute(c, "DROP INDEX ddl_a ON ddl_t");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = 'wx'"
                    + " AND table_name = 'ddl_t' AND index_name = 'ddl_a'", 0);
            execute(c, "CREATE DATABASE wx_more");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'wx_more'", 1);
            execute(c, "DROP TABLE ddl_t");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'wx'"
                    + " AND table_name = 'ddl_t'", 0);
            execute(c, "DROP DATABASE wx_more");
            assertOnEveryShard("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'wx_more'", 0);
        }
    }

    @Test
    void ddlThatFailsOnSomeShardsIsUndoneWhereItAppliedAndSaysWhere() throws Exception {
        try (Connection s2 = daemon.connect(2)) {
            execute(s2, "CREATE TABLE wx.clash (other_column INT)");
        }
        try (Connection c = daemon.connectProxy("wx", "")) {
            assertThatThrownBy(() -> execute(c, "CREATE TABLE clash (id INT PRIMARY KEY)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1050);
                        assertThat(e.getMessage()).contains("already exists").contains("on shard(s) [2]")
                                .contains("the CREATE TABLE was undone on shard(s) [0, 1, 3]");
                    });
            assertThat(single(c, "SELECT 1")).as("the session goes on").isEqualTo(1);
            // A DDL failing everywhere reports the server's own error.
            assertThatThrownBy(() -> execute(c, "ALTER TABLE no_such_table ADD COLUMN x INT"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1146);
                        assertThat(e.getMessage()).doesNotContain("applied on");
                    });
        }
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                List<String> expected = shard == 2 ? List.of("other_column") : List.of();
                assertThat(column(s, "SELECT column_name FROM information_schema.columns WHERE table_schema = 'wx'"
                        + " AND table_name = 'clash'", String.class)).as("shard %d: as before the statement", shard)
                        .isEqualTo(expected);
            }
        }
    }

    // ---- reference tables, keyless writes, unsharded tables ----------------------------------------

    @Test
    void writesToAReferenceTableReachEveryCopy() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE ref (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(6,2))");
            assertThat(update(c, "INSERT INTO ref (id, name, price) VALUES (1, 'one', 1.00), (2, 'two', 2.00),"
                    + " (3, 'three', 3.00), (4, 'four', 4.00)")).isEqualTo(4);
            assertThat(update(c, "UPDATE ref SET price = price * 10 WHERE id > 2")).isEqualTo(2);
            assertThat(update(c, "DELETE FROM ref WHERE id = 1")).isEqualTo(1);
            execute(c, "REPLACE INTO ref (id, name, price) VALUES (2, 'TWO', 22.00), (5, 'five', 5.00)");
            execute(c, "INSERT INTO ref (id, name, price) VALUES (5, 'x', 0) ON DUPLICATE KEY UPDATE price = price + 1");
        }
        List<String> expected = List.of("2 TWO 22.00", "3 three 30.00", "4 four 40.00", "5 five 6.00");
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                assertThat(rows(s, "SELECT id, name, price FROM wx.ref ORDER BY id")).as("copy on shard %d", shard)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void updateAndDeleteWithoutAKeyReachEveryShard() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE kl (id INT PRIMARY KEY, v INT)");
            StringJoiner rows = new StringJoiner(", ");
            for (int id = 1; id <= 40; id++) {
                rows.add("(" + id + ", " + id + ")");
            }
            assertThat(update(c, "INSERT INTO kl (id, v) VALUES " + rows)).isEqualTo(40);
            assertThat(update(c, "UPDATE kl SET v = v + 1000 WHERE v > 0")).isEqualTo(40);
            assertThat(update(c, "DELETE FROM kl WHERE MOD(v, 2) = 0")).isEqualTo(20);
            assertThat(update(c, "UPDATE kl SET v = -v WHERE id IN (1, 3, 5, 7, 9, 11)")).isEqualTo(6);
        }
        int total = 0;
        Set<Integer> shardsWithRows = new HashSet<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                for (String row : rows(s, "SELECT id, v FROM wx.kl")) {
                    int id = Integer.parseInt(row.split(" ")[0]);
                    int v = Integer.parseInt(row.split(" ")[1]);
                    assertThat(id % 2).as("even ids deleted on shard %d", shard).isEqualTo(1);
                    assertThat(v).as("row %d on shard %d", id, shard).isEqualTo(id <= 11 ? -(id + 1000) : id + 1000);
                    shardsWithRows.add(shard);
                    total++;
                }
            }
        }
        assertThat(total).isEqualTo(20);
        assertThat(shardsWithRows).hasSize(SHARDS);
    }

    @Test
    void anUnshardedTableLivesOnItsHomeShardOnly() throws Exception {
        try (Connection c = daemon.connectProxy("wx", "")) {
            execute(c, "CREATE TABLE solo (id INT PRIMARY KEY, v INT)");
            assertThat(update(c, "INSERT INTO solo (id, v) VALUES (1, 1), (2, 2), (3, 3)")).isEqualTo(3);
            assertThat(update(c, "UPDATE solo SET v = v * 2")).isEqualTo(3);
            assertThat(rows(c, "SELECT id, v FROM solo ORDER BY id")).containsExactly("1 2", "2 4", "3 6");
        }
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                assertThat(single(s, "SELECT COUNT(*) FROM wx.solo")).as("shard %d", shard).isEqualTo(shard == 3 ? 3 : 0);
            }
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void assertOnEveryShard(String sql, long expected) throws Exception {
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection s = settledShard(shard)) {
                assertThat(single(s, sql)).as("shard %d: %s", shard, sql).isEqualTo(expected);
            }
        }
    }

    private static long insertReturningKey(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(sql, Statement.RETURN_GENERATED_KEYS)).isEqualTo(1);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.next()).as("a generated key for " + sql).isTrue();
                return keys.getLong(1);
            }
        }
    }

    private static long lastInsertId(Connection c) throws SQLException {
        return single(c, "SELECT LAST_INSERT_ID()");
    }

    private static long single(Connection c, String sql) throws SQLException {
        List<Long> values = column(c, sql);
        assertThat(values).as(sql).hasSize(1);
        return values.get(0);
    }

    private static List<Long> column(Connection c, String sql) throws SQLException {
        return column(c, sql, Long.class);
    }

    private static <T> List<T> column(Connection c, String sql, Class<T> type) throws SQLException {
        List<T> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getObject(1, type));
            }
        }
        return out;
    }

    /** Rows as their values joined by spaces. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner(" ");
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private static int update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * A shard read directly, once no cross-shard commit is still under way: the proxy answers a
     * write over several shards at its decision and commits the branches after, so a read that
     * bypasses the proxy (and its commit fence) could see a branch not yet committed.
     */
    private Connection settledShard(int shard) throws Exception {
        Leftovers.awaitNothingOpen(daemon, Duration.ofSeconds(30));
        return daemon.connect(shard);
    }
}
