package io.cleave.e2e.backup;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Point-in-time restores across a move of a hash keyspace's buckets (its rows told apart on the shards
 * by the bucket function): two shards, 16 buckets, a backup before the move, rows updated through the
 * proxy between; a cut recorded while the move of buckets 0-3 to shard 1 has copied rows there (held
 * before it verifies), and one after the move. Restored (into 2 and into 3 shards), each home holds
 * exactly the rows read through the proxy at its cut, each row once, on the shard its map routes it to.
 */
class PointInTimeAcrossHashMoveIT {

    private static final int ROWS = 3000;
    private static final String YAML = """
            sharding:
              keyspaces:
                - { name: ids, function: hash, buckets: 16, key_type: integer }
              tables:
                - { name: kv, keyspace: ids, column: id }
            """;

    @Test
    void restoresToCutsDuringAndAfterAMoveOfBuckets() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-pitr-hash-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        String backupYaml = ArchivedMoves.archiving(archive);
        CountDownLatch release = new CountDownLatch(1);
        try (ArchivedMoves slow = ArchivedMoves.slowCopies();
             CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(YAML + backupYaml).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE m");
                s.execute("CREATE TABLE m.kv (id BIGINT PRIMARY KEY, v BIGINT NOT NULL)");
                StringBuilder values = new StringBuilder();
                for (int i = 1; i <= ROWS; i++) {
                    values.append(i == 1 ? "" : ",").append('(').append(i).append(", 0)");
                }
                s.execute("INSERT INTO m.kv VALUES " + values);
            }
            BackupStatus base = BackupRestoreIT.awaitEnd(daemon, daemon.daemon().backups().start(archive.toString(), BackupEngine.LOGICAL).id());
            assertThat(base.phase()).as(base.message()).isEqualTo(BackupPhase.DONE);

            CutRecord during;
            Map<Long, Long> atDuring;
            CutRecord after;
            Map<Long, Long> atAfter;
            daemon.daemon().moves().testHooks(ArchivedMoves.holdBeforeVerifying(release));
            try (RowUpdates writer = new RowUpdates(daemon, "m", "kv", ROWS)) {
                MoveRecord move = daemon.daemon().moves().start("ids", "bucket:0-3", 1, "test");
                long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
                while (daemon.daemon().moves().get(move.id).rowsCopied == 0) {
                    assertThat(System.nanoTime()).as("the move copied nothing in a minute").isLessThan(deadline);
                    Thread.sleep(20);
                }
                writer.pause();
                during = archiver.round();
                assertThat(during).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                atDuring = rows(daemon);
                writer.resume();
                assertThat(daemon.daemon().moves().get(move.id).phase).isIn(MovePhase.COPYING, MovePhase.CATCHING_UP,
                        MovePhase.VERIFYING);
                release.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(3));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
                writer.pause();
                after = archiver.round();
                assertThat(after).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                atAfter = rows(daemon);
                assertThat(writer.errors).as("errors the writer saw").isZero();
                assertThat(writer.updates).as("updates between the cuts").isPositive();
            } finally {
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }
            assertThat(atAfter).isNotEqualTo(atDuring);

            var settings = daemon.daemon().config().backup();
            Object[][] points = {{during, atDuring, 2}, {after, atAfter, 3}};
            for (Object[] p : points) {
                CutRecord cut = (CutRecord) p[0];
                @SuppressWarnings("unchecked")
                Map<Long, Long> expected = (Map<Long, Long>) p[1];
                int shards = (int) p[2];
                Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                        .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(cut.id()),
                                work.resolve("at-" + cut.id()), OptionalInt.of(shards)));
                assertThat(r.backup()).isEqualTo(base.id());
                try (RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(shards),
                        BackupRestoreIT.freePort())) {
                    String what = "cut " + cut.id() + " into " + shards + " shards";
                    assertThat(h.assertRowsWhereRouted("m.kv", "ids", "id", what)).as("%s: rows on the shards", what)
                            .isEqualTo(ROWS);
                    try (Connection c = h.proxy("m")) {
                        assertThat(read(c)).as("%s: every row as read through the proxy at the cut", what)
                                .isEqualTo(expected);
                    }
                }
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    private static Map<Long, Long> rows(RunningDaemon daemon) throws SQLException {
        try (Connection c = daemon.connectProxy("m", "")) {
            return read(c);
        }
    }

    private static Map<Long, Long> read(Connection c) throws SQLException {
        return RowUpdates.read(c, "kv");
    }
}
