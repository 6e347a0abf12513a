package io.cleave.e2e.backup;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cut recorded while a table move ({@code cleave shard-table}) has copied an unsharded table's rows
 * to the shards of its keyspace but not cut over cannot be restored (the copies on the shard that
 * keeps its own rows cannot be told from them): the restore is refused, naming the move and the
 * cuts that can be reached, and a cut recorded after the move ended, from the same backup before it,
 * restores the table sharded, every row once and where the restored map routes it.
 */
class PointInTimeDuringTableMoveIT {

    private static final int ROWS = 300;

    @Test
    void aCutDuringATableMoveIsRefusedSayingSoAndOneAfterItRestores() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-pit-table-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        CountDownLatch release = new CountDownLatch(1);
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2)
                .extraYaml(MoveChecks.TWO_RANGES + ArchivedMoves.archiving(archive)).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS k");
                s.execute("CREATE TABLE k.u (id INT PRIMARY KEY, v INT NOT NULL)");
                StringBuilder insert = new StringBuilder("INSERT INTO k.u VALUES ");
                for (int id = 1; id <= ROWS; id++) {
                    insert.append(id == 1 ? "" : ",").append('(').append(id * 10).append(',').append(id).append(')');
                }
                s.execute(insert.toString());
            }
            String before = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                    BackupEngine.LOGICAL));
            CutRecord during;
            try {
                daemon.daemon().moves().testHooks(ArchivedMoves.holdBeforeVerifying(release));
                MoveRecord move = daemon.daemon().moves().shardTable("k.u", new TableRule.Sharded("u", "w", "id"));
                awaitVerifying(daemon, move.id);
                assertThat(daemon.daemon().shardMaps().current().movingTables()).as("the table move in the map")
                        .containsKey("u");
                during = archiver.round();
                assertThat(during).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                release.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(2));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
            } finally {
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }
            CutRecord after = archiver.round();
            assertThat(after).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();

            var settings = daemon.daemon().config().backup();
            assertThatThrownBy(() -> new Restore(settings, System.getenv(), line -> { })
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(during.id()),
                            work.resolve("during"), OptionalInt.empty())))
                    .satisfies(e -> System.out.println("PointInTimeDuringTableMoveIT: " + e.getMessage()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cut " + during.id() + " ")
                    .hasMessageContaining("was moving table u at that cut")
                    .hasMessageContaining("Restore a cut recorded before it began or after it ended")
                    .hasMessageContaining("(from backup " + before + ")");
            assertThat(work.resolve("during")).as("nothing made for a refused restore").doesNotExist();

            Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(after.id()),
                            work.resolve("after"), OptionalInt.empty()));
            assertThat(r.backup()).as("the base of the cut after the move").isEqualTo(before);
            assertThat(r.problems()).isEmpty();
            try (RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(2),
                    BackupRestoreIT.freePort())) {
                assertThat(h.assertRowsWhereRouted("k.u", "w", "id", "cut " + after.id())).as("rows of k.u on the shards")
                        .isEqualTo(ROWS);
                try (Connection c = h.proxy("k")) {
                    assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM u")).isEqualTo(ROWS);
                    assertThat(RestoredHome.single(c, "SELECT SUM(v) FROM u")).isEqualTo((long) ROWS * (ROWS + 1) / 2);
                }
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    private static void awaitVerifying(RunningDaemon daemon, long move) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (daemon.daemon().moves().get(move).phase != MovePhase.VERIFYING) {
            MovePhase phase = daemon.daemon().moves().get(move).phase;
            assertThat(phase.terminal()).as("move %d ended before it was held: %s", move, phase).isFalse();
            assertThat(System.nanoTime()).as("move %d never reached VERIFYING", move).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
