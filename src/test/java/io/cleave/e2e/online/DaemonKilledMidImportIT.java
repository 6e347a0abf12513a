package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.imports.ImportStatus;
import io.cleave.manager.move.MoveHooks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The daemon, run from the shipped jar, dies like kill -9 in the middle of an import (while it
 * copies; with {@code -Dimport.long=true} also while it catches up and right after the cutover)
 * as a client writes through the proxy. The next daemon finds the attached source in its state,
 * serves it again and finishes the import: the shards end with exactly the source's rows,
 * including every write the client was told had succeeded.
 */
class DaemonKilledMidImportIT {

    private StandaloneServer source;
    private CleaveTestHome home;

    static List<MoveHooks.Point> points() {
        return Boolean.getBoolean("import.long")
                ? List.of(MoveHooks.Point.COPYING, MoveHooks.Point.CATCHING_UP, MoveHooks.Point.AFTER_FLIP)
                : List.of(MoveHooks.Point.COPYING);
    }

    @BeforeEach
    void start() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        source = StandaloneServer.start(List.of());
        ImportIT.prepareSource(source);
        home = CleaveTestHome.builder().shards(2).bufferPoolPerShardMiB(32).extraYaml(ImportIT.SHARDING).create();
    }

    @AfterEach
    void stop() {
        if (home != null) {
            home.close();
        }
        if (source != null) {
            source.close();
        }
    }

    @ParameterizedTest
    @MethodSource("points")
    void theImportFinishesAfterTheDaemonDiesAt(MoveHooks.Point point) throws Exception {
        Path log = home.root().resolve("halt.log");
        // The import waits at the point until the client has written through the proxy, then halts.
        Path gate = home.root().resolve("halt-now");
        Files.deleteIfExists(gate);
        Process up = CleaveJar.up(home, log, "-Dcleave.test.moveHaltAt=" + point, "-Dcleave.test.moveHaltGate=" + gate,
                "-Dcleave.move.chunk_rows=200");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acknowledged = new AtomicLong();
        Thread writer = null;
        try {
            CleaveJar.awaitProxy(home, up, log, "").close();
            CleaveJar.Result started = CleaveJar.run(home, "import", "--from", "mysql://importer:" + ImportIT.URL_PASSWORD
                    + "@127.0.0.1:" + source.port() + "/shop");
            assertThat(started.code()).as(started.out()).isZero();
            Connection proxy = CleaveJar.awaitProxy(home, up, log, "shop");
            writer = new Thread(() -> {
                try (proxy; Statement s = proxy.createStatement()) {
                    int id = 1;
                    while (!stop.get()) {
                        s.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + id);
                        acknowledged.incrementAndGet();
                        id = id % ImportIT.ROWS + 1;
                    }
                } catch (SQLException e) {
                    // the daemon died under the client: expected
                }
            });
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acknowledged.get() == 0 && writer.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Files.createFile(gate);
            assertThat(up.waitFor(120, TimeUnit.SECONDS)).as("the daemon halted:\n%s", Files.readString(log)).isTrue();
            assertThat(up.exitValue()).as(Files.readString(log)).isEqualTo(137);
            assertThat(Files.readString(log)).contains("test hook: halting move").contains("at " + point)
                    .doesNotContain(ImportIT.PASSWORD);
        } finally {
            stop.set(true);
            up.destroyForcibly();
            if (writer != null) {
                writer.join();
            }
        }
        assertThat(acknowledged.get()).as("the client wrote before the daemon died").isPositive();
        RunningDaemon next = home.start();
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            ImportStatus s = next.daemon().imports().status();
            while (!s.state().equals("done")) {
                assertThat(s.state()).as(s.message()).isNotEqualTo("failed");
                assertThat(System.nanoTime()).as("the import ends within 3 minutes: %s", s).isLessThan(deadline);
                Thread.sleep(100);
                s = next.daemon().imports().status();
            }
            for (int t = 1; t <= ImportIT.TABLES; t++) {
                String table = "shop.sbtest" + t;
                long[] onSource = ImportIT.countAndSum(source.connect("app", "app", "shop"), table);
                long rows = 0;
                long sum = 0;
                for (int shard = 0; shard < 2; shard++) {
                    long[] here = ImportIT.countAndSum(next.connect(shard), table);
                    rows += here[0];
                    sum += here[1];
                }
                assertThat(new long[] {rows, sum}).as("%s on the shards is the source's, every acknowledged write in it", table)
                        .containsExactly(onSource);
            }
            assertThat(Long.parseLong(source.root("SELECT SUM(k) - " + baseline() + " FROM shop.sbtest1")))
                    .as("increments the client was told about").isBetween(acknowledged.get(), acknowledged.get() + 1);
            assertThat(next.daemon().shardMaps().current().attached()).isEmpty();
            assertThat(Files.exists(home.home().state().resolve("import-source"))).isFalse();
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    /** SUM(k) of sbtest1 as {@code SbLoad.prepare} made it (k = id % 1000). */
    private static long baseline() {
        long sum = 0;
        for (int id = 1; id <= ImportIT.ROWS; id++) {
            sum += id % 1000;
        }
        return sum;
    }
}
