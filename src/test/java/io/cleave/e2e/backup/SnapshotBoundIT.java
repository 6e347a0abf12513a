package io.cleave.e2e.backup;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.e2e.support.TestServer;
import io.cleave.manager.backup.BackupHooks;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.BackupsReport;
import io.cleave.manager.config.BackupEngine;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code backup.max_snapshot_s} bounds how long a backup keeps the cut's snapshots open (they hold
 * back InnoDB's purge on every shard): a read in the snapshots held past it (the logical engine's
 * read of a table; the physical engine's checksum pass, on a server with its mariadb-backup) fails
 * the backup within a watch interval of the bound, saying so, with nothing listed as complete; the
 * held read is stopped, and the next backup completes. Without the bound the held backup would wait
 * until the test lets the read go, and complete.
 */
@ServerMatrix
class SnapshotBoundIT {

    private static final int BOUND_S = 10; // the smallest backup.max_snapshot_s the config takes

    @Test
    void theLogicalEnginesReadIsStoppedPastTheBound() throws Exception {
        heldPastTheBound(BackupEngine.LOGICAL);
    }

    @Test
    void thePhysicalEnginesChecksumPassIsStoppedPastTheBound() throws Exception {
        assumeFalse(TestServer.binary().equals("embedded"), "the embedded MariaDB 11.4 ships no mariadb-backup; run with"
                + " the second server (-Dcleave.it.server=$(scripts/debian-mariadb))");
        heldPastTheBound(BackupEngine.PHYSICAL);
    }

    private static void heldPastTheBound(BackupEngine engine) throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-bound-", BackupRestoreIT.SEARCHABLE);
        Path location = work.resolve("backups");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger held = new AtomicInteger();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2)
                .extraYaml(MoveChecks.TWO_RANGES + "backup:\n  max_snapshot_s: " + BOUND_S + "\n").create();
             RunningDaemon daemon = home.start()) {
            PhysicalBackupIT.twoRows(daemon);
            daemon.daemon().backups().testHooks(shard -> {
                if (shard == 1) {
                    held.incrementAndGet();
                    release.await(); // interrupted when the bound stops the reads
                }
            });
            BackupStatus ended;
            try {
                String id = daemon.daemon().backups().start(location.toString(), engine).id();
                ended = awaitEnd(daemon, id, Duration.ofSeconds(BOUND_S + 60));
            } finally {
                release.countDown();
                daemon.daemon().backups().testHooks(BackupHooks.NONE);
            }
            System.out.println("SnapshotBoundIT: " + engine + ": " + ended.message());
            assertThat(held.get()).as("reads held in shard 1's snapshot").isPositive();
            assertThat(ended.phase()).as("a %s backup whose snapshot read was held: %s", engine, ended).isEqualTo(BackupPhase.FAILED);
            assertThat(ended.message()).contains("past backup.max_snapshot_s (" + BOUND_S + " s)")
                    .contains("InnoDB's purge");
            assertThat(ended.snapshotMillis()).as("how long its snapshots were open")
                    .isGreaterThan(BOUND_S * 1000L).isLessThan((BOUND_S + 30) * 1000L);
            assertThat(daemon.daemon().backups().list(location.toString()).backups())
                    .noneSatisfy(e -> assertThat(e.complete()).isTrue());

            BackupStatus next = BackupRestoreIT.awaitEnd(daemon,
                    daemon.daemon().backups().start(location.toString(), engine).id());
            assertThat(next.phase()).as(next.message()).isEqualTo(BackupPhase.DONE);
            assertThat(daemon.daemon().backups().list(location.toString()).backups())
                    .filteredOn(BackupsReport.Entry::complete).extracting(BackupsReport.Entry::id).containsExactly(next.id());
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /** The backup's end, or its status at {@code limit}: a held backup the bound did not stop is still copying then. */
    private static BackupStatus awaitEnd(RunningDaemon daemon, String id, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        BackupStatus s = daemon.daemon().backups().status(id);
        while (!s.phase().terminal() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = daemon.daemon().backups().status(id);
        }
        return s;
    }
}
