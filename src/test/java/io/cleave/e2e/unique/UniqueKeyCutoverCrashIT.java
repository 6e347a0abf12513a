package io.cleave.e2e.unique;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The daemon, run from the shipped jar, dies like kill -9 in the cutover of a {@code cleave
 * shard-table} of a table with a unique e-mail column: once its key is registered in the catalog
 * and the map not yet flipped, once right after the flip. While it runs and after the next daemon
 * adopts the shards, a client keeps trying to insert a value rows hold: each attempt gets the
 * server's 1062 or, while the key is not complete, the refusal saying so; none goes in. The next
 * daemon finishes the move; the key is then complete (no builds row, {@code cleave shards} says
 * {@code enforced}), every row has its lookup row, and a duplicate gets 1062.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UniqueKeyCutoverCrashIT {

    private static final int SHARDS = 2;
    private static final int ROWS = 500;

    private CleaveTestHome home;

    @BeforeAll
    void start() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml("""
                sharding:
                  keyspaces:
                    - { name: uid, function: hash, buckets: 64, key_type: integer }
                """).create();
        RunningDaemon daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE gu");
            for (MoveHooks.Point point : new MoveHooks.Point[]{MoveHooks.Point.KEYS_REGISTERED, MoveHooks.Point.AFTER_FLIP}) {
                String table = table(point);
                s.execute("CREATE TABLE gu." + table + " (id INT NOT NULL PRIMARY KEY, email VARCHAR(64),"
                        + " name VARCHAR(20), UNIQUE KEY email (email))");
                StringBuilder values = new StringBuilder();
                for (int i = 1; i <= ROWS; i++) {
                    values.append(values.isEmpty() ? "" : ", ").append("(").append(i).append(", 'v").append(i).append("@x', 'n')");
                }
                s.execute("INSERT INTO gu." + table + " VALUES " + values);
            }
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

    private static String table(MoveHooks.Point point) {
        return "u_" + point.name().toLowerCase();
    }

    @ParameterizedTest
    @EnumSource(value = MoveHooks.Point.class, names = {"KEYS_REGISTERED", "AFTER_FLIP"})
    void aDaemonKilledInTheCutoverLeavesNoKeyHalfRegistered(MoveHooks.Point point) throws Exception {
        String table = table(point);
        Path log = home.root().resolve("halt-" + point + ".log");
        Path gate = home.root().resolve("halt-now-" + point);
        Files.deleteIfExists(gate);
        Process up = CleaveJar.up(home, log, "-Dcleave.test.moveHaltAt=" + point, "-Dcleave.test.moveHaltGate=" + gate);
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicInteger refused = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = null;
        long id;
        try {
            AdminClient admin = CleaveJar.awaitAdmin(home, up, log);
            Connection proxy = CleaveJar.awaitProxy(home, up, log, "gu");
            writer = duplicates(proxy, table, stop, refused, wrong, true);
            id = admin.shardTable("gu." + table, Map.of("keyspace", "uid", "column", "id")).id;
            Files.createFile(gate);
            CleaveJar.awaitHalt(up, log, "test hook: halting move " + id + " at " + point);
        } finally {
            stop.set(true);
            up.destroyForcibly();
            if (writer != null) {
                writer.join();
            }
        }
        // Dead daemon: the key is in the catalog with its builds row, whether the map flipped or not.
        RunningDaemon next = home.start();
        AtomicBoolean stopNext = new AtomicBoolean();
        Thread nextWriter = duplicates(next.connectProxy("gu", ""), table, stopNext, refused, wrong, false);
        try {
            MoveRecord done = MoveChecks.awaitEnd(next.daemon().moves(), id, Duration.ofMinutes(2));
            assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
            Thread.sleep(300);
            stopNext.set(true);
            nextWriter.join();
            assertThat(wrong).isEmpty();
            assertThat(refused.get()).isPositive();
            assertThat(next.daemon().shardMaps().current().rules().get(table))
                    .isEqualTo(new TableRule.Sharded(table, "uid", "id"));
            try (Connection home0 = next.connect(0); Statement s = home0.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cleave.unique_key_builds")) {
                rs.next();
                assertThat(rs.getLong(1)).as("no key left half registered").isZero();
            }
            try (Connection c = next.connectProxy("gu", ""); Statement s = c.createStatement()) {
                assertThat(UniqueLookups.violations(next, c, SHARDS, "gu", table)).isEmpty();
                assertThat(UniqueLookups.rows(c, "gu." + table)).hasSize(ROWS);
                try {
                    s.executeUpdate("INSERT INTO " + table + " VALUES (999999, 'v3@x', 'dup')");
                    wrong.add("a duplicate went in after the move");
                } catch (SQLException e) {
                    assertThat(e.getErrorCode()).isEqualTo(1062);
                    assertThat(e.getMessage()).isEqualTo("Duplicate entry 'v3@x' for key 'email'");
                }
            }
            assertThat(wrong).isEmpty();
            CleaveJar.Result shards = CleaveJar.run(home, "shards");
            assertThat(shards.out()).contains("gu." + table).contains("enforced").doesNotContain("building");
        } finally {
            stopNext.set(true);
            nextWriter.join();
            next.closeLeavingInstancesRunning();
        }
    }

    /**
     * A client inserting values rows hold until {@code stop}: each must get the server's 1062 or, while the
     * key is not complete, the refusal saying so; {@code dies}: the daemon is killed under it.
     */
    private static Thread duplicates(Connection c, String table, AtomicBoolean stop, AtomicInteger refused,
                                     ConcurrentLinkedQueue<String> wrong, boolean dies) {
        Thread t = new Thread(() -> {
            try (c; Statement s = c.createStatement()) {
                for (int i = 0; !stop.get(); i++) {
                    int j = 1 + i % ROWS;
                    try {
                        s.executeUpdate("INSERT INTO " + table + " VALUES (" + (100_000 + i) + ", 'v" + j + "@x', 'dup')");
                        wrong.add("duplicate v" + j + "@x went in");
                    } catch (SQLException e) {
                        if (e.getErrorCode() == 1062 && e.getMessage().equals("Duplicate entry 'v" + j + "@x' for key 'email'")) {
                            refused.incrementAndGet();
                        } else if (!(e.getErrorCode() == 1235 && e.getMessage().contains("was interrupted (the daemon stopped)"))) {
                            if (dies && (e.getSQLState() == null || e.getSQLState().startsWith("08"))) {
                                return; // the daemon died under the client: expected
                            }
                            wrong.add("duplicate v" + j + "@x: " + e.getErrorCode() + " " + e.getMessage());
                        }
                    }
                }
            } catch (SQLException e) {
                if (!dies) {
                    wrong.add("client: " + e);
                }
            }
        });
        t.start();
        return t;
    }
}
