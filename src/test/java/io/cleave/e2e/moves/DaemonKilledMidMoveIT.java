package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.cleave.e2e.moves.MoveChecks.count;
import static io.cleave.e2e.moves.MoveChecks.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The daemon, run from the shipped jar in its own process, dies like kill -9 when a move reaches
 * each point ({@code -Dcleave.test.moveHaltAt}) while a client keeps adding to the moving rows
 * through the proxy. The next daemon adopts the shards and finishes the move from its journal and
 * the shard map: every row of the moved keys is on the target and only there, the row count is
 * unchanged, and every increment the client was told succeeded is there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DaemonKilledMidMoveIT {

    private static final int ROWS_PER_KEY = 5;

    private CleaveTestHome home;
    private long rows;

    @BeforeAll
    void start() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
        RunningDaemon daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE k");
            execute(c, "CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (w, i))");
            for (int w = 1; w <= 800; w += 100) {
                StringBuilder values = new StringBuilder();
                for (int key = w; key < w + 100; key++) {
                    for (int i = 0; i < ROWS_PER_KEY; i++) {
                        values.append(values.isEmpty() ? "" : ",").append("(").append(key).append(",").append(i).append(",0)");
                    }
                }
                execute(c, "INSERT INTO k.t (w, i, v) VALUES " + values);
            }
            rows = 800L * ROWS_PER_KEY;
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

    @ParameterizedTest
    @EnumSource(value = MoveHooks.Point.class, names = {"COPYING", "CATCHING_UP", "VERIFYING", "CUTTING_OVER", "AFTER_FLIP",
            "CLEANING_UP"})
    void theMoveFinishesAfterTheDaemonDiesAt(MoveHooks.Point point) throws Exception {
        // Each point moves keys of its own, among the 800 the table holds (the enum's order is not the test's).
        int from = List.of("COPYING", "CATCHING_UP", "VERIFYING", "CUTTING_OVER", "AFTER_FLIP", "CLEANING_UP")
                .indexOf(point.name()) * 100 + 1;
        assertThat(from).as("a point this test lists").isPositive();
        String keys = from + "-" + (from + 99);
        Path log = home.root().resolve("halt-" + point + ".log");
        // The move waits at the point until the test has its id (the daemon must answer the request first).
        Path gate = home.root().resolve("halt-now-" + point);
        Files.deleteIfExists(gate);
        Process up = CleaveJar.up(home, log, "-Dcleave.test.moveHaltAt=" + point, "-Dcleave.test.moveHaltGate=" + gate,
                "-Dcleave.move.chunk_rows=100");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acknowledged = new AtomicLong();
        Thread writer = null;
        long id;
        try {
            AdminClient admin = CleaveJar.awaitAdmin(home, up, log);
            Connection proxy = CleaveJar.awaitProxy(home, up, log, "k");
            writer = new Thread(() -> {
                try (proxy) {
                    int key = from;
                    while (!stop.get()) {
                        execute(proxy, "UPDATE k.t SET v = v + 1 WHERE w = " + key + " AND i = 0");
                        acknowledged.incrementAndGet();
                        key = key == from + 99 ? from : key + 1;
                    }
                } catch (SQLException e) {
                    // the daemon died under the client: expected
                }
            });
            writer.start();
            id = admin.startMove("w", keys, 1).id;
            Files.createFile(gate);
            CleaveJar.awaitHalt(up, log, "test hook: halting move " + id + " at " + point);
        } finally {
            stop.set(true);
            up.destroyForcibly();
            if (writer != null) {
                writer.join();
            }
        }
        RunningDaemon next = home.start();
        try {
            MoveRecord done = MoveChecks.awaitEnd(next.daemon().moves(), id, Duration.ofMinutes(2));
            assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
            String range = "w BETWEEN " + from + " AND " + (from + 99);
            assertThat(count(next, 0, "SELECT COUNT(*) FROM k.t WHERE " + range)).as("rows left on the source").isZero();
            assertThat(count(next, 1, "SELECT COUNT(*) FROM k.t WHERE " + range)).isEqualTo(100L * ROWS_PER_KEY);
            assertThat(count(next, 0, "SELECT COUNT(*) FROM k.t") + count(next, 1, "SELECT COUNT(*) FROM k.t"))
                    .isEqualTo(rows);
            // The statement in flight when the daemon died may or may not have committed.
            assertThat(count(next, 1, "SELECT SUM(v) FROM k.t WHERE " + range))
                    .as("increments the client was told about").isBetween(acknowledged.get(), acknowledged.get() + 1);
            assertThat(next.daemon().shardMaps().current().ghosts()).isEmpty();
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }
}
