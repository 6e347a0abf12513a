package io.cleave.e2e.onesrv;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DDL made to fail on one shard by what an operator placed there by hand: a CREATE is undone where
 * it applied (no drift from it), while the object placed by hand is drift that {@code cleave status}
 * shows and {@code cleave repair} fixes; a DROP that cannot be undone leaves drift that status
 * shows and repair completes once its cause is gone.
 */
@ServerMatrix
class SchemaDriftIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE shop");
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

    /** Runs {@code sql} on one shard directly, as an operator would by hand. */
    private static void onShard(int shard, String sql) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static boolean tableOnShard(int shard, String table) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = '" + table + "'")) {
            r.next();
            return r.getInt(1) == 1;
        }
    }

    private static String status() throws Exception {
        CleaveJar.Result r = CleaveJar.run(home, "status");
        assertThat(r.code()).as(r.out()).isZero();
        return r.out();
    }

    @Test
    void aNameClashOnOneShardLeavesNoHalfMadeTableAndRepairMakesTheShardsAlike() throws Exception {
        onShard(1, "CREATE TABLE shop.clash (x INT)");
        assertThat(status()).contains("table shop.clash: on shard(s) [1], missing on shard(s) [0]");

        try (Connection c = daemon.connectProxy("shop", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("CREATE TABLE clash (id INT PRIMARY KEY)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1050);
                        assertThat(e.getMessage()).contains("undone on shard(s) [0]");
                    });
        }
        assertThat(tableOnShard(0, "clash")).as("the CREATE was undone where it had applied").isFalse();

        CleaveJar.Result repair = CleaveJar.run(home, "repair");
        assertThat(repair.code()).as(repair.out()).isZero();
        assertThat(repair.out()).contains("created table shop.clash on shard 0 as shard 1 has it");
        assertThat(tableOnShard(0, "clash")).isTrue();
        assertThat(status()).doesNotContain("shop.clash");
    }

    @Test
    void aDropRefusedOnOneShardIsShownAndCompletedByRepairOnceItsCauseIsGone() throws Exception {
        try (Connection c = daemon.connectProxy("shop", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE parent (id INT PRIMARY KEY) ENGINE=InnoDB");
        }
        // By hand on shard 1: a table whose foreign key keeps parent from being dropped there.
        onShard(1, "CREATE TABLE shop.child (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES shop.parent (id))");
        try (Connection c = daemon.connectProxy("shop", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("DROP TABLE parent")).isInstanceOfSatisfying(SQLException.class, e ->
                    assertThat(e.getMessage()).contains("applied on shard(s) [0] but failed on shard(s) [1]")
                            .contains("cleave repair"));
        }
        assertThat(status()).contains("'DROP TABLE parent' applied on shard(s) [0] but not on shard(s) [1]")
                .contains("table shop.parent: on shard(s) [1], missing on shard(s) [0]");

        CleaveJar.Result stillBlocked = CleaveJar.run(home, "repair");
        assertThat(stillBlocked.code()).as("the DROP fails again while the foreign key holds: %s", stillBlocked.out())
                .isEqualTo(1);
        assertThat(stillBlocked.out()).contains("'DROP TABLE parent' fails again on shard 1");
        assertThat(tableOnShard(0, "parent")).as("repair does not undo the client's DROP").isFalse();

        onShard(1, "DROP TABLE shop.child");
        CleaveJar.Result repaired = CleaveJar.run(home, "repair");
        assertThat(repaired.code()).as(repaired.out()).isZero();
        assertThat(tableOnShard(1, "parent")).isFalse();
        assertThat(status()).contains("schemas of the shards: alike");
    }
}
