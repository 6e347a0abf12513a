package io.cleave.e2e.backup;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.backup.store.DirectoryStore;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proof that a backup holds one consistent cut: a backup of three shards taken while cross-shard
 * bank transfers run through the proxy (each transfer leaves a ledger entry on each side's shard,
 * and every client records what it was told) and while a move of branches 1-50 to shard 1 is under
 * way. Its restores, with the same shard count and into two shards, must hold exactly a cut: the
 * bank's total, every transfer acknowledged before the backup was asked for, none that began after
 * its snapshots were seen open, no transfer by half (both entries or neither, each account's balance
 * equal to its entries), no XA branch prepared, every row where the restored map routes it, and every
 * table's rows as the backup read them at the cut.
 *
 * <p>Binlogs are archived too. The backup taken during the move reaches no recorded cut (the replay
 * would bring the move's copy); restores to a cut recorded while the move copied and to one after it,
 * from a backup taken before the move, must hold exactly those cuts: the transfers acknowledged before
 * the cut was asked for, none begun after it was recorded, the move's copied rows not routed yet gone.
 *
 * <p>{@code -Dbackup.long=true} runs ten times the accounts, twice the writers and longer under load.
 */
class BackupAtOneCutIT {

    private static final boolean LONG = Boolean.getBoolean("backup.long");
    static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(300, LONG ? 200 : 20, 100);
    private static final int WRITERS = LONG ? 8 : 4;
    private static final int LOAD = LONG ? 3000 : 300;
    static final String SHARDING = BackupRestoreIT.SHARDING
            + "    - { name: entries, keyspace: branch, column: branch }\n";

    @Test
    void aBackupUnderTransfersAndAMoveRestoresExactlyOneCutIntoAnyShardCount() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-cut-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        String backupYaml = ArchivedMoves.archiving(archive);
        try (ArchivedMoves slow = ArchivedMoves.slowCopies();
             CleaveTestHome home = CleaveTestHome.builder().shards(3).extraYaml(SHARDING + backupYaml).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            try (Connection c = daemon.connectProxy("", "")) {
                LedgeredTransfers.create(c, SHAPE);
            }
            CountDownLatch release = new CountDownLatch(1);
            String before;
            String during;
            long asked;
            long seenOpen;
            CutRecord cutDuringMove;
            long[] duringMove = new long[2];
            CutRecord cutAfterMove;
            long[] afterMove = new long[2];
            Map<Long, LedgeredTransfers.Outcome> outcomes;
            try (LedgeredTransfers load = new LedgeredTransfers(SHAPE, 3, home.proxyPort(), 17)) {
                load.start(WRITERS);
                load.awaitAcknowledged(LOAD);
                before = awaitDone(daemon, daemon.daemon().backups().start(archive.toString(), BackupEngine.LOGICAL));
                load.awaitAcknowledged(LOAD / 3);

                // The move waits before it verifies (its copy on shard 1 in place, the map not flipped)
                // until the backup during it is done and a cut is recorded under the same map.
                daemon.daemon().moves().testHooks(ArchivedMoves.holdBeforeVerifying(release));
                MoveRecord move = daemon.daemon().moves().start("branch", "1-50", 1, "test");
                load.awaitAcknowledged(LOAD / 3);
                asked = System.nanoTime();
                BackupStatus started = daemon.daemon().backups().start(archive.toString(), BackupEngine.LOGICAL);
                seenOpen = awaitSnapshotsOpen(daemon, started.id());
                during = awaitDone(daemon, started);
                load.awaitAcknowledged(LOAD / 3);
                duringMove[0] = System.nanoTime();
                cutDuringMove = archiver.round();
                duringMove[1] = System.nanoTime();
                assertThat(cutDuringMove).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                assertThat(cutDuringMove.mapVersion()).as("the cut during the move, under the backup's map")
                        .isEqualTo(mapVersion(archive, during));
                assertThat(daemon.daemon().moves().get(move.id).phase).as("the move, under way (held before it verifies)")
                        .isIn(MovePhase.COPYING, MovePhase.CATCHING_UP, MovePhase.VERIFYING);
                release.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(3));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
                load.awaitAcknowledged(LOAD / 3);
                afterMove[0] = System.nanoTime();
                cutAfterMove = archiver.round();
                afterMove[1] = System.nanoTime();
                assertThat(cutAfterMove).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                load.close();
                outcomes = load.outcomes();
                System.out.println("BackupAtOneCutIT: " + load.summary());
                assertThat(load.errors()).as("errors clients saw").isEmpty();
            } finally {
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }

            var settings = daemon.daemon().config().backup();
            for (int shards : new int[] {3, 2}) {
                try (RestoredHome h = restoreBackup(settings, archive, during, work.resolve("home" + shards), shards)) {
                    assertHoldsOneCut(h, outcomes, asked, seenOpen, "the backup during the move, into " + shards + " shards");
                }
            }

            // The backup during the move reaches no recorded cut (its replay would bring the move's copy); the one
            // before it reaches the cuts during and after the move, through the maps the archiver stored.
            assertThat(daemon.daemon().backups().list(archive.toString()).reachableCuts()).as("cuts cleave backups lists"
                    + " as reachable").anySatisfy(w -> assertThat(w).endsWith("(from backup " + before + ")"))
                    .noneSatisfy(w -> assertThat(w).contains(during));
            Restore.Result toDuring = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(),
                            OptionalLong.of(cutDuringMove.id()), work.resolve("during"), OptionalInt.empty()));
            assertThat(toDuring.backup()).isEqualTo(before);
            try (RestoredHome h = RestoredHome.start(toDuring.home(), toDuring.config(), BackupRestoreIT.freeBase(3),
                    BackupRestoreIT.freePort())) {
                assertHoldsOneCut(h, outcomes, duringMove[0], duringMove[1], "cut " + cutDuringMove.id()
                        + " (the move copying) from the backup before the move");
            }
            Restore.Result toAfter = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(),
                            OptionalLong.of(cutAfterMove.id()), work.resolve("after"), OptionalInt.of(2)));
            assertThat(toAfter.backup()).isEqualTo(before);
            try (RestoredHome h = RestoredHome.start(toAfter.home(), toAfter.config(), BackupRestoreIT.freeBase(2),
                    BackupRestoreIT.freePort())) {
                assertHoldsOneCut(h, outcomes, afterMove[0], afterMove[1], "cut " + cutAfterMove.id()
                        + " (after the move) from the backup before the move, into 2 shards");
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /**
     * What a restored home must hold to be one cut of the clients' history: the bank's invariants
     * ({@link RestoredHome#assertBankHolds}), every transfer whole or absent and matching the balances,
     * every one acknowledged before {@code asked} present, none begun after {@code seenOpen} present,
     * none that failed before its COMMIT present.
     */
    static void assertHoldsOneCut(RestoredHome h, Map<Long, LedgeredTransfers.Outcome> outcomes, long asked,
                                          long seenOpen, String what) throws Exception {
        // asked: before the cut was asked for; seenOpen: once it was known to be taken.
        h.assertBankHolds(SHAPE.rows(), what);
        Map<Long, List<long[]>> transfers = new HashMap<>();
        Map<Long, Long> moved = new HashMap<>();
        Map<Long, Long> balances;
        try (Connection c = h.proxy("bank"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT transfer, side, branch, account, amount FROM entries")) {
                while (rs.next()) {
                    transfers.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                            .add(new long[] {rs.getLong(2), rs.getLong(5)});
                    moved.merge(rs.getLong(3) * 1_000_000L + rs.getLong(4), rs.getLong(5), Long::sum);
                }
            }
            balances = BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts");
        }
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<Long, List<long[]>> t : transfers.entrySet()) {
            List<long[]> sides = t.getValue();
            if (sides.size() != 2 || sides.get(0)[0] == sides.get(1)[0] || sides.get(0)[1] + sides.get(1)[1] != 0) {
                wrong.add("transfer " + t.getKey() + " is there by half (" + sides.size() + " entries)");
            }
            LedgeredTransfers.Outcome o = outcomes.get(t.getKey());
            if (o == null || o.state() == LedgeredTransfers.State.FAILED_BEFORE_COMMIT) {
                wrong.add("transfer " + t.getKey() + " is there, but its client " + (o == null ? "never began it"
                        : "saw it fail before its COMMIT"));
            } else if (o.began() > seenOpen) {
                wrong.add("transfer " + t.getKey() + " is there, but began after the backup's snapshots were open");
            }
        }
        long mustBeThere = 0;
        for (Map.Entry<Long, LedgeredTransfers.Outcome> e : outcomes.entrySet()) {
            LedgeredTransfers.Outcome o = e.getValue();
            if (o.state() == LedgeredTransfers.State.ACKNOWLEDGED && o.acknowledged() < asked) {
                mustBeThere++;
                if (!transfers.containsKey(e.getKey())) {
                    wrong.add("transfer " + e.getKey() + " was acknowledged before the backup was asked for, and is lost");
                }
            }
        }
        for (Map.Entry<Long, Long> b : balances.entrySet()) {
            long expected = BankTransfers.INITIAL + moved.getOrDefault(b.getKey(), 0L);
            if (b.getValue() != expected) {
                wrong.add("account " + b.getKey() + " holds " + b.getValue() + ", its entries say " + expected);
            }
        }
        assertThat(wrong).as("%s: what differs from one cut of the clients' history", what).isEmpty();
        assertThat(mustBeThere).as("transfers acknowledged before the backup was asked for").isPositive();
        System.out.printf("%s: %d transfers whole, all %d acknowledged before the point was asked"
                + " for among them%n", what, transfers.size(), mustBeThere);
    }

    /**
     * Restores backup {@code id} of {@code archive} into {@code home} with {@code shards} shards, checks every
     * table against what the backup read at its cut, and starts the restored home.
     */
    static RestoredHome restoreBackup(BackupConfig settings, Path archive, String id, Path home, int shards)
            throws Exception {
        Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                .run(new RestoreRequest(archive.toString(), id, OptionalLong.empty(), OptionalLong.empty(), home,
                        OptionalInt.of(shards)));
        assertThat(r.problems()).as("tables whose rows differ from what the backup read at its cut").isEmpty();
        RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(shards),
                BackupRestoreIT.freePort());
        try {
            assertThat(h.shards()).isEqualTo(shards);
        } catch (AssertionError e) {
            h.close();
            throw e;
        }
        return h;
    }

    static String awaitDone(RunningDaemon daemon, BackupStatus started) throws InterruptedException {
        BackupStatus s = BackupRestoreIT.awaitEnd(daemon, started.id());
        assertThat(s.phase()).as(s.message()).isEqualTo(BackupPhase.DONE);
        System.out.printf("BackupAtOneCutIT: backup %s: %,d rows, snapshots open %d ms, %d ms%n", s.id(), s.rowsRead(),
                s.snapshotMillis(), s.durationMillis());
        return s.id();
    }

    /** When the test first saw the backup past its cut (its snapshots open): a transfer begun later is not in it. */
    static long awaitSnapshotsOpen(RunningDaemon daemon, String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (daemon.daemon().backups().status(id).phase().ordinal() <= BackupPhase.CUTTING.ordinal()) {
            assertThat(System.nanoTime()).as("backup %s never got past its cut", id).isLessThan(deadline);
            Thread.sleep(2);
        }
        return System.nanoTime();
    }

    private static long mapVersion(Path archive, String backup) throws Exception {
        try (DirectoryStore store = new DirectoryStore(archive)) {
            return ShardMapStore.parse(new BackupCatalog(store).manifest(backup).shardMap()
                    .getBytes(StandardCharsets.UTF_8)).version();
        }
    }
}
