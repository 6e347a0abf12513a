package io.cleave.e2e.backup;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.schema.TpccSchema;
import io.cleave.bench.tpcc.txn.TransactionType;
import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BackupAtOneCutIT}'s proof with TPC-C running as well: two shards, TPC-C through the proxy
 * (the bench's driver, the standard mix), the ledgered cross-shard bank transfers, and a move of bank
 * branches 1-50 to shard 1 held before it verifies, all at once. A backup before the move and one
 * while it is under way; the second restored into 2 and into 3 shards, and a cut recorded after the
 * move restored from the first: each restored home holds exactly one cut of the transfers (the
 * checks of {@link BackupAtOneCutIT#assertHoldsOneCut}) and TPC-C's consistency conditions 1-4, with
 * every order where the restored map routes it. The bank's transfers cross the shards; TPC-C's do
 * with {@code -Dbackup.long=true} (two warehouses; about 4 minutes instead of 2).
 */
class BackupUnderTpccIT {

    /**
     * One, on shard 0 (about 0.55 million rows: each restore takes some 20 s here); {@code -Dbackup.long=true}:
     * two, one per shard, so that TPC-C's remote order lines and payments commit across the shards too.
     */
    private static final int WAREHOUSES = Boolean.getBoolean("backup.long") ? 2 : 1;
    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(300, 20, 150);
    private static final int WRITERS = 3;
    private static final int LOAD = 100;
    private static final String SHARDING = "sharding:\n  keyspaces:\n" + TpccSharding.keyspace(2) + """
                - name: branch
                  function: range
                  ranges:
                    - { from: 1, to: 150, shard: 0 }
                    - { from: 151, shard: 1 }
            """ + "  tables:\n" + TpccSharding.tables() + """
                - { name: accounts, keyspace: branch, column: branch }
                - { name: branch_names, type: reference }
                - { name: entries, keyspace: branch, column: branch }
            """;

    @Test
    void aBackupUnderTpccTransfersAndAMoveRestoresOneCutWhereTpccHolds() throws Exception {
        long began = System.nanoTime();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-tpcc-bk-", BackupRestoreIT.SEARCHABLE);
        Path archive = work.resolve("archive");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).bufferPoolPerShardMiB(128)
                .extraYaml(SHARDING + ArchivedMoves.archiving(archive)).create();
             RunningDaemon daemon = home.start()) {
            try (Connection c = daemon.connectProxy("", "")) {
                LedgeredTransfers.create(c, SHAPE);
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE tpcc");
                }
            }
            loadTpcc(daemon);
            DataSource proxy = new JdbcTarget("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                    + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "").withServerPreparedStatements();
            System.out.printf("BackupUnderTpccIT: %d warehouses loaded in %d s%n", WAREHOUSES,
                    (System.nanoTime() - began) / 1_000_000_000L);

            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean stop = new AtomicBoolean();
            String before;
            String during;
            long asked;
            long seenOpen;
            CutRecord after;
            long[] afterAt = new long[2];
            Map<Long, LedgeredTransfers.Outcome> outcomes;
            List<RunResult> tpccRuns;
            CompletableFuture<List<RunResult>> tpcc = MoveChecks.tpccUntil(proxy, WAREHOUSES, stop);
            try (ArchivedMoves slow = ArchivedMoves.slowCopies();
                 LedgeredTransfers load = new LedgeredTransfers(SHAPE, 2, home.proxyPort(), 41)) {
                load.start(WRITERS);
                load.awaitAcknowledged(LOAD);
                before = BackupAtOneCutIT.awaitDone(daemon, daemon.daemon().backups().start(archive.toString(),
                        BackupEngine.LOGICAL));
                load.awaitAcknowledged(LOAD);

                daemon.daemon().moves().testHooks(ArchivedMoves.holdBeforeVerifying(release));
                MoveRecord move = daemon.daemon().moves().start("branch", "1-50", 1, "test");
                load.awaitAcknowledged(LOAD);
                asked = System.nanoTime();
                BackupStatus started = daemon.daemon().backups().start(archive.toString(), BackupEngine.LOGICAL);
                seenOpen = BackupAtOneCutIT.awaitSnapshotsOpen(daemon, started.id());
                during = BackupAtOneCutIT.awaitDone(daemon, started);
                assertThat(daemon.daemon().moves().get(move.id).phase).as("the move, under way during the backup")
                        .isIn(MovePhase.COPYING, MovePhase.CATCHING_UP, MovePhase.VERIFYING);
                release.countDown();
                MoveRecord moved = MoveChecks.awaitEnd(daemon.daemon().moves(), move.id, Duration.ofMinutes(3));
                assertThat(moved.phase).as(moved.message).isEqualTo(MovePhase.DONE);
                load.awaitAcknowledged(LOAD);
                afterAt[0] = System.nanoTime();
                after = daemon.daemon().archiver().round();
                afterAt[1] = System.nanoTime();
                assertThat(after).as("a cut recorded: %s", daemon.daemon().archiver().lastProblem()).isNotNull();
                stop.set(true);
                tpccRuns = tpcc.get(3, TimeUnit.MINUTES);
                load.close();
                outcomes = load.outcomes();
                System.out.println("BackupUnderTpccIT: " + load.summary());
                assertThat(load.errors()).as("errors the transfers' clients saw").isEmpty();
            } finally {
                stop.set(true);
                release.countDown();
                daemon.daemon().moves().testHooks(MoveHooks.NONE);
            }
            long newOrders = 0;
            for (RunResult r : tpccRuns) {
                assertThat(r.errors()).as("TPC-C errors other than retried deadlocks and lock waits").isEmpty();
                newOrders += r.transaction(TransactionType.NEW_ORDER).completed();
            }
            assertThat(newOrders).as("TPC-C new orders during the test").isPositive();
            System.out.printf("BackupUnderTpccIT: %d TPC-C runs, %,d new orders%n", tpccRuns.size(), newOrders);

            var settings = daemon.daemon().config().backup();
            for (int shards : new int[] {2, 3}) {
                try (RestoredHome h = BackupAtOneCutIT.restoreBackup(settings, archive, during, work.resolve("home" + shards),
                        shards)) {
                    String what = "the backup during the move under TPC-C, into " + shards + " shards";
                    BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, asked, seenOpen, what);
                    h.assertTpccHolds(WAREHOUSES, what);
                }
            }
            Restore.Result toAfter = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                    .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(after.id()),
                            work.resolve("after"), OptionalInt.empty()));
            assertThat(toAfter.backup()).as("the base of the cut after the move").isEqualTo(before);
            try (RestoredHome h = RestoredHome.start(toAfter.home(), toAfter.config(), BackupRestoreIT.freeBase(2),
                    BackupRestoreIT.freePort())) {
                String what = "cut " + after.id() + " (after the move, under TPC-C) from the backup before it";
                BackupAtOneCutIT.assertHoldsOneCut(h, outcomes, afterAt[0], afterAt[1], what);
                h.assertTpccHolds(WAREHOUSES, what);
            }
            System.out.printf("BackupUnderTpccIT: %d s in all%n", (System.nanoTime() - began) / 1_000_000_000L);
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /** Each warehouse straight into its shard (w on shard w - 1), items on both; history gets a key (backups chunk by it). */
    private static void loadTpcc(RunningDaemon daemon) throws Exception {
        ExecutorService loaders = Executors.newFixedThreadPool(WAREHOUSES);
        try {
            List<Future<?>> loads = new ArrayList<>();
            for (int w = 1; w <= WAREHOUSES; w++) {
                DataSource shard = shard(daemon, w - 1);
                int warehouse = w;
                loads.add(loaders.submit(() -> TpccLoader.load(shard, new LoadOptions(1, warehouse, 2, false,
                        LoadOptions.DEFAULT_SEED))));
            }
            for (Future<?> f : loads) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            loaders.shutdownNow();
        }
        if (WAREHOUSES == 1) { // shard 1 holds no warehouse, but TPC-C's schema and its reference table item
            try (Connection from = shard(daemon, 0).getConnection(); Connection to = shard(daemon, 1).getConnection()) {
                TpccSchema.create(to);
                copyItems(from, to);
            }
        }
        try (Connection c = daemon.connectProxy("tpcc", ""); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE history ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY");
        }
    }

    private static DataSource shard(RunningDaemon daemon, int shard) {
        ShardEndpoint e = daemon.shards().get(shard);
        return new JdbcTarget("jdbc:mysql://127.0.0.1:" + e.port() + "/tpcc?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true", e.user(), e.secret());
    }

    private static void copyItems(Connection from, Connection to) throws SQLException {
        to.setAutoCommit(false);
        try (Statement read = from.createStatement(); ResultSet rs = read.executeQuery(
                "SELECT i_id, i_im_id, i_name, i_price, i_data FROM item");
             PreparedStatement insert = to.prepareStatement(
                     "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?)")) {
            int batched = 0;
            while (rs.next()) {
                for (int i = 1; i <= 5; i++) {
                    insert.setObject(i, rs.getObject(i));
                }
                insert.addBatch();
                if (++batched % 5000 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
        to.commit();
    }
}
