package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cleave scale} under the sysbench-like load the whole time: four shards become six (new
 * instances started, every buffer pool resized online, the reference table copied, buckets spread
 * to the new shards), then three (everything moves off shards 3-5, which stop; a table homed on
 * shard 3 moves too; the buffer pools grow). No client error, rows on every shard, totals unchanged,
 * each shard's @@innodb_buffer_pool_size its share. The state, not the config, says how many shards
 * run from then on: a restarted daemon runs three, and status says why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: sb, function: hash, buckets: 16, key_type: integer }
              tables:
                - { name: sbtest1, keyspace: sb, column: id }
                - { name: sbtest2, keyspace: sb, column: id }
                - { name: item, type: reference }
                - { name: settings, type: unsharded, shard: 3 }
            """;
    private static final int TABLES = 2;
    private static final int ROWS = 2000;
    private static final long MIB = 1024 * 1024;
    /** 192M in all: 48M on each of 4 shards, 32M on 6, 64M on 3. */
    private static final int POOL_PER_SHARD_MIB = 48;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(4).portRange(6).bufferPoolPerShardMiB(POOL_PER_SHARD_MIB)
                .extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE sb");
            s.execute("USE sb");
            SbLoad.prepare(c, TABLES, ROWS);
            s.execute("CREATE TABLE item (i_id INT PRIMARY KEY, name VARCHAR(40))");
            s.execute("INSERT INTO item VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            s.execute("CREATE TABLE settings (name VARCHAR(40) PRIMARY KEY, value VARCHAR(40))");
            s.execute("INSERT INTO settings VALUES ('color', 'blue'), ('size', 'large')");
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
    void fourShardsBecomeSixUnderWritesWithoutAClientError() throws Exception {
        scaleUnderLoad(6);
        assertThat(running()).hasSize(6);
        for (int shard = 0; shard < 6; shard++) {
            assertThat(global(shard, "innodb_buffer_pool_size")).as("buffer pool of shard %d", shard).isEqualTo(32 * MIB);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.item")).as("item on shard %d", shard).isEqualTo(3);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.sbtest1")).as("sbtest1 on shard %d", shard).isPositive();
        }
        assertTotals(6);
        assertThat(daemon.daemon().shardMaps().current().shardCount()).isEqualTo(6);
        assertThat(daemon.daemon().statusReport().instances()).extracting(InstanceStatus::bufferPoolBytes)
                .containsOnly(32 * MIB);
        assertThat(daemon.admin("GET", "/metrics", false).body()).contains("cleave_shards 6.0")
                .contains("cleave_scale_state{state=\"done\"} 1.0");
    }

    @Test
    @Order(2)
    void sixShardsBecomeThreeUnderWritesAndTheOthersStop() throws Exception {
        scaleUnderLoad(3);
        assertThat(running()).hasSize(3);
        for (int shard = 0; shard < 3; shard++) {
            assertThat(global(shard, "innodb_buffer_pool_size")).as("buffer pool of shard %d", shard).isEqualTo(64 * MIB);
            assertThat(global(shard, "auto_increment_increment")).isEqualTo(3);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.sbtest1")).as("sbtest1 on shard %d", shard).isPositive();
        }
        assertTotals(3);
        TableRule settings = daemon.daemon().shardMaps().current().routing(daemon.daemon().config().sharding().topology())
                .ruleFor("settings");
        assertThat(settings).isInstanceOf(TableRule.Unsharded.class);
        int home = ((TableRule.Unsharded) settings).homeShard();
        assertThat(home).as("settings left shard 3").isLessThan(3);
        assertThat(count(home, "SELECT COUNT(*) FROM sb.settings")).isEqualTo(2);
        try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT value FROM settings WHERE name = 'color'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("blue");
        }
        for (int shard = 3; shard < 6; shard++) {
            assertThat(Files.isDirectory(home(shard))).as("the datadir of shard %d stays", shard).isTrue();
        }
        assertThat(this.home.serverPids().keySet()).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    @Order(3)
    void aRestartedDaemonRunsTheStatesCountAndSaysWhyAndPurgeDeletesWhatWasLeft() throws Exception {
        daemon.close();
        daemon = home.start();
        assertThat(running()).hasSize(3);
        CleaveJar.Result status = CleaveJar.run(home, "status");
        assertThat(status.out()).contains("the config asks for 4 shards; 'cleave scale' changed that to 3");
        try (Connection c = daemon.connectProxy("sb", "")) {
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest1")).isEqualTo(ROWS);
        }
        CleaveJar.Result purge = CleaveJar.run(home, "scale", "--purge");
        assertThat(purge.code()).as(purge.out()).isZero();
        for (int shard = 3; shard < 6; shard++) {
            assertThat(Files.exists(home(shard))).as("the datadir of shard %d is gone", shard).isFalse();
        }
        assertThat(Files.isDirectory(home(2))).isTrue();
    }

    private void scaleUnderLoad(int shards) throws Exception {
        try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), "sb"), 4, TABLES, ROWS)) {
            load.awaitTransactions(30, Duration.ofMinutes(1));
            CleaveJar.Result r = CleaveJar.run(home, "scale", "--shards", String.valueOf(shards), "--wait");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).contains("done");
            load.awaitTransactions(30, Duration.ofMinutes(1));
            load.stopAndCheck();
        }
    }

    private List<InstanceStatus> running() {
        return daemon.daemon().statusReport().instances().stream().filter(i -> i.state() == InstanceState.RUNNING).toList();
    }

    private void assertTotals(int shards) throws SQLException {
        for (int t = 1; t <= TABLES; t++) {
            long total = 0;
            for (int shard = 0; shard < shards; shard++) {
                total += count(shard, "SELECT COUNT(*) FROM sb.sbtest" + t);
            }
            assertThat(total).as("rows of sbtest%d over the shards", t).isEqualTo(ROWS);
            try (Connection c = daemon.connectProxy("sb", "")) {
                assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest" + t)).isEqualTo(ROWS);
            }
        }
    }

    private java.nio.file.Path home(int shard) {
        return home.home().data().resolve("shard-" + shard);
    }

    private long global(int shard, String variable) throws SQLException {
        return count(shard, "SELECT @@GLOBAL." + variable);
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
