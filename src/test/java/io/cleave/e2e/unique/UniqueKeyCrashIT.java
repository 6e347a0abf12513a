package io.cleave.e2e.unique;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Kill -9 between a statement's lookup row and its row: of the daemon (it halts there, {@code
 * -Dcleave.test.uniqueHaltAt}), of the shard holding the lookup row and of the shard the row was
 * going to (the statement waits there, {@code -Dcleave.test.uniquePauseMs}, while the test kills
 * it). Afterwards no lookup row of the failed statement blocks the value, no row lacks its
 * lookup row, and the value can be inserted again. (The row's shard holds no part of the
 * statement while it waits: when its server is back before the pause ends, the statement goes
 * through, and its row and lookup row are both there.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UniqueKeyCrashIT {

    private static final int SHARDS = 2;

    private CleaveTestHome home;

    @BeforeAll
    void start() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        home = CleaveTestHome.builder().shards(SHARDS)
                .extraYaml(UniqueLookups.SHARDING + "    - { name: people, keyspace: uid, column: id }\n"
                        + "    - { name: notes, keyspace: uid, column: id }\n").create();
        RunningDaemon daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE gu");
            execute(c, UniqueLookups.TABLE);
            execute(c, "INSERT INTO gu.users VALUES (1, 'one@x', 'a'), (2, 'two@x', 'b'), (3, 'three@x', 'c')");
            execute(c, "CREATE TABLE gu.people (id INT NOT NULL PRIMARY KEY, email VARCHAR(64))");
            execute(c, "INSERT INTO gu.people VALUES (1, 'p1@x'), (2, 'p2@x'), (3, 'p3@x'), (4, 'p4@x')");
        } finally {
            daemon.closeLeavingInstancesRunning();
        }
    }

    @AfterAll
    void stop() {
        if (home != null) {
            home.close();
        }
    }

    @Test
    void daemonKilledBetweenLookupRowAndRow() throws Exception {
        String email = valueOnOtherShardThan("halt", 11);
        Path log = home.root().resolve("halt-lookup.log");
        Process up = CleaveJar.up(home, log, "-Dcleave.test.uniqueHaltAt=LOOKUP_WRITTEN");
        try {
            try (Connection c = CleaveJar.awaitProxy(home, up, log, "gu")) {
                assertThatThrownBy(() -> execute(c, "INSERT INTO gu.users VALUES (11, '" + email + "', 'h')"))
                        .isInstanceOf(SQLException.class);
            }
            assertThat(up.waitFor(30, TimeUnit.SECONDS)).as("the daemon halted").isTrue();
            assertThat(up.exitValue()).as(Files.readString(log)).isEqualTo(137);
            assertThat(Files.readString(log)).contains("test hook: halting with the lookup rows written");
        } finally {
            up.destroyForcibly();
        }
        RunningDaemon next = home.start();
        try {
            assertAfterwards(next, email, 11);
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    /**
     * Kill -9 of the daemon while ALTER TABLE ... ADD UNIQUE builds a lookup: the next start refuses
     * writes to the table (its lookup may miss rows, so a duplicate could get in) until the key is
     * dropped; added again (CREATE UNIQUE INDEX), it is built and enforced.
     */
    @Test
    void daemonKilledWhileBuildingALookup() throws Exception {
        Path log = home.root().resolve("halt-build.log");
        Process up = CleaveJar.up(home, log, "-Dcleave.test.uniqueHaltAt=BUILD_SCANNING");
        try {
            try (Connection c = CleaveJar.awaitProxy(home, up, log, "gu")) {
                assertThatThrownBy(() -> execute(c, "ALTER TABLE people ADD UNIQUE (email)"))
                        .isInstanceOf(SQLException.class);
            }
            assertThat(up.waitFor(30, TimeUnit.SECONDS)).as("the daemon halted").isTrue();
            assertThat(up.exitValue()).as(Files.readString(log)).isEqualTo(137);
            assertThat(Files.readString(log)).contains("test hook: halting with a unique key's build registered");
        } finally {
            up.destroyForcibly();
        }
        int other = 5;
        while (UniqueLookups.rowShard(other, SHARDS) == UniqueLookups.rowShard(1, SHARDS)) {
            other++;
        }
        int id = other;
        RunningDaemon next = home.start();
        try (Connection c = next.connectProxy("gu", "")) {
            assertThatThrownBy(() -> execute(c, "INSERT INTO people VALUES (" + id + ", 'p1@x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("the build of the global unique key email of"
                            + " people was interrupted");
            assertThatThrownBy(() -> execute(c, "UPDATE people SET email = 'p1@x' WHERE id = 2"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("was interrupted");
            execute(c, "DROP INDEX email ON people");
            execute(c, "INSERT INTO people VALUES (100, 'p100@x')");
            execute(c, "CREATE UNIQUE INDEX email ON people (email)");
            assertThatThrownBy(() -> execute(c, "INSERT INTO people VALUES (" + id + ", 'p1@x')"))
                    .isInstanceOf(SQLException.class).hasMessage("Duplicate entry 'p1@x' for key 'email'");
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    /** No move starts while a lookup is built (a row changing shards during the scan could be missed). */
    @Test
    void aMoveIsRefusedWhileALookupIsBuilt() throws Exception {
        execute(home, "CREATE TABLE gu.notes (id INT NOT NULL PRIMARY KEY, code VARCHAR(20))",
                "INSERT INTO gu.notes VALUES (1, 'n1'), (2, 'n2'), (3, 'n3')");
        Path log = home.root().resolve("pause-build.log");
        // Long enough for a 'cleave move' (a JVM of its own) to answer on a loaded host.
        Process up = CleaveJar.up(home, log, "-Dcleave.test.uniqueBuildPauseMs=20000");
        try {
            try (Connection c = CleaveJar.awaitProxy(home, up, log, "gu")) {
                CompletableFuture<Void> build = CompletableFuture.runAsync(() -> {
                    try {
                        execute(c, "CREATE UNIQUE INDEX code ON notes (code)");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(log).contains("test hook: pausing") && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(Files.readString(log)).contains("test hook: pausing");
                CleaveJar.Result move = CleaveJar.run(home, "move", "uid", "bucket:0-3", "--to", "1");
                assertThat(Files.readString(log)).as("the build was still under way when the move was asked for")
                        .doesNotContain("lookup of the global unique key code");
                assertThat(move.code()).as(move.out()).isNotZero();
                assertThat(move.out()).contains("a global unique key's lookup is being built");
                build.get(60, TimeUnit.SECONDS);
            }
        } finally {
            up.destroy();
            up.waitFor(60, TimeUnit.SECONDS);
            up.destroyForcibly();
        }
        RunningDaemon next = home.start();
        try (Connection c = next.connectProxy("gu", "")) {
            int other = 5;
            while (UniqueLookups.rowShard(other, SHARDS) == UniqueLookups.rowShard(1, SHARDS)) {
                other++;
            }
            int id = other;
            assertThatThrownBy(() -> execute(c, "INSERT INTO notes VALUES (" + id + ", 'n1')"))
                    .isInstanceOf(SQLException.class).hasMessage("Duplicate entry 'n1' for key 'code'");
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    private static void execute(CleaveTestHome home, String... statements) throws Exception {
        RunningDaemon daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            for (String sql : statements) {
                execute(c, sql);
            }
        } finally {
            daemon.closeLeavingInstancesRunning();
        }
    }

    @Test
    void lookupShardKilledBetweenLookupRowAndRow() throws Exception {
        String email = valueOnOtherShardThan("lk", 12);
        shardKilledMidStatement(email, 12, UniqueLookups.lookupShard(email, SHARDS));
    }

    @Test
    void rowShardKilledBetweenLookupRowAndRow() throws Exception {
        String email = valueOnOtherShardThan("rw", 13);
        shardKilledMidStatement(email, 13, UniqueLookups.rowShard(13, SHARDS));
    }

    private void shardKilledMidStatement(String email, int id, int victim) throws Exception {
        boolean inserted = false;
        Path log = home.root().resolve("pause-" + id + ".log");
        Process up = CleaveJar.up(home, log, "-Dcleave.test.uniquePauseMs=3000");
        try {
            try (Connection c = CleaveJar.awaitProxy(home, up, log, "gu")) {
                CompletableFuture<Void> insert = CompletableFuture.runAsync(() -> {
                    try {
                        execute(c, "INSERT INTO gu.users VALUES (" + id + ", '" + email + "', 'k')");
                    } catch (SQLException e) {
                        throw new RuntimeException(e);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!Files.readString(log).contains("test hook: pausing") && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(Files.readString(log)).contains("test hook: pausing");
                long pid = home.serverPids().get(victim);
                new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
                try {
                    insert.get(60, TimeUnit.SECONDS);
                    // The row's shard had no part in the transaction yet: back within the pause, it takes the row.
                    assertThat(victim).as("only the row's shard can be back in time").isEqualTo(
                            UniqueLookups.rowShard(id, SHARDS));
                    inserted = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e).hasCauseInstanceOf(RuntimeException.class);
                }
            }
        } finally {
            up.destroy();
            up.waitFor(60, TimeUnit.SECONDS);
            up.destroyForcibly();
        }
        RunningDaemon next = home.start();
        try {
            if (inserted) {
                assertKept(next, email, id);
            } else {
                assertAfterwards(next, email, id);
            }
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    /** The statement went through: its row and its lookup row are both there, and the value is taken. */
    private static void assertKept(RunningDaemon daemon, String email, int id) throws Exception {
        assertThat(UniqueLookups.lookupRows(daemon, SHARDS)).containsEntry(email, List.of((long) id));
        try (Connection c = daemon.connectProxy("gu", "")) {
            assertThat(UniqueLookups.rows(c)).containsEntry((long) id, email);
            assertThatThrownBy(() -> execute(c, "INSERT INTO gu.users VALUES (" + (id + 100) + ", '" + email + "', 'x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Duplicate entry '" + email + "' for key 'email'");
            assertThat(UniqueLookups.violations(daemon, c, SHARDS)).isEmpty();
        }
    }

    /** The failed statement left nothing; the value goes in now, once; the invariant holds. */
    private static void assertAfterwards(RunningDaemon daemon, String email, int id) throws Exception {
        assertThat(UniqueLookups.lookupRows(daemon, SHARDS)).as("no lookup row of the failed statement")
                .doesNotContainKey(email);
        try (Connection c = daemon.connectProxy("gu", "")) {
            assertThat(UniqueLookups.rows(c)).doesNotContainKey((long) id);
            execute(c, "INSERT INTO gu.users VALUES (" + id + ", '" + email + "', 'again')");
            assertThatThrownBy(() -> execute(c, "INSERT INTO gu.users VALUES (" + (id + 100) + ", '" + email + "', 'x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Duplicate entry '" + email + "' for key 'email'");
            assertThat(UniqueLookups.violations(daemon, c, SHARDS)).isEmpty();
        }
    }

    /** A value whose lookup row is on the other shard than row {@code id}'s. */
    private static String valueOnOtherShardThan(String prefix, int id) {
        for (int i = 0; ; i++) {
            String email = prefix + i + "@x";
            if (UniqueLookups.lookupShard(email, SHARDS) != UniqueLookups.rowShard(id, SHARDS)) {
                return email;
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
