package io.cleave.e2e.moves;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.txn.TransactionType;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.moves.MoveChecks.count;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TPC-C warehouse moves between shards while the bench's TPC-C driver runs the standard mix
 * through the proxy (remote order lines and payments included, so some transactions span both
 * shards). No transaction fails because of the move, the TPC-C consistency conditions hold on the
 * shards afterwards, and every row of the moved warehouse is on the target only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpccMoveIT {

    private static final String SHARDING = TpccSharding.yaml(2);
    private static final List<String> TABLES = List.of("warehouse.w_id", "district.d_w_id", "customer.c_w_id",
            "history.h_w_id", "new_orders.no_w_id", "orders.o_w_id", "order_line.ol_w_id", "stock.s_w_id");

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void load() throws Exception {
        home = CleaveTestHome.builder().shards(2).bufferPoolPerShardMiB(128).extraYaml(SHARDING).create();
        if (!Boolean.getBoolean("move.long")) {
            // The default run copies at full speed in big chunks; -Dmove.long=true keeps the throttled defaults.
            System.setProperty("cleave.move.duty", "1");
            System.setProperty("cleave.move.chunk_rows", "5000");
        }
        try {
            daemon = home.start();
        } finally {
            System.clearProperty("cleave.move.duty");
            System.clearProperty("cleave.move.chunk_rows");
        }
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE tpcc");
        }
        ExecutorService loaders = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> loads = List.of(
                    loaders.submit(() -> TpccLoader.load(shard(0), new LoadOptions(1, 1, 1, false, LoadOptions.DEFAULT_SEED))),
                    loaders.submit(() -> TpccLoader.load(shard(1), new LoadOptions(1, 2, 1, false, LoadOptions.DEFAULT_SEED))));
            for (Future<?> f : loads) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            loaders.shutdownNow();
        }
        try (Connection c = daemon.connectProxy("tpcc", ""); Statement s = c.createStatement()) {
            // TPC-C's history has no key; a move copies and checks rows by primary key, so it gets one.
            s.execute("ALTER TABLE history ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY");
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    void aWarehouseMovesWhileTpccRunsWithNoErrorAndEveryConditionHolds() throws Exception {
        DataSource proxy = new JdbcTarget("jdbc:mysql://127.0.0.1:" + daemon.proxyPort()
                + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "").withServerPreparedStatements();
        Map<String, Long> rowsBefore = rowsOfWarehouse(0, 1);
        java.util.concurrent.atomic.AtomicBoolean moved = new java.util.concurrent.atomic.AtomicBoolean();
        // Short TPC-C runs back to back until the move is done, and one more after it.
        CompletableFuture<List<RunResult>> runs = MoveChecks.tpccUntil(proxy, 2, moved);
        Thread.sleep(2_000);
        MoveRecord started = daemon.daemon().moves().start("warehouse", "1", 1, "test");
        MoveRecord done;
        try {
            done = MoveChecks.awaitEnd(daemon.daemon().moves(), started.id, Duration.ofMinutes(5));
        } finally {
            moved.set(true);
        }
        List<RunResult> results = runs.get(5, TimeUnit.MINUTES);

        assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        long newOrders = 0;
        for (RunResult result : results) {
            assertThat(result.errors()).as("errors other than retried deadlocks and lock waits").isEmpty();
            newOrders += result.transaction(TransactionType.NEW_ORDER).completed();
        }
        assertThat(results.size()).as("TPC-C ran before, during and after the move").isGreaterThanOrEqualTo(2);
        assertThat(newOrders).isPositive();
        assertThat(ConsistencyCheck.check(List.of(shard(0), shard(1)), 2)).isEmpty();
        for (String t : TABLES) {
            String[] tc = t.split("\\.");
            assertThat(count(daemon, 0, "SELECT COUNT(*) FROM tpcc." + tc[0] + " WHERE " + tc[1] + " = 1"))
                    .as("%s rows of warehouse 1 left on shard 0", tc[0]).isZero();
            assertThat(count(daemon, 1, "SELECT COUNT(*) FROM tpcc." + tc[0] + " WHERE " + tc[1] + " = 1"))
                    .as("%s rows of warehouse 1 on shard 1", tc[0]).isGreaterThanOrEqualTo(rowsBefore.get(tc[0]) > 0 ? 1 : 0);
        }
        System.out.printf("TPC-C move: %,d rows copied in %d ms, %d catch-up events, pause %.1f ms (max held %.1f ms, %d"
                        + " statements), %d cutover attempts; %d TPC-C runs, %d new orders%n", done.rowsCopied,
                done.copyMillis, done.catchUpEvents, done.pauseMillis, done.maxHeldMillis, done.heldStatements,
                done.cutoverAttempts, results.size(), newOrders);
    }

    private Map<String, Long> rowsOfWarehouse(int shard, int w) throws Exception {
        Map<String, Long> out = new java.util.HashMap<>();
        for (String t : TABLES) {
            String[] tc = t.split("\\.");
            out.put(tc[0], count(daemon, shard, "SELECT COUNT(*) FROM tpcc." + tc[0] + " WHERE " + tc[1] + " = " + w));
        }
        return out;
    }

    private DataSource shard(int shard) {
        ShardEndpoint e = daemon.shards().get(shard);
        return new JdbcTarget("jdbc:mysql://127.0.0.1:" + e.port() + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&rewriteBatchedStatements=true", e.user(), e.secret());
    }
}
