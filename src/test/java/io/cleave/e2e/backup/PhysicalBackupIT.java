package io.cleave.e2e.backup;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.S3Server;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.e2e.support.TestServer;
import io.cleave.manager.admin.AdminError;
import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.physical.BackupTool;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.backup.restore.Verify;
import io.cleave.manager.backup.store.DirectoryStore;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.e2e.moves.MoveChecks;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The physical engine: where the shards' server has its own mariadb-backup (Debian's MariaDB 10.11,
 * the second server of the test run, with its mariadb-backup package), a backup taken with it while
 * cross-shard bank transfers run restores exactly one cut (the checks of {@link BackupAtOneCutIT})
 * into 2 shards (through a logical copy of the restored home), is verified by {@code --verify}, and
 * is a base for a restore to a later recorded cut; one taken while a move has copied its rows to the
 * target but not routed them there restores exactly its cut with those rows gone. Where no mariadb-backup fits (the embedded MariaDB 11.4
 * ships none), asking for it is refused with the reason and {@code auto} takes the logical engine.
 */
@ServerMatrix
class PhysicalBackupIT {

    private static final int WRITERS = 4;
    private static final int LOAD = 300;

    @Test
    void aPhysicalBackupUnderTransfersRestoresExactlyOneCut() throws Exception {
        assumeFalse(TestServer.binary().equals("embedded"), "the embedded MariaDB 11.4 ships no mariadb-backup, so the"
                + " physical engine cannot run on it (the refusal is tested there instead); run with the second server"
                + " (-Dcleave.it.server=$(scripts/debian-mariadb))");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(3)
                .extraYaml(BackupAtOneCutIT.SHARDING + ArchivedMoves.archiving(archive)).create();
             RunningDaemon daemon = home.start()) {
            BackupTool.Lookup tool = BackupTool.forServer(daemon.daemon().plan().binary(), System.getenv("PATH"));
            assertThat(tool.found()).as("a mariadb-backup for %s (scripts/debian-mariadb unpacks it beside the"
                    + " server): %s", daemon.daemon().plan().binary().describe(), tool.why()).isTrue();
            try (Connection c = daemon.connectProxy("", "")) {
                LedgeredTransfers.create(c, BackupAtOneCutIT.SHAPE);
            }
            long asked;
            long seenCut;
            String id;
            long laterAsked;
            CutRecord later;
            long laterSeen;
            Map<Long, LedgeredTransfers.Outcome> outcomes;
            CountDownLatch release = new CountDownLatch(1);
            long duringAsked;
            String during;
            long duringSeen;
            try (ArchivedMoves slow = ArchivedMoves.slowCopies();
                 LedgeredTransfers load = new LedgeredTransfers(BackupAtOneCutIT.SHAPE, 3, home.proxyPort(), 23)) {
                load.start(WRITERS);
                load.awaitAcknowledged(LOAD);
                asked = System.nanoTime();
                BackupStatus started = daemon.daemon().backups().start(archive.toString(), BackupEngine.PHYSICAL);
                assertThat(started.engine()).isEqualTo(BackupManifest.PHYSICAL);
                id = started.id();
                seenCut = awaitCutTaken(daemon, id);
                BackupStatus done = BackupRestoreIT.awaitEnd(daemon, id);
                assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
                System.out.printf("PhysicalBackupIT: backup %s: %,d bytes copied, %,d stored, snapshots open %d ms"
                        + " (checksums), %d ms%n", id, done.bytesRead(), done.storedBytes(), done.snapshotMillis(),
                        done.durationMillis());
                load.awaitAcknowledged(LOAD / 3);
                laterAsked = System.nanoTime();
                later = daemon.daemon().archiver().round();
                laterSeen = System.nanoTime();
                assertThat(later).as("a cut recorded: %s", daemon.daemon().archiver().lastProblem()).isNotNull();

                // A move held before it verifies: its copy of branches 1-50 is on shard 1, the map routes them to 0.
                daemon.daemon().moves().testHooks(ArchivedMoves.holdBeforeVerifying(release));
                MoveRecord move = daemon.daemon().moves().start("branch", "1-50", 1, "test");
                awaitCopying(daemon, move.id);
                load.awaitAcknowledged(LOAD / 3);
                duringAsked = System.nanoTime();
                BackupStatus startedDuring = daemon.daemon().backups().start(archive.toString(), BackupEngine.PHYSICAL);
                during = startedDuring.id();
                duringSeen = awaitCutTaken(daemon, during);
                BackupStatus doneDuring = BackupRestoreIT.awaitEnd(daemon, during);
                assertThat(doneDuring.phase()).as(doneDuring.message()).isEqualTo(BackupPhase.DONE);
                release.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(3));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
                load.close();
                outcomes = load.outcomes();
                System.out.println("PhysicalBackupIT: " + load.summary());
                assertThat(load.errors()).as("errors clients saw").isEmpty();
            } finally {
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }

            try (DirectoryStore store = new DirectoryStore(archive)) {
                BackupManifest m = new BackupCatalog(store).manifest(id);
                assertThat(m.engine()).as("the engine the manifest names").isEqualTo(BackupManifest.PHYSICAL);
                assertThat(m.copies()).hasSize(3).allSatisfy(c -> {
                    assertThat(c.stream()).as("shard %d's copy", c.shard()).isNotEmpty();
                    assertThat(c.binlogs()).as("shard %d's binlog to the cut", c.shard()).isNotEmpty();
                });
                assertThat(m.tables()).as("tables with their rows' checksums at the cut").isNotEmpty()
                        .allSatisfy(t -> assertThat(t.chunks()).isEmpty());
            }

            var settings = daemon.daemon().config().backup();
            try (DirectoryStore store = new DirectoryStore(archive)) {
                assertThat(ShardMapStore.parse(new BackupCatalog(store).manifest(during).shardMap()
                        .getBytes(StandardCharsets.UTF_8)).ghosts()).as("the move's copy, in backup " + during)
                        .isNotEmpty();
            }
            Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), during, OptionalLong.empty(), OptionalLong.empty(),
                            work.resolve("home3"), OptionalInt.empty()));
            assertThat(r.problems()).as("tables whose rows differ from the checksums taken at the cut").isEmpty();
            try (RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(3),
                    BackupRestoreIT.freePort())) {
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, duringAsked, duringSeen, "PhysicalBackupIT: physical"
                        + " backup " + during + " during a move");
            }

            Restore.Result r2 = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), id, OptionalLong.empty(), OptionalLong.empty(),
                            work.resolve("home2"), OptionalInt.of(2)));
            assertThat(r2.problems()).as("tables whose rows differ, through the logical copy into 2 shards").isEmpty();
            try (RestoredHome h = RestoredHome.start(r2.home(), r2.config(), BackupRestoreIT.freeBase(2),
                    BackupRestoreIT.freePort())) {
                assertThat(h.shards()).isEqualTo(2);
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, asked, seenCut, "PhysicalBackupIT: physical backup " + id
                        + " into 2 shards");
            }

            Verify.Report verified = new Verify(settings, System.getenv(), line -> { }).run(archive.toString(), id);
            assertThat(verified.problems()).as(verified.summary()).isEmpty();

            Restore.Result toLater = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(later.id()),
                            work.resolve("later"), OptionalInt.empty()));
            assertThat(toLater.backup()).as("the base of the later cut").isEqualTo(id);
            try (RestoredHome h = RestoredHome.start(toLater.home(), toLater.config(), BackupRestoreIT.freeBase(3),
                    BackupRestoreIT.freePort())) {
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, laterAsked, laterSeen, "PhysicalBackupIT: cut "
                        + later.id() + " from physical backup " + id);
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    @Test
    void aPhysicalBackupToS3RestoresExactlyItsCut() throws Exception {
        assumeMariadbBackup();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-s3-", BackupRestoreIT.SEARCHABLE);
        S3Server s3 = S3Server.startOrNull(work.resolve("moto.log"));
        assumeTrue(s3 != null, "moto's S3 server cannot run here (scripts/test installs moto[server])");
        String location = "s3://backups/physical";
        try (s3) {
            s3.createBucket("backups");
            System.setProperty("aws.accessKeyId", S3Server.ACCESS_KEY);
            System.setProperty("aws.secretAccessKey", S3Server.SECRET_KEY);
            try (CleaveTestHome home = CleaveTestHome.builder().shards(3).extraYaml(BackupAtOneCutIT.SHARDING
                    + "backup:\n  s3: { endpoint: \"" + s3.endpoint() + "\" }\n").create();
                 RunningDaemon daemon = home.start()) {
                try (Connection c = daemon.connectProxy("", "")) {
                    LedgeredTransfers.create(c, BackupAtOneCutIT.SHAPE);
                }
                long asked;
                long seenCut;
                String id;
                Map<Long, LedgeredTransfers.Outcome> outcomes;
                try (LedgeredTransfers load = new LedgeredTransfers(BackupAtOneCutIT.SHAPE, 3, home.proxyPort(), 29)) {
                    load.start(WRITERS);
                    load.awaitAcknowledged(LOAD);
                    asked = System.nanoTime();
                    BackupStatus started = daemon.daemon().backups().start(location, BackupEngine.PHYSICAL);
                    assertThat(started.engine()).isEqualTo(BackupManifest.PHYSICAL);
                    id = started.id();
                    seenCut = awaitCutTaken(daemon, id);
                    BackupStatus done = BackupRestoreIT.awaitEnd(daemon, id);
                    assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
                    System.out.printf("PhysicalBackupIT: backup %s to %s: %,d bytes copied, %,d stored, %d ms%n", id,
                            location, done.bytesRead(), done.storedBytes(), done.durationMillis());
                    load.close();
                    outcomes = load.outcomes();
                    assertThat(load.errors()).as("errors clients saw").isEmpty();
                }
                var settings = daemon.daemon().config().backup();
                assertThat(daemon.daemon().backups().list(location).backups()).as("the backups in " + location)
                        .singleElement().satisfies(e -> assertThat(e.complete()).isTrue());
                Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                        .run(new RestoreRequest(location, id, OptionalLong.empty(), OptionalLong.empty(),
                                work.resolve("home3"), OptionalInt.empty()));
                assertThat(r.problems()).as("tables whose rows differ from the checksums taken at the cut").isEmpty();
                try (RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(3),
                        BackupRestoreIT.freePort())) {
                    BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, asked, seenCut, "PhysicalBackupIT: physical backup "
                            + id + " from S3");
                }
                Verify.Report verified = new Verify(settings, System.getenv(), line -> { }).run(location, id);
                assertThat(verified.problems()).as(verified.summary()).isEmpty();
            }
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * A shard killed with SIGKILL while mariadb-backup copies it (the copies held to 1 MB/s by the
     * throttle, so that they are still running): the backup fails naming the shard, or, when the
     * copy got through, completes and restores whole; nothing incomplete is listed as complete, and once
     * the supervisor has restarted the shard the next physical backup completes and restores.
     */
    @Test
    void aShardKilledMidPhysicalBackupFailsItNamingTheShardAndTheNextOneCompletes() throws Exception {
        assumeMariadbBackup();
        assumeAllKills();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-kill-", BackupRestoreIT.SEARCHABLE);
        String location = work.resolve("backups").toString();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            twoRows(daemon);
            long pid = daemon.status(1).pid();
            String killed = daemon.daemon().backups().start(location, BackupEngine.PHYSICAL, 1).id();
            BackupRestoreIT.awaitCopying(daemon, killed, st -> st.storedBytes() > 0);
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            BackupStatus ended = BackupRestoreIT.awaitEnd(daemon, killed);
            System.out.println("PhysicalBackupIT: a shard killed mid physical backup: " + ended.phase() + " "
                    + ended.message());
            var settings = daemon.daemon().config().backup();
            if (ended.phase() == BackupPhase.FAILED) {
                assertThat(ended.message()).as("why it failed").startsWith("mariadb-backup of shard 1 failed: ");
                assertThat(ended.message().lines().findFirst().orElseThrow()).as("its error first, not its progress")
                        .containsIgnoringCase("error");
                assertThat(daemon.daemon().backups().list(location).backups())
                        .noneSatisfy(e -> assertThat(e.complete()).isTrue());
            } else {
                Verify.Report verified = new Verify(settings, System.getenv(), line -> { }).run(location, killed);
                assertThat(verified.problems()).as("the backup that got through: " + verified.summary()).isEmpty();
            }
            daemon.awaitStatus(1, st -> st.state() == io.cleave.manager.supervisor.InstanceState.RUNNING
                    && st.pid() != pid, Duration.ofSeconds(60));
            BackupStatus next = BackupRestoreIT.awaitEnd(daemon,
                    daemon.daemon().backups().start(location, BackupEngine.PHYSICAL).id());
            assertThat(next.phase()).as(next.message()).isEqualTo(BackupPhase.DONE);
            Verify.Report verified = new Verify(settings, System.getenv(), line -> { }).run(location, next.id());
            assertThat(verified.problems()).as(verified.summary()).isEmpty();
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * A shard of the new home killed with SIGKILL while a physical restore rolls the copies forward
     * (after shard 0's, before shard 1's): the restore fails saying the home is unfinished and what to
     * do, or completes with every table equal to the backup; the rerun into the same home completes.
     */
    @Test
    void aShardKilledMidPhysicalRestoreLeavesTheHomeUnfinishedAndTheRerunCompletes() throws Exception {
        assumeMariadbBackup();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-rs-kill-", BackupRestoreIT.SEARCHABLE);
        String location = work.resolve("backups").toString();
        Path restored = work.resolve("restored");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            twoRows(daemon);
            BackupStatus done = BackupRestoreIT.awaitEnd(daemon,
                    daemon.daemon().backups().start(location, BackupEngine.PHYSICAL).id());
            assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
            try (Connection c = daemon.connectProxy("", ""); java.sql.Statement s = c.createStatement()) {
                s.execute("INSERT INTO k.t VALUES (2, 3), (1501, 4)"); // after the backup: not in the restore
            }
            RestoreRequest request = new RestoreRequest(location, done.id(), OptionalLong.empty(), OptionalLong.empty(),
                    restored, OptionalInt.empty());
            var settings = daemon.daemon().config().backup();
            java.util.concurrent.atomic.AtomicLong killed = new java.util.concurrent.atomic.AtomicLong();
            Restore cutShort = new Restore(settings, System.getenv(), line -> {
                if (line.startsWith("shard 0: ") && killed.get() == 0) {
                    ProcessHandle shard = io.cleave.manager.supervisor.ProcessInspector.findServerFor(
                            restored.resolve("etc").resolve("shard-1.cnf"))
                            .orElseThrow(() -> new AssertionError("the new home's shard 1 does not run"));
                    killed.set(shard.pid());
                    shard.destroyForcibly();
                }
            });
            Restore.Result first = null;
            try {
                first = cutShort.run(request);
            } catch (IllegalStateException e) {
                System.out.println("PhysicalBackupIT: a shard killed mid physical restore: " + e.getMessage());
                assertThat(e.getMessage()).contains("the restore into " + restored + " failed", "shard 1",
                        "The home is left unfinished",
                        "Run the same command (cleave restore ... --home " + restored + ") again");
                assertThat(restored.resolve("state").resolve("restore-unfinished")).exists();
            }
            assertThat(killed.get()).as("shard 1 of the new home was killed").isPositive();
            if (first != null) {
                System.out.println("PhysicalBackupIT: a shard killed mid physical restore: the restore completed");
                assertThat(first.problems()).as("tables that differ from the backup").isEmpty();
                BackupRestoreIT.deleteTree(restored);
            }
            Restore.Result r = new Restore(settings, System.getenv(), line -> { }).run(request);
            assertThat(r.problems()).as("tables that differ from the backup").isEmpty();
            assertThat(restored.resolve("state").resolve("restore-unfinished")).doesNotExist();
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * The daemon, run from the shipped jar in its own process, killed with SIGKILL while mariadb-backup
     * copies (held to 1 MB/s): no mariadb-backup it started is left running, what it staged (the shard
     * account's options file among it) is in its home and removed by the next daemon, the backup is listed
     * as incomplete and nothing as complete, and the next daemon's physical backup completes and verifies.
     */
    @Test
    void aDaemonKilledMidPhysicalBackupLeavesItIncompleteAndNoCopyRunning() throws Exception {
        assumeMariadbBackup();
        assertThat(io.cleave.e2e.support.CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-daemon-kill-", BackupRestoreIT.SEARCHABLE);
        String location = work.resolve("backups").toString();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create()) {
            RunningDaemon first = home.start();
            try {
                twoRows(first);
            } finally {
                first.closeLeavingInstancesRunning();
            }
            Path log = work.resolve("daemon.log");
            Process up = io.cleave.e2e.support.CleaveJar.up(home, log);
            String killed;
            List<ProcessHandle> copies;
            try {
                var admin = io.cleave.e2e.support.CleaveJar.awaitAdmin(home, up, log);
                killed = admin.startBackup(location, BackupEngine.PHYSICAL, 1).id();
                long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
                BackupStatus s = admin.backup(killed);
                while (s.phase() != BackupPhase.COPYING || s.storedBytes() == 0) {
                    assertThat(s.phase().terminal()).as("the backup ended before the daemon was killed: %s", s).isFalse();
                    assertThat(System.nanoTime()).as("backup %s never copied", killed).isLessThan(deadline);
                    Thread.sleep(20);
                    s = admin.backup(killed);
                }
                copies = up.toHandle().descendants().filter(p -> p.info().command().orElse("").contains("mariadb-backup")
                        || p.info().command().orElse("").contains("mariabackup")).toList();
                up.destroyForcibly(); // SIGKILL
                assertThat(up.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                up.destroyForcibly();
            }
            assertThat(copies).as("the daemon's mariadb-backup copies when it was killed").isNotEmpty();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (copies.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            List<ProcessHandle> left = copies.stream().filter(ProcessHandle::isAlive).toList();
            left.forEach(ProcessHandle::destroyForcibly);
            assertThat(left).as("mariadb-backup copies left running 30 s after their daemon was killed").isEmpty();
            Path scratch = home.home().state().resolve("backup-scratch");
            try (var staged = Files.walk(scratch)) {
                assertThat(staged.filter(p -> p.getFileName().toString().equals("client.cnf")))
                        .as("the killed daemon's staged copies, with the shard account's options, in its home").isNotEmpty();
            }

            try (RunningDaemon next = home.start()) {
                assertThat(scratch).as("what the killed daemon staged, removed by the next").doesNotExist();
                assertThat(next.daemon().backups().list(location).backups()).singleElement().satisfies(e -> {
                    assertThat(e.id()).isEqualTo(killed);
                    assertThat(e.complete()).as("a backup its daemon died in").isFalse();
                });
                BackupStatus done = BackupRestoreIT.awaitEnd(next,
                        next.daemon().backups().start(location, BackupEngine.PHYSICAL).id());
                assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
                Verify.Report verified = new Verify(next.daemon().config().backup(), System.getenv(), line -> { })
                        .run(location, done.id());
                assertThat(verified.problems()).as(verified.summary()).isEmpty();
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * A {@code cleave restore} process killed with SIGKILL during a physical restore, once the copies are
     * in place: the new home is left marked unfinished (its shards may still run), and the next restore
     * into the same directory stops them, starts over and completes, leaving no server running.
     */
    @Test
    void aRestoreProcessKilledMidPhysicalRestoreIsStartedOverByTheNext() throws Exception {
        assumeMariadbBackup();
        assumeAllKills();
        assertThat(io.cleave.e2e.support.CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-rs-proc-", BackupRestoreIT.SEARCHABLE);
        String location = work.resolve("backups").toString();
        Path restored = work.resolve("restored");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            twoRows(daemon);
            BackupStatus done = BackupRestoreIT.awaitEnd(daemon,
                    daemon.daemon().backups().start(location, BackupEngine.PHYSICAL).id());
            assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);

            Path log = work.resolve("restore.log");
            Process restore = new ProcessBuilder(io.cleave.e2e.support.CleaveJar.javaBin(), "-jar",
                    io.cleave.e2e.support.CleaveJar.JAR.toString(), "restore", "--from", location, "--backup", done.id(),
                    "--home", restored.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (!Files.readString(log).contains("unpacked and prepared")) {
                    assertThat(restore.isAlive()).as("the restore runs:\n%s", Files.readString(log)).isTrue();
                    assertThat(System.nanoTime()).as("the restore never prepared its copies").isLessThan(deadline);
                    Thread.sleep(20);
                }
                restore.destroyForcibly(); // SIGKILL once the copies are prepared
                assertThat(restore.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                restore.destroyForcibly();
            }
            assertThat(Files.readString(log)).as("killed before it finished").doesNotContain("start it with");
            assertThat(restored.resolve("state").resolve("restore-unfinished")).exists();

            Restore.Result r = new Restore(daemon.daemon().config().backup(), System.getenv(), line -> { })
                    .run(new RestoreRequest(location, done.id(), OptionalLong.empty(), OptionalLong.empty(), restored,
                            OptionalInt.empty()));
            assertThat(r.problems()).as("tables that differ from the backup").isEmpty();
            assertThat(restored.resolve("state").resolve("restore-unfinished")).doesNotExist();
            DaemonKilledMidBackupIT.assertNoServerRunsFor(restored); // of the killed restore or of this one
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    @Test
    void thePhysicalEngineIsRefusedWhereNoMariadbBackupFitsTheServer() throws Exception {
        assumeTrue(TestServer.binary().equals("embedded"), "the second server has its mariadb-backup: the physical"
                + " engine runs there (aPhysicalBackupUnderTransfersRestoresExactlyOneCut)");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-physical-", BackupRestoreIT.SEARCHABLE);
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create();
             RunningDaemon daemon = home.start()) {
            String location = work.resolve("backups").toString();
            assertThatThrownBy(() -> daemon.daemon().backups().start(location, BackupEngine.PHYSICAL))
                    .isInstanceOf(AdminError.class)
                    .hasMessageContaining("the physical engine cannot run here")
                    .hasMessageContaining("the embedded MariaDB ships none")
                    .hasMessageContaining("--engine logical");
            BackupStatus auto = daemon.daemon().backups().start(location, BackupEngine.AUTO);
            assertThat(auto.engine()).as("what auto picks without a mariadb-backup").isEqualTo(BackupManifest.LOGICAL);
            BackupStatus done = BackupRestoreIT.awaitEnd(daemon, auto.id());
            assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /** Skips the test where the physical engine cannot run (the embedded server ships no mariadb-backup). */
    /**
     * The default run keeps one kill in each phase (the daemon mid physical copy, a shard mid physical restore; the
     * logical engine's kills all run in DaemonKilledMidBackupIT); a shard killed mid copy and the restore process
     * killed mid restore run with -Dbackup.kills.all=true.
     */
    private static void assumeAllKills() {
        assumeTrue(Boolean.getBoolean("backup.kills.all"), "a kill case the default run leaves out"
                + " (-Dbackup.kills.all=true runs it)");
    }

    private static void assumeMariadbBackup() {
        assumeFalse(TestServer.binary().equals("embedded"), "the embedded MariaDB 11.4 ships no mariadb-backup; run with"
                + " the second server (-Dcleave.it.server=$(scripts/debian-mariadb))");
    }

    /** Table k.t with a row on each shard of {@link MoveChecks#TWO_RANGES}. */
    static void twoRows(RunningDaemon daemon) throws java.sql.SQLException {
        try (Connection c = daemon.connectProxy("", ""); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE k");
            s.execute("CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, PRIMARY KEY (w, i))");
            s.execute("INSERT INTO k.t VALUES (1, 1), (1500, 2)");
        }
    }

    /** Waits until the move copies: its rows on the target are then the map's ghosts there. */
    private static void awaitCopying(RunningDaemon daemon, long move) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (daemon.daemon().shardMaps().current().ghosts().isEmpty()
                || daemon.daemon().moves().get(move).phase == MovePhase.PLANNED) {
            assertThat(System.nanoTime()).as("move %d never began to copy", move).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** When the test first saw the physical backup past its cut (taken after the copies, before it finishes). */
    private static long awaitCutTaken(RunningDaemon daemon, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            BackupStatus s = daemon.daemon().backups().status(id);
            if (s.phase() == BackupPhase.FINISHING || s.phase().terminal() || s.snapshotMillis() > 0) {
                return System.nanoTime();
            }
            assertThat(System.nanoTime()).as("backup %s never got past its cut", id).isLessThan(deadline);
            Thread.sleep(2);
        }
    }
}
