package io.cleave.e2e.backup;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.move.MoveHooks;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A point-in-time restore to a cut recorded while {@code cleave scale} added a shard: two shards,
 * ledgered cross-shard bank transfers running all along, a backup before the scale; the scale to
 * three shards held while its first move (the new shard's copy of the reference table, whose cutover
 * adds the shard to the map) is about to verify, a cut recorded then (the map: two shards, every
 * table marked as moving), the scale finished (the rebalancer's moves onto the new shard included).
 * Restored from the backup before the scale into three shards, the home holds exactly that cut of
 * the clients' history (the bank's total, every transfer acknowledged before it, none begun after it,
 * none by half, nothing prepared), every row on the shard the restored map routes it to, and the
 * reference table whole on every shard.
 */
class PointInTimeDuringScaleIT {

    private static final int BRANCH_NAMES = 300;

    @Test
    void aCutWhileAScaleAddsAShardRestoresAsClientsSawIt() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-pit-scale-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        CountDownLatch atVerify = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).portRange(3)
                .extraYaml(ArchivedMoves.TWO_SHARD_BANK + ArchivedMoves.archiving(archive)).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                LedgeredTransfers.create(c, BackupAtOneCutIT.SHAPE);
                s.execute("CREATE TABLE bank.branch_names (branch INT PRIMARY KEY, name VARCHAR(40) NOT NULL)");
                StringBuilder names = new StringBuilder();
                for (int b = 1; b <= BRANCH_NAMES; b++) {
                    names.append(b == 1 ? "" : ",").append('(').append(b).append(", 'branch ").append(b).append("')");
                }
                s.execute("INSERT INTO bank.branch_names VALUES " + names);
            }
            String before = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                    BackupEngine.LOGICAL));

            long[] duringScale = new long[2];
            CutRecord adding;
            Map<Long, LedgeredTransfers.Outcome> outcomes;
            daemon.daemon().moves().testHooks((point, id) -> {
                if (point == MoveHooks.Point.VERIFYING && atVerify.getCount() > 0) {
                    atVerify.countDown();
                    try {
                        release.await(2, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            try (LedgeredTransfers load = new LedgeredTransfers(BackupAtOneCutIT.SHAPE, 2, home.proxyPort(), 29)) {
                load.start(4);
                load.awaitAcknowledged(100);
                daemon.daemon().scale().start(3);
                assertThat(atVerify.await(2, TimeUnit.MINUTES)).as("the scale's first move reached its verification")
                        .isTrue();
                load.awaitAcknowledged(100);
                ShardMap held = daemon.daemon().shardMaps().current();
                assertThat(held.movingTables()).as("the scale's move in the map").containsKey(ShardMap.EVERY_TABLE);
                assertThat(held.shardCount()).as("the map before the new shard's cutover").isEqualTo(2);
                duringScale[0] = System.nanoTime();
                adding = archiver.round();
                duringScale[1] = System.nanoTime();
                assertThat(adding).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                assertThat(adding.mapVersion()).isEqualTo(held.version());
                release.countDown();
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (daemon.daemon().scale().running()) {
                    assertThat(System.nanoTime()).as("the scale ends within 3 minutes").isLessThan(deadline);
                    Thread.sleep(100);
                }
                assertThat(daemon.daemon().scale().status().state()).isEqualTo("done");
                assertThat(daemon.daemon().shardMaps().current().shardCount()).isEqualTo(3);
                load.awaitAcknowledged(50);
                load.close();
                outcomes = load.outcomes();
                System.out.println("PointInTimeDuringScaleIT: " + load.summary());
                assertThat(load.errors()).as("errors clients saw").isEmpty();
            } finally {
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }

            try (RestoredHome h = ArchivedMoves.restoreCut(daemon.daemon().config().backup(), archive, adding, before,
                    work.resolve("adding"), 3)) {
                String what = "cut " + adding.id() + " (a shard being added) into 3 shards";
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, duringScale[0], duringScale[1], what);
                assertThat(h.assertRowsWhereRouted("bank.entries", "branch", "branch", what)).isPositive();
                for (int s = 0; s < 3; s++) {
                    try (Connection c = h.shard(s)) {
                        assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM bank.branch_names"))
                                .as("%s: the reference table on shard %d", what, s).isEqualTo(BRANCH_NAMES);
                    }
                }
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }
}
