package io.cleave.e2e.backup;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.BackupsReport;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.cli.CleaveMain;
import io.cleave.manager.supervisor.ProcessInspector;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Backups and restores cut short by SIGKILL (tiny chunks keep them busy long enough). A daemon, run
 * from the shipped jar in its own process, killed while a backup copies leaves that backup listed as
 * incomplete and nothing of it as complete; the next daemon backs up to the same location, and a
 * restore of the newest backup takes that complete one, whole. A {@code cleave restore} process
 * killed while it loads leaves its new home marked unfinished with its shards running; the next
 * restore into the same directory stops them, starts over and completes, leaving no server running.
 * A shard killed while a backup reads it fails the backup with a message and nothing listed as
 * complete; once the shard is back the next backup completes. A shard of the new home killed while a
 * restore loads fails the restore with a message saying the home is unfinished and what to do;
 * {@code cleave up} refuses that home, the rerun completes, and a restore into the finished home is
 * refused; the running home is never touched.
 */
class DaemonKilledMidBackupIT {

    /** Open for search: a root daemon's shards run as server.os_user, who must reach the homes inside. */
    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));

    private static final int ROWS = 4000;

    @Test
    void aBackupCutShortByKillNineIsNeverListedAsComplete() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-bk-kill-", SEARCHABLE);
        Path location = work.resolve("backups");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create()) {
            RunningDaemon first = home.start();
            try {
                fill(first);
            } finally {
                first.closeLeavingInstancesRunning();
            }

            Path log = work.resolve("daemon.log");
            Process up = CleaveJar.up(home, log, "-Dcleave.backup.chunk_rows=2");
            String killed;
            try {
                AdminClient admin = CleaveJar.awaitAdmin(home, up, log);
                killed = admin.startBackup(location.toString(), BackupEngine.LOGICAL).id();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                BackupStatus s = admin.backup(killed);
                while (s.phase() != BackupPhase.COPYING || s.chunks() < 20) {
                    assertThat(s.phase().terminal()).as("the backup ended before it could be killed: %s", s).isFalse();
                    assertThat(System.nanoTime()).as("backup %s never copied 20 chunks", killed).isLessThan(deadline);
                    Thread.sleep(20);
                    s = admin.backup(killed);
                }
                up.destroyForcibly(); // SIGKILL
                assertThat(up.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                up.destroyForcibly();
            }

            RunningDaemon next = home.start();
            try {
                BackupsReport before = next.daemon().backups().list(location.toString());
                assertThat(before.backups()).singleElement().satisfies(e -> {
                    assertThat(e.id()).isEqualTo(killed);
                    assertThat(e.complete()).as("a backup its daemon died in").isFalse();
                });
                String done = next.daemon().backups().start(location.toString(), BackupEngine.LOGICAL).id();
                BackupStatus ended = BackupRestoreIT.awaitEnd(next, done);
                assertThat(ended.phase()).as(ended.message()).isEqualTo(BackupPhase.DONE);
                assertThat(next.daemon().backups().list(location.toString()).backups())
                        .filteredOn(BackupsReport.Entry::complete).extracting(BackupsReport.Entry::id).containsExactly(done);

                Restore.Result r = new Restore(next.daemon().config().backup(), System.getenv(), line -> { })
                        .run(new RestoreRequest(location.toString(), null, OptionalLong.empty(), OptionalLong.empty(),
                                work.resolve("restored"), OptionalInt.empty()));
                assertThat(r.backup()).as("the newest complete backup").isEqualTo(done);
                assertThat(r.problems()).isEmpty();
                assertThat(r.rows()).as("rows loaded (k.t's and Cleave's own)").isGreaterThanOrEqualTo(ROWS);
            } finally {
                next.close();
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    @Test
    void aRestoreKilledMidwayIsStartedOverByTheNextIntoTheSameHome() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-rs-kill-", SEARCHABLE);
        Path location = work.resolve("backups");
        Path restored = work.resolve("restored");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            fill(daemon);
            String id = backedUpInManyChunks(daemon, location);

            Path log = work.resolve("restore.log");
            Process restore = new ProcessBuilder(CleaveJar.javaBin(), "-jar", CleaveJar.JAR.toString(), "restore",
                    "--from", location.toString(), "--backup", id, "--home", restored.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!Files.readString(log).contains("account statements made")) {
                    assertThat(restore.isAlive()).as("the restore runs:\n%s", Files.readString(log)).isTrue();
                    assertThat(System.nanoTime()).as("the restore never began loading").isLessThan(deadline);
                    Thread.sleep(20);
                }
                restore.destroyForcibly(); // SIGKILL while chunks load
                assertThat(restore.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                restore.destroyForcibly();
            }
            assertThat(Files.readString(log)).as("killed before it finished").doesNotContain("start it with");
            assertThat(restored.resolve("state").resolve("restore-unfinished")).exists();

            Restore.Result r = new Restore(daemon.daemon().config().backup(), System.getenv(), line -> { })
                    .run(new RestoreRequest(location.toString(), id, OptionalLong.empty(), OptionalLong.empty(), restored,
                            OptionalInt.empty()));
            assertThat(r.problems()).as("tables that differ from the backup").isEmpty();
            assertThat(restored.resolve("state").resolve("restore-unfinished")).doesNotExist();
            assertNoServerRunsFor(restored); // of the killed restore or of this one
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    @Test
    void aShardKilledMidBackupFailsItWithAMessageAndTheNextBackupCompletes() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-bk-shard-", SEARCHABLE);
        Path location = work.resolve("backups");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            fill(daemon);
            long pid = daemon.status(1).pid();
            String failed;
            System.setProperty("cleave.backup.chunk_rows", "2");
            try {
                failed = daemon.daemon().backups().start(location.toString(), BackupEngine.LOGICAL).id();
                BackupRestoreIT.awaitCopying(daemon, failed, st -> st.chunks() >= 20);
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                BackupStatus ended = BackupRestoreIT.awaitEnd(daemon, failed);
                assertThat(ended.phase()).isEqualTo(BackupPhase.FAILED);
                assertThat(ended.message()).as("why it failed").contains("on shard 1");
                System.out.println("DaemonKilledMidBackupIT: a shard killed mid-backup: " + ended.message());
            } finally {
                System.clearProperty("cleave.backup.chunk_rows");
            }
            assertThat(daemon.daemon().backups().list(location.toString()).backups())
                    .noneSatisfy(e -> assertThat(e.complete()).isTrue());
            daemon.awaitStatus(1, st -> st.state() == io.cleave.manager.supervisor.InstanceState.RUNNING && st.pid() != pid,
                    java.time.Duration.ofSeconds(60));
            String next = daemon.daemon().backups().start(location.toString(), BackupEngine.LOGICAL).id();
            BackupStatus done = BackupRestoreIT.awaitEnd(daemon, next);
            assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
            assertThat(done.rowsRead()).as("rows of k.t (and Cleave's own)").isGreaterThanOrEqualTo(ROWS);
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    @Test
    void aShardKilledMidRestoreLeavesTheHomeUnfinishedAndSaidSoAndTheRerunCompletes() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-rs-shard-", SEARCHABLE);
        Path location = work.resolve("backups");
        Path restored = work.resolve("restored");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            fill(daemon);
            List<Long> sourcePids = List.of(daemon.status(0).pid(), daemon.status(1).pid());
            String id = backedUpInManyChunks(daemon, location);
            RestoreRequest request = new RestoreRequest(location.toString(), id, OptionalLong.empty(), OptionalLong.empty(),
                    restored, OptionalInt.empty());

            AtomicLong killed = new AtomicLong();
            Restore cutShort = new Restore(daemon.daemon().config().backup(), System.getenv(), line -> {
                if (line.contains("account statements made") && killed.get() == 0) {
                    ProcessHandle shard = ProcessInspector.findServerFor(restored.resolve("etc").resolve("shard-1.cnf"))
                            .orElseThrow(() -> new AssertionError("the new home's shard 1 does not run"));
                    killed.set(shard.pid());
                    shard.destroyForcibly(); // SIGKILL before its chunks load
                }
            });
            assertThatThrownBy(() -> cutShort.run(request))
                    .satisfies(e -> System.out.println("DaemonKilledMidBackupIT: a shard killed mid-restore: " + e.getMessage()))
                    .hasMessageContaining("the restore into " + restored + " failed")
                    .hasMessageContaining("shard 1")
                    .hasMessageContaining("The home is left unfinished")
                    .hasMessageContaining("Run the same command (cleave restore ... --home " + restored + ") again");
            assertThat(killed.get()).as("shard 1 of the new home was killed").isPositive();
            assertThat(restored.resolve("state").resolve("restore-unfinished")).exists();
            assertNoServerRunsFor(restored);

            StringWriter err = new StringWriter();
            CommandLine up = CleaveMain.commandLine();
            up.setErr(new PrintWriter(err, true));
            assertThat(up.execute("up", "--home", restored.toString())).as("cleave up on the cut-short home").isEqualTo(1);
            assertThat(err.toString()).contains(restored + " is a restore that did not finish");

            Restore.Result r = new Restore(daemon.daemon().config().backup(), System.getenv(), line -> { }).run(request);
            assertThat(r.problems()).as("tables that differ from the backup").isEmpty();
            assertThat(r.rows()).as("rows loaded (k.t's and Cleave's own)").isGreaterThanOrEqualTo(ROWS);
            assertThat(restored.resolve("state").resolve("restore-unfinished")).doesNotExist();
            assertNoServerRunsFor(restored);

            assertThatThrownBy(() -> new Restore(daemon.daemon().config().backup(), System.getenv(), line -> { }).run(request))
                    .as("a restore into the finished home")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(restored + " already holds a home")
                    .hasMessageContaining("name a new directory, or delete " + restored);
            assertThat(restored.resolve(NEW_HOME_CONFIG)).as("the finished home is left as it was").exists();

            assertThat(List.of(daemon.status(0).pid(), daemon.status(1).pid())).as("the running home's shards")
                    .isEqualTo(sourcePids);
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT COUNT(*) FROM k.t")) {
                rs.next();
                assertThat(rs.getLong(1)).as("the running home's rows").isEqualTo(ROWS);
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    private static final String NEW_HOME_CONFIG = "cleave.yaml";

    static void assertNoServerRunsFor(Path restored) throws Exception {
        try (var cnfs = Files.list(restored.resolve("etc"))) {
            for (Path cnf : cnfs.toList()) {
                assertThat(ProcessInspector.findServerFor(cnf)).as("a server left running for %s", cnf).isEmpty();
            }
        }
    }

    /** A complete backup in chunks of 2 rows: a restore of it loads for a while. */
    private static String backedUpInManyChunks(RunningDaemon daemon, Path location) throws Exception {
        System.setProperty("cleave.backup.chunk_rows", "2");
        try {
            String id = daemon.daemon().backups().start(location.toString(), BackupEngine.LOGICAL).id();
            BackupStatus ended = BackupRestoreIT.awaitEnd(daemon, id);
            assertThat(ended.phase()).as(ended.message()).isEqualTo(BackupPhase.DONE);
            return id;
        } finally {
            System.clearProperty("cleave.backup.chunk_rows");
        }
    }

    private static void fill(RunningDaemon daemon) throws Exception {
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE k");
            s.execute("CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (w, i))");
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < ROWS; r++) {
                values.append(r == 0 ? "" : ",").append('(').append(1 + r % 2000).append(',').append(r).append(",7)");
            }
            s.execute("INSERT INTO k.t VALUES " + values);
        }
    }
}
