package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.manager.move.MoveKind;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code cleave shard-table} on a daemon with four shards, under the sysbench-like load the whole
 * time: a populated table that lives on shard 0 becomes sharded by id (its rows spread over every
 * shard, the rule kept in the state), a small one becomes a reference table (a copy on every
 * shard), and what cannot work is refused with nothing moved.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardTableIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: sb, function: hash, buckets: 32, key_type: integer }
              tables:
                - { name: sbtest1, keyspace: sb, column: id }
            """;
    static final int ROWS = 2000;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(4).bufferPoolPerShardMiB(32).extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE sb");
            s.execute("USE sb");
            SbLoad.prepare(c, 2, ROWS);
            s.execute("CREATE TABLE item (i_id INT PRIMARY KEY, name VARCHAR(40))");
            s.execute("INSERT INTO item VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            s.execute("CREATE TABLE log (id INT PRIMARY KEY, msg VARCHAR(40), UNIQUE KEY (msg))");
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    @Order(1)
    void aPopulatedTableIsShardedUnderWritesWithoutAClientError() throws Exception {
        assertThat(count(0, "SELECT COUNT(*) FROM sb.sbtest2")).as("on its home before").isEqualTo(ROWS);
        try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), "sb"), 4, 2, ROWS)) {
            load.awaitTransactions(50, Duration.ofMinutes(1));
            CleaveJar.Result started = CleaveJar.run(home, "shard-table", "sb.sbtest2", "--keyspace", "sb", "--column", "id",
                    "--wait");
            assertThat(started.code()).as(started.out()).isZero();
            assertThat(started.out()).contains("sharded on sb by id").contains("done");
            load.awaitTransactions(50, Duration.ofMinutes(1));
            load.stopAndCheck();
        }
        MoveRecord move = daemon.daemon().moves().list().stream().filter(m -> m.kind == MoveKind.TABLES).findFirst()
                .orElseThrow();
        assertThat(move.phase).isEqualTo(MovePhase.DONE);
        assertThat(move.pauseMillis).isGreaterThan(0);
        long total = 0;
        for (int shard = 0; shard < 4; shard++) {
            long n = count(shard, "SELECT COUNT(*) FROM sb.sbtest2");
            assertThat(n).as("rows of sbtest2 on shard %d", shard).isBetween(ROWS / 10L, ROWS / 2L);
            total += n;
        }
        assertThat(total).as("every row in exactly one place").isEqualTo(ROWS);
        try (Connection c = daemon.connectProxy("sb", "")) {
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest2")).isEqualTo(ROWS);
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest2 WHERE id = 77")).isEqualTo(1);
        }
        assertThat(daemon.daemon().shardMaps().current().rules().get("sbtest2"))
                .isEqualTo(new TableRule.Sharded("sbtest2", "sb", "id"));
        assertThat(Files.readString(home.home().shardMapFile())).as("the rule outlives the config")
                .contains("\"table\":\"sbtest2\",\"rule\":\"sharded\",\"keyspace\":\"sb\",\"column\":\"id\"");
        assertThat(daemon.daemon().shardMaps().current().ghosts()).isEmpty();
        assertThat(daemon.daemon().shardMaps().current().movingTables()).isEmpty();
    }

    @Test
    @Order(2)
    void aTableBecomesAReferenceTableOnEveryShard() throws Exception {
        CleaveJar.Result r = CleaveJar.run(home, "shard-table", "sb.item", "--reference", "--wait");
        assertThat(r.code()).as(r.out()).isZero();
        for (int shard = 0; shard < 4; shard++) {
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.item")).as("item on shard %d", shard).isEqualTo(3);
        }
        try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
            s.execute("INSERT INTO item VALUES (4, 'four')");
            // A join of the reference table with the sharded one stays on each shard.
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest2 t JOIN item i ON i.i_id = t.id % 4 + 1")).isEqualTo(ROWS);
        }
        for (int shard = 0; shard < 4; shard++) {
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.item")).as("the write reached shard %d", shard).isEqualTo(4);
        }
    }

    @Test
    @Order(3)
    void whatCannotWorkIsRefusedWithNothingMoved() throws Exception {
        CleaveJar.Result unique = CleaveJar.run(home, "shard-table", "sb.log", "--keyspace", "sb", "--column", "id");
        assertThat(unique.code()).as(unique.out()).isEqualTo(2);
        assertThat(unique.out()).contains("unique key msg [msg] of sb.log leaves out id");
        CleaveJar.Result again = CleaveJar.run(home, "shard-table", "sb.sbtest1", "--reference");
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.out()).contains("sbtest1 is sharded on sb by id already");
        CleaveJar.Result keyspace = CleaveJar.run(home, "shard-table", "sb.log", "--keyspace", "nope", "--column", "id");
        assertThat(keyspace.out()).contains("unknown keyspace 'nope'");
        CleaveJar.Result missing = CleaveJar.run(home, "shard-table", "sb.none", "--unsharded", "1");
        assertThat(missing.code()).as(missing.out()).isEqualTo(8);
        CleaveJar.Result usage = CleaveJar.run(home, "shard-table", "sb.log", "--reference", "--unsharded", "1");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.out()).contains("give one rule");
        assertThat(count(0, "SELECT COUNT(*) FROM sb.log")).isZero();
        assertThatThrownBy(() -> {
            try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
                s.execute("SELECT * FROM nothing_here");
            }
        }).isInstanceOf(SQLException.class);
    }

    private long count(int shard, String sql) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long proxyCount(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
