package io.cleave.e2e.unique;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.imports.ImportStatus;
import io.cleave.manager.move.MoveKind;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.unique.UniqueIndex;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table with a unique e-mail column, its rows on one server, becomes sharded by id while two
 * clients write it ({@link KeyWriters}): once by {@code cleave shard-table} from the default shard,
 * once by {@code cleave import} from a plain server. Every duplicate attempt before, during and
 * after the cutover gets the server's own 1062 (before it a plain server answers; after it the
 * proxy, from the key's lookup), no duplicate gets in, every valid insert does, reads by the key
 * find their one row; afterwards the key is a global unique key like one declared with the table:
 * every row has its lookup row, reads by it are routed by the lookup, {@code cleave shards} lists it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UniqueKeysShardTableAndImportIT {

    private static final int SHARDS = 3;
    private static final int ROWS = 3000;
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: uid, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: members, keyspace: uid, column: id }
            """;
    private static final String TABLE = " (id INT NOT NULL PRIMARY KEY, email VARCHAR(64), name VARCHAR(20),"
            + " UNIQUE KEY email (email))";

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private StandaloneServer source;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(SHARDING).create();
        daemon = home.start();
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (source != null) {
            source.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    @Order(1)
    void shardTableUnderDuplicateAttemptsLetsNoneInAndEnforcesTheKeyAcrossShards() throws Exception {
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE gu");
            s.execute("CREATE TABLE gu.users" + TABLE);
            fill(s, "gu.users");
        }
        try (KeyWriters writers = new KeyWriters(() -> daemon.connectProxy("gu", ""), "gu.users", ROWS + 1)) {
            writers.awaitInserts(50);
            CleaveJar.Result r = CleaveJar.run(home, "shard-table", "gu.users", "--keyspace", "uid", "--column", "id",
                    "--wait");
            assertThat(r.code()).as(r.out()).isZero();
            writers.mark();
            writers.awaitInserts(200);
            writers.close();
            assertThat(writers.failures()).isEmpty();
            assertThat(writers.refusedBefore()).as("duplicates a plain server refused before the cutover").isPositive();
            assertThat(writers.refusedAfter()).as("duplicates the proxy refused after it").isPositive();
            checkEnforced("gu", "users", writers.committed());
        }
        MoveRecord move = daemon.daemon().moves().list().stream().filter(m -> m.kind == MoveKind.TABLES).findFirst()
                .orElseThrow();
        System.out.printf("shard-table of %d rows with a global unique key: clients paused %.1f ms%n", ROWS,
                move.pauseMillis);
    }

    @Test
    @Order(2)
    void importUnderDuplicateAttemptsLetsNoneInAndEnforcesTheKeyAcrossShards() throws Exception {
        source = StandaloneServer.start(List.of());
        source.root("CREATE DATABASE gi; CREATE USER app@'%' IDENTIFIED BY 'app'; GRANT ALL ON *.* TO app@'%';"
                + " CREATE USER importer@'%' IDENTIFIED BY 'imp';"
                + " GRANT SELECT, INSERT, UPDATE, DELETE, SHOW VIEW, TRIGGER, REPLICATION CLIENT, REPLICATION SLAVE"
                + " ON *.* TO importer@'%'");
        String plainAnswer;
        try (Connection c = source.connect("app", "app", "gi"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE members" + TABLE);
            fill(s, "members");
            plainAnswer = duplicateAnswer(s, "members");
        }
        CleaveJar.Result started = CleaveJar.run(home, "import", "--from",
                "mysql://importer:imp@127.0.0.1:" + source.port() + "/gi");
        assertThat(started.code()).as(started.out()).isZero();
        try (KeyWriters writers = new KeyWriters(() -> daemon.connectProxy("gi", ""), "gi.members", ROWS + 1)) {
            writers.awaitInserts(50);
            ImportStatus done = daemon.daemon().imports().status();
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (!done.state().equals("done") && !done.state().equals("failed") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                done = daemon.daemon().imports().status();
            }
            assertThat(done.state()).as(done.message()).isEqualTo("done");
            writers.mark();
            writers.awaitInserts(200);
            writers.close();
            assertThat(writers.failures()).isEmpty();
            assertThat(writers.refusedBefore()).as("duplicates the source refused before the cutover").isPositive();
            assertThat(writers.refusedAfter()).as("duplicates the proxy refused after it").isPositive();
            checkEnforced("gi", "members", writers.committed());
        }
        try (Connection c = daemon.connectProxy("gi", ""); Statement s = c.createStatement()) {
            assertThat(duplicateAnswer(s, "members")).as("the proxy answers as the plain server did").isEqualTo(plainAnswer);
        }
    }

    private static void fill(Statement s, String table) throws SQLException {
        for (int from = 1; from <= ROWS; from += 500) {
            StringBuilder values = new StringBuilder();
            for (int i = from; i < from + 500; i++) {
                values.append(values.isEmpty() ? "" : ", ").append("(").append(i).append(", 'v").append(i).append("@x', 'n')");
            }
            s.execute("INSERT INTO " + table + " VALUES " + values);
        }
    }

    /** What a client is told for a row taking row 7's value in a multi-row INSERT, and what stays. */
    private static String duplicateAnswer(Statement s, String table) throws SQLException {
        String answer;
        try {
            s.executeUpdate("INSERT INTO " + table + " VALUES (2000001, 'new1@x', 'n'), (2000002, 'V7@X', 'n')");
            answer = "ok";
        } catch (SQLException e) {
            answer = e.getErrorCode() + " " + e.getSQLState() + " " + e.getMessage();
        }
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE id > 2000000")) {
            rs.next();
            return answer + "; rows left: " + rs.getLong(1);
        }
    }

    /** The key is a global unique key now: in the catalog, complete, every row in its lookup, reads routed by it. */
    private void checkEnforced(String schema, String table, int committed) throws Exception {
        try (Connection c = daemon.connectProxy(schema, ""); Statement s = c.createStatement()) {
            assertThat(UniqueLookups.violations(daemon, c, SHARDS, schema, table)).isEmpty();
            assertThat(UniqueLookups.rows(c, schema + "." + table)).hasSize(committed);
            try (ResultSet rs = s.executeQuery("EXPLAIN CLEAVE SELECT name FROM " + table + " WHERE email = 'v9@x'")) {
                StringBuilder plan = new StringBuilder();
                while (rs.next()) {
                    plan.append(rs.getString(1)).append(' ').append(rs.getString(2)).append('\n');
                }
                assertThat(plan.toString()).contains("cleave." + UniqueIndex.lookupName(schema, table, "email"));
            }
            for (int shard = 0; shard < SHARDS; shard++) {
                try (Connection direct = daemon.connect(shard); Statement d = direct.createStatement();
                     ResultSet rs = d.executeQuery("SELECT COUNT(*) FROM " + schema + "." + table)) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("rows of %s on shard %d", table, shard).isGreaterThan(ROWS / 10L);
                }
            }
        }
        try (Connection home0 = daemon.connect(0); Statement s = home0.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cleave.unique_key_builds")) {
            rs.next();
            assertThat(rs.getLong(1)).as("no key left half registered").isZero();
        }
        CleaveJar.Result shards = CleaveJar.run(home, "shards");
        assertThat(shards.out()).contains(schema + "." + table).contains("email").contains("enforced");
    }
}
