package io.cleave.e2e.backup;

import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.backup.store.DirectoryStore;
import io.cleave.manager.backup.archive.BinlogArchiver;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Point-in-time restores to cuts recorded while {@code cleave shard-table} moved a table: two shards,
 * ledgered cross-shard bank transfers running all along, a backup before the move, and table k.u (on
 * shard 0, a unique key without the new sharding column, its rows updated through the proxy) sharded
 * on the bank's keyspace. One cut is recorded while the move is held before it verifies (its copy on
 * shard 1, the map routing k.u to shard 0), one while it is held at the start of its cleanup (the map
 * routing k.u by key, shard 0 still holding every row, the global unique key still marked
 * unfinished). Restored from the backup before the move, each home holds exactly one cut of the clients' history (the bank's
 * total, every transfer acknowledged before the cut, none begun after it, none by half, nothing
 * prepared), k.u's rows as read through the proxy at its cut, each once and on the shard the restored
 * map routes it to; k.u takes writes and its global unique key refuses a duplicate after the cut
 * during the cleanup. At each hold, and at a third one inside the cutover once the key is registered
 * (its lookups filled, the map not flipped), a backup is taken too ({@code auto}: physical on a server
 * with its mariadb-backup, as Debian's 10.11, else logical) and restored at its own cut: k.u on its
 * home only (a physical copy holds the move's copy on shard 1, which goes; no lookup or catalog row of
 * the key left), or routed by key with its global unique key enforced, as read through the proxy.
 * (Restores to such cuts into another shard count: {@link PointInTimeDuringScaleIT}.)
 */
class PointInTimeDuringTableMoveIT {

    private static final int ROWS = 300;

    @Test
    void cutsDuringATableMoveRestoreAsClientsSawThem() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-pit-table-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        CountDownLatch releaseVerify = new CountDownLatch(1);
        CountDownLatch atKeys = new CountDownLatch(1);
        CountDownLatch releaseKeys = new CountDownLatch(1);
        CountDownLatch atCleanup = new CountDownLatch(1);
        CountDownLatch releaseCleanup = new CountDownLatch(1);
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2)
                .extraYaml(ArchivedMoves.TWO_SHARD_BANK + ArchivedMoves.archiving(archive)).create();
             RunningDaemon daemon = home.start()) {
            BinlogArchiver archiver = daemon.daemon().archiver();
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                LedgeredTransfers.create(c, BackupAtOneCutIT.SHAPE);
                s.execute("CREATE DATABASE IF NOT EXISTS k");
                s.execute("CREATE TABLE k.u (id INT PRIMARY KEY, code INT NOT NULL UNIQUE, v INT NOT NULL)");
                StringBuilder insert = new StringBuilder("INSERT INTO k.u VALUES ");
                for (int id = 1; id <= ROWS; id++) {
                    insert.append(id == 1 ? "" : ",").append('(').append(id).append(',').append(100_000 + id).append(",0)");
                }
                s.execute(insert.toString());
            }
            String before = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                    BackupEngine.LOGICAL));

            long[] duringCopy = new long[2];
            long[] duringCleanup = new long[2];
            CutRecord copying;
            CutRecord cleaning;
            String backupCopying;
            String backupKeys;
            Map<Long, Long> atKeysRegistered;
            String backupCleaning;
            Map<Long, Long> atCopying;
            Map<Long, Long> atCleaning;
            Map<Long, LedgeredTransfers.Outcome> outcomes;
            daemon.daemon().moves().testHooks((point, id) -> {
                if (point == MoveHooks.Point.VERIFYING) {
                    await(releaseVerify);
                } else if (point == MoveHooks.Point.KEYS_REGISTERED && atKeys.getCount() > 0) {
                    atKeys.countDown();
                    await(releaseKeys);
                } else if (point == MoveHooks.Point.CLEANING_UP && atCleanup.getCount() > 0) {
                    atCleanup.countDown();
                    await(releaseCleanup);
                }
            });
            try (LedgeredTransfers load = new LedgeredTransfers(BackupAtOneCutIT.SHAPE, 2, home.proxyPort(), 23);
                 RowUpdates updates = new RowUpdates(daemon, "k", "u", ROWS)) {
                load.start(4);
                load.awaitAcknowledged(100);
                MoveRecord move = daemon.daemon().moves().shardTable("k.u", new TableRule.Sharded("u", "branch", "id"));
                awaitVerifying(daemon, move.id);
                load.awaitAcknowledged(100);
                ShardMap held = daemon.daemon().shardMaps().current();
                assertThat(held.movingTables()).as("the table move in the map").containsKey("u");
                assertThat(held.routing(daemon.daemon().config().sharding().topology()).ruleFor("u"))
                        .as("k.u before the cutover").isInstanceOf(TableRule.Unsharded.class);
                assertThat(MoveChecks.count(daemon, 1, "SELECT COUNT(*) FROM k.u")).as("the copy on shard 1").isPositive();
                updates.pause();
                duringCopy[0] = System.nanoTime();
                copying = archiver.round();
                duringCopy[1] = System.nanoTime();
                backupCopying = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                        BackupEngine.AUTO));
                atCopying = rows(daemon);
                updates.resume();
                assertThat(copying).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                assertThat(copying.mapVersion()).isEqualTo(held.version());

                // Held inside the cutover, its keys registered and their lookups filled, the map not flipped:
                // the updates of k.u paused first (the hold would hold them), so k.u is as read here.
                updates.pause();
                atKeysRegistered = rows(daemon);
                releaseVerify.countDown();
                assertThat(atKeys.await(2, TimeUnit.MINUTES)).as("the move registered its keys").isTrue();
                assertThat(MoveChecks.count(daemon, 0, "SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'u'"))
                        .as("k.u's global unique key registered before the flip").isEqualTo(1);
                assertThat(daemon.daemon().shardMaps().current().version()).as("the map not flipped")
                        .isEqualTo(held.version());
                backupKeys = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                        BackupEngine.AUTO));
                releaseKeys.countDown();
                updates.resume();

                assertThat(atCleanup.await(2, TimeUnit.MINUTES)).as("the move reached its cleanup").isTrue();
                load.awaitAcknowledged(100);
                ShardMap flipped = daemon.daemon().shardMaps().current();
                assertThat(flipped.movingTables()).as("the table move in the map until its cleanup ends").containsKey("u");
                assertThat(flipped.routing(daemon.daemon().config().sharding().topology()).ruleFor("u"))
                        .as("k.u after the cutover").isInstanceOf(TableRule.Sharded.class);
                assertThat(MoveChecks.count(daemon, 0, "SELECT COUNT(*) FROM k.u")).as("shard 0 before the cleanup")
                        .isEqualTo(ROWS);
                assertThat(MoveChecks.count(daemon, 0, "SELECT COUNT(*) FROM cleave.unique_key_builds WHERE table_name = 'u'"))
                        .as("k.u's global unique key, marked unfinished until the cleanup").isEqualTo(1);
                updates.pause();
                duringCleanup[0] = System.nanoTime();
                cleaning = archiver.round();
                duringCleanup[1] = System.nanoTime();
                backupCleaning = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                        BackupEngine.AUTO));
                atCleaning = rows(daemon);
                updates.resume();
                assertThat(cleaning).as("a cut recorded: %s", archiver.lastProblem()).isNotNull();
                assertThat(cleaning.mapVersion()).isEqualTo(flipped.version());

                releaseCleanup.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(2));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
                load.awaitAcknowledged(50);
                load.close();
                outcomes = load.outcomes();
                System.out.println("PointInTimeDuringTableMoveIT: " + load.summary() + ", " + updates.updates
                        + " updates of k.u");
                assertThat(load.errors()).as("errors clients saw").isEmpty();
                assertThat(updates.errors).as("errors the updates of k.u saw").isZero();
            } finally {
                releaseVerify.countDown();
                releaseKeys.countDown();
                releaseCleanup.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }
            assertThat(atCleaning).isNotEqualTo(atCopying);
            // cleave backups lists the cuts during the move as reachable from the backup before it.
            assertThat(daemon.daemon().backups().list(archive.toString()).reachableCuts()).as("cuts cleave backups lists")
                    .anySatisfy(w -> {
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("cuts (\\d+)-(\\d+) \\(from backup "
                                + java.util.regex.Pattern.quote(before) + "\\)").matcher(w);
                        assertThat(m.matches()).as(w).isTrue();
                        assertThat(Long.parseLong(m.group(1))).isLessThanOrEqualTo(copying.id());
                        assertThat(Long.parseLong(m.group(2))).isGreaterThanOrEqualTo(cleaning.id());
                    });

            var settings = daemon.daemon().config().backup();
            try (RestoredHome h = ArchivedMoves.restoreCut(settings, archive, copying, before, work.resolve("copying"), 2)) {
                String what = "cut " + copying.id() + " (k.u copied, not cut over)";
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, duringCopy[0], duringCopy[1], what);
                assertThat(h.assertRowsWhereRouted("bank.entries", "branch", "branch", what)).isPositive();
                assertOnItsHomeAsAtTheCut(h, atCopying, what);
            }
            try (RestoredHome h = ArchivedMoves.restoreCut(settings, archive, cleaning, before, work.resolve("cleaning"), 2)) {
                String what = "cut " + cleaning.id() + " (k.u cut over, not cleaned up)";
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, duringCleanup[0], duringCleanup[1], what);
                assertThat(h.assertRowsWhereRouted("bank.entries", "branch", "branch", what)).isPositive();
                assertShardedAsAtTheCut(h, atCleaning, what);
            }
            try (RestoredHome h = restoreBackup(settings, archive, backupCopying, work.resolve("copying-backup"))) {
                String what = "backup " + backupCopying + " (" + engine(archive, backupCopying) + ", k.u copied, not cut over)";
                assertOnItsHomeAsAtTheCut(h, atCopying, what);
            }
            try (RestoredHome h = restoreBackup(settings, archive, backupKeys, work.resolve("keys-backup"))) {
                String what = "backup " + backupKeys + " (" + engine(archive, backupKeys) + ", k.u's keys registered, the"
                        + " map not flipped)";
                assertOnItsHomeAsAtTheCut(h, atKeysRegistered, what);
                String lookup = io.cleave.router.unique.UniqueIndex.lookupName("k", "u", "code");
                for (int shard = 0; shard < 2; shard++) {
                    try (Connection c = h.shard(shard)) {
                        assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE"
                                + " TABLE_SCHEMA = 'cleave' AND TABLE_NAME = '" + lookup + "'"))
                                .as("%s: the lookup the move made for k.u's key, on shard %d", what, shard).isZero();
                    }
                }
                try (Connection c = h.shard(0)) {
                    assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'u'"))
                            .as("%s: k.u's global unique key (the table was not sharded)", what).isZero();
                }
            }
            try (RestoredHome h = restoreBackup(settings, archive, backupCleaning, work.resolve("cleaning-backup"))) {
                String what = "backup " + backupCleaning + " (" + engine(archive, backupCleaning)
                        + ", k.u cut over, not cleaned up)";
                assertShardedAsAtTheCut(h, atCleaning, what);
            }
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /** Restores backup {@code id} of {@code archive} at its own cut into {@code into}, checks its tables and starts it. */
    private static RestoredHome restoreBackup(io.cleave.manager.config.BackupConfig settings, Path archive, String id,
                                              Path into) throws Exception {
        Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                .run(new RestoreRequest(archive.toString(), id, OptionalLong.empty(), OptionalLong.empty(), into,
                        OptionalInt.empty()));
        assertThat(r.problems()).as("backup %s: tables whose rows differ from what was read at its cut", id).isEmpty();
        return RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(2), BackupRestoreIT.freePort());
    }

    private static String engine(Path archive, String id) throws Exception {
        try (DirectoryStore store = new DirectoryStore(archive)) {
            return new BackupCatalog(store).manifest(id).engine();
        }
    }

    /** k.u, not sharded at the cut, only on its home, shard 0 (the move's copy on shard 1 went), as read through the proxy. */
    private static void assertOnItsHomeAsAtTheCut(RestoredHome h, Map<Long, Long> atCut, String what) throws SQLException {
        try (Connection c = h.shard(0)) {
            assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM k.u")).as("%s: k.u on its home, shard 0", what)
                    .isEqualTo(ROWS);
        }
        try (Connection c = h.shard(1)) {
            assertThat(RestoredHome.single(c, "SELECT COUNT(*) FROM k.u")).as("%s: the move's copy on shard 1", what)
                    .isZero();
        }
        try (Connection c = h.proxy("k")) {
            assertThat(RowUpdates.read(c, "u")).as("%s: k.u as read through the proxy at the cut", what).isEqualTo(atCut);
        }
    }

    /** k.u, sharded at the cut: each row once where the map routes it, as read through the proxy, and it takes writes. */
    private static void assertShardedAsAtTheCut(RestoredHome h, Map<Long, Long> atCut, String what) throws SQLException {
        assertThat(h.assertRowsWhereRouted("k.u", "branch", "id", what)).as("%s: rows of k.u on the shards", what)
                .isEqualTo(ROWS);
        try (Connection c = h.proxy("k")) {
            assertThat(RowUpdates.read(c, "u")).as("%s: k.u as read through the proxy at the cut", what).isEqualTo(atCut);
        }
        assertWritesWithTheGlobalKey(h, what);
    }

    /** k.u, sharded at the cut, takes writes, and its global unique key refuses a duplicate across shards. */
    private static void assertWritesWithTheGlobalKey(RestoredHome h, String what) throws SQLException {
        try (Connection c = h.proxy("k"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO u VALUES (" + (ROWS + 1) + ", 1, 0)");
            // id 2 lives on shard 0, ROWS + 2 on another: only the global key's lookup sees the duplicate.
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO u VALUES (" + (ROWS + 2) + ", 100002, 0)"))
                    .as("%s: a duplicate of the global unique key", what)
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1062));
        }
    }

    private static Map<Long, Long> rows(RunningDaemon daemon) throws SQLException {
        try (Connection c = daemon.connectProxy("k", "")) {
            return RowUpdates.read(c, "u");
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

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.MINUTES); // a physical backup under load takes a while
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
