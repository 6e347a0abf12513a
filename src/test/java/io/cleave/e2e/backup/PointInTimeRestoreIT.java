package io.cleave.e2e.backup;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.QueryRows;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.backup.store.DirectoryStore;
import io.cleave.manager.config.BackupEngine;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Point-in-time recovery from archived binlogs: a home of three shards archiving its binlogs to a
 * directory, cross-shard bank transfers running (so XA branches are prepared across the backup's cut
 * and across recorded cuts), a backup, then restore points recorded after it (shard 0's binlog
 * rotated in between, so its replay spans two files).
 * <ul>
 *   <li>A restore to a cut recorded while the transfers were paused holds exactly the balances read
 *       through the proxy at that cut (the replay stopped at the cut: not before it, not after); the
 *       XA branches prepared at that cut are settled by the restored decision rows, and an
 *       application's own stays prepared.</li>
 *   <li>A restore to a cut recorded while transfers ran, into two shards, keeps the bank's total,
 *       every row on its shard and no XA branch prepared.</li>
 *   <li>MariaDB sequences drawn from after the backup and before a cut hand out no value drawn before it
 *       in either restore (the replayed binlog carries them past the backup's values).</li>
 *   <li>The shards' own binlog expiry is off while archiving; {@code --to-time} picks the last cut at
 *       or before the time; a cut that was never recorded is refused with the range that was.</li>
 * </ul>
 */
class PointInTimeRestoreIT {

    /** Open for search: a root daemon's shards run as server.os_user, who must reach the homes inside. */
    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));

    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(300, 10, 100);
    private static final String ACCOUNTS = "SELECT branch, id, balance FROM bank.accounts";

    @Test
    void restoresToRecordedCutsAfterABackupFromTheArchivedBinlogs() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-pitr-", SEARCHABLE);
        Path archive = work.resolve("archive");
        String backupYaml = "backup:\n  location: \"" + archive + "\"\n  archive_binlogs: true\n  cut_interval_s: 1\n";
        try (CleaveTestHome home = CleaveTestHome.builder().shards(3).proxyOption("xa_recovery_interval_s", 0)
                .extraYaml(BackupRestoreIT.SHARDING + backupYaml).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            assertThat(archiver).as("backup.archive_binlogs starts the archiver").isNotNull();
            for (int s = 0; s < 3; s++) {
                try (Connection c = daemon.connect(s); Statement st = c.createStatement()) {
                    BackedUpTriggers.makeDefiner(st);
                }
            }
            try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
                BankTransfers.create(c, SHAPE);
                BackedUpSequences.create(c);
                st.execute("CREATE TABLE bank.notes (id BIGINT UNSIGNED PRIMARY KEY, title VARCHAR(30))");
                BackedUpTriggers.create(c, true);
            }
            CutRecord paused;
            Map<Long, Long> atPaused;
            CutRecord running;
            String backup;
            BackedUpSequences.Drawn beforePaused;
            BackedUpSequences.Drawn beforeRunning;
            try (Connection sequences = daemon.connectProxy("", "");
                 BankTransfers load = new BankTransfers(SHAPE, home.proxyPort(), 11, new int[] {1, 150, 250})) {
                load.start(4);
                load.awaitAcknowledged(200);
                BackupStatus done = BackupRestoreIT.awaitEnd(daemon,
                        daemon.daemon().backups().start(archive.toString(), BackupEngine.LOGICAL).id());
                assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
                backup = done.id();
                load.awaitAcknowledged(150);
                try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
                    s.execute("FLUSH BINARY LOGS"); // shard 0's replay then spans a closed file and the next
                }
                load.awaitAcknowledged(150);
                load.pause();
                prepareBranchesByHand(daemon);
                try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
                    // After the backup: its audit row reaches the restore through the replayed binlog, once.
                    st.execute("INSERT INTO bank.notes (id, title) VALUES (600, 'after the backup')");
                }
                // After the backup: only the replayed binlog takes the restored sequences past these.
                beforePaused = BackedUpSequences.draw(sequences, 10);
                paused = archiver.round();
                assertThat(paused).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                settleBranchesByHand(daemon);
                try (Connection c = daemon.connectProxy("", "")) {
                    atPaused = BankTransfers.balances(c, ACCOUNTS);
                }
                load.resume();
                load.awaitAcknowledged(300);
                beforeRunning = BackedUpSequences.draw(sequences, 10);
                running = awaitNewCut(archiver, paused.id());
                load.awaitAcknowledged(100);
                load.close();
                System.out.println("PointInTimeRestoreIT: " + load.summary());
                assertThat(load.errors()).as("errors clients saw").isEmpty();
            }
            assertThat(atPaused.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
            try (Connection c = daemon.connectProxy("", "")) {
                assertThat(BankTransfers.balances(c, ACCOUNTS)).as("transfers ran after the paused cut")
                        .isNotEqualTo(atPaused);
            }
            List<CutRecord> cuts;
            try (DirectoryStore store = new DirectoryStore(archive)) {
                cuts = new BackupCatalog(store).cuts();
            }
            assertThat(cuts).extracting(CutRecord::id).contains(paused.id(), running.id());
            for (int s = 0; s < 3; s++) {
                try (Connection c = daemon.connect(s)) {
                    assertThat(RestoredHome.single(c, "SELECT @@binlog_expire_logs_seconds"))
                            .as("shard %d's own binlog expiry, off while the archiver decides what may go", s).isZero();
                }
            }

            var settings = daemon.daemon().config().backup();
            Restore.Result r1 = restore(settings, new RestoreRequest(archive.toString(), null, OptionalLong.empty(),
                    OptionalLong.of(paused.id()), work.resolve("home1"), OptionalInt.empty()));
            assertThat(r1.backup()).isEqualTo(backup);
            assertThat(r1.problems()).as("tables that differ from the backup").isEmpty();
            try (RestoredHome h = RestoredHome.start(r1.home(), r1.config(), BackupRestoreIT.freeBase(3),
                    BackupRestoreIT.freePort())) {
                try (Connection c = h.shard(1); Statement s = c.createStatement()) {
                    var prepared = new java.util.ArrayList<String>();
                    try (var rs = s.executeQuery("XA RECOVER")) {
                        while (rs.next()) {
                            prepared.add(rs.getString(4));
                        }
                    }
                    assertThat(prepared).as("the application's branch prepared at the cut stays prepared")
                            .containsExactly("app-pitr-3");
                    s.execute("XA ROLLBACK 'app-pitr-3'");
                }
                h.assertBankHolds(SHAPE.rows(), "restored to cut " + paused.id());
                assertThat(paused.shards().get(0).file()).as("shard 0's binlog file at the cut, after the rotation")
                        .isNotEqualTo(backupBinlogFile(archive, backup));
                try (Connection c = h.proxy("bank")) {
                    assertThat(BankTransfers.balances(c, ACCOUNTS)).as("balances at cut %d", paused.id())
                            .isEqualTo(atPaused);
                }
                try (Connection c = h.shard(1)) {
                    assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM bank.probe WHERE id = 1"))
                            .as("the branch prepared at the cut whose decision row was restored: committed").isOne();
                    assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM bank.probe WHERE id = 2"))
                            .as("the branch prepared at the cut with no decision: rolled back").isZero();
                }
                BackedUpSequences.assertNoValueRepeats(h, beforePaused, "restored to cut " + paused.id());
                try (Connection c = h.proxy("bank"); Connection s0 = h.shard(0); Connection s1 = h.shard(1);
                     Connection s2 = h.shard(2)) {
                    BackedUpTriggers.assertKept(List.of(s0, s1, s2), null, null, "ENABLED", true,
                            "restored to cut " + paused.id());
                    // Made before the replay, they did not fire again on its row events: one audit row per note.
                    assertThat(QueryRows.of(c, "SELECT note_id, by_user FROM note_audit ORDER BY id"))
                            .as("audit rows at cut %d", paused.id())
                            .containsExactly("500 " + BackedUpTriggers.DEFINER, "600 " + BackedUpTriggers.DEFINER);
                }
            }

            Restore.Result r2 = restore(settings, new RestoreRequest(archive.toString(), null, OptionalLong.empty(),
                    OptionalLong.of(running.id()), work.resolve("home2"), OptionalInt.of(2)));
            assertThat(r2.problems()).as("tables that differ from the copy at the cut").isEmpty();
            try (RestoredHome h = RestoredHome.start(r2.home(), r2.config(), BackupRestoreIT.freeBase(2),
                    BackupRestoreIT.freePort())) {
                assertThat(h.shards()).isEqualTo(2);
                h.assertBankHolds(SHAPE.rows(), "restored to cut " + running.id() + " (taken under transfers) into 2 shards");
                BackedUpSequences.assertNoValueRepeats(h, beforeRunning, "restored to cut " + running.id() + " into 2 shards");
            }

            Restore.Result r3 = restore(settings, new RestoreRequest(archive.toString(), null,
                    OptionalLong.of(paused.millis()), OptionalLong.empty(), work.resolve("home3"), OptionalInt.empty()));
            assertThat(r3.point()).startsWith("cut " + paused.id() + " ");

            assertThatThrownBy(() -> restore(settings, new RestoreRequest(archive.toString(), null, OptionalLong.empty(),
                    OptionalLong.of(running.id() + 1_000_000), work.resolve("home4"), OptionalInt.empty())))
                    .hasMessageContaining("no recorded cut with id").hasMessageContaining("cuts ");
            assertThat(work.resolve("home4")).doesNotExist();
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * Three XA branches prepared on shard 1 at the cut: two as a distributed commit leaves them when
     * it stops between its phases, one whose coordinator (shard 0) holds its decision row, one
     * without; and an application's own.
     * Made by hand, with the proxy's periodic recovery off, so nothing settles them before the cut.
     */
    private static void prepareBranchesByHand(RunningDaemon daemon) throws Exception {
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            s.execute("INSERT INTO cleave.decisions (xid, shards) VALUES ('cleave:0:pitr:1', '0,1')");
        }
        try (Connection c = daemon.connect(1); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bank.probe (id INT PRIMARY KEY)");
        }
        String[] xids = {"cleave:0:pitr:1", "cleave:0:pitr:2", "app-pitr-3"};
        for (int i = 1; i <= xids.length; i++) {
            // One connection each: a session holds its prepared branch until it ends, then the server keeps it.
            try (Connection c = daemon.connect(1); Statement s = c.createStatement()) {
                s.execute("XA START '" + xids[i - 1] + "'");
                s.execute("INSERT INTO bank.probe VALUES (" + i + ")");
                s.execute("XA END '" + xids[i - 1] + "'");
                s.execute("XA PREPARE '" + xids[i - 1] + "'");
            }
        }
    }

    /** Settles the hand-made branches on the running home after the cut and drops what they touched. */
    private static void settleBranchesByHand(RunningDaemon daemon) throws Exception {
        try (Connection c = daemon.connect(1); Statement s = c.createStatement()) {
            s.execute("XA COMMIT 'cleave:0:pitr:1'");
            s.execute("XA ROLLBACK 'cleave:0:pitr:2'");
            s.execute("XA ROLLBACK 'app-pitr-3'");
            s.execute("DROP TABLE bank.probe");
        }
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            s.execute("DELETE FROM cleave.decisions WHERE xid = 'cleave:0:pitr:1'");
        }
    }

    /** Shard 0's binlog file at the backup's cut. */
    private static String backupBinlogFile(Path archive, String backup) throws Exception {
        try (DirectoryStore store = new DirectoryStore(archive)) {
            return new BackupCatalog(store).manifest(backup).shards().get(0).file();
        }
    }

    private static Restore.Result restore(io.cleave.manager.config.BackupConfig settings, RestoreRequest request)
            throws Exception {
        return new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line)).run(request);
    }

    /** Waits until the archiver recorded a cut after {@code after} on its own, then records one now. */
    private static CutRecord awaitNewCut(BinlogArchiver archiver, long after) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (archiver.lastCutId() <= after) {
            assertThat(System.nanoTime()).as("no cut recorded in 30 s: %s", archiver.lastProblem()).isLessThan(deadline);
            Thread.sleep(50);
        }
        CutRecord c = archiver.round();
        assertThat(c).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
        return c;
    }
}
