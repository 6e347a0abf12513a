package io.cleave.e2e.transactions;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.bench.tpcc.txn.TransactionType;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.e2e.moves.MoveChecks;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.supervisor.InstanceState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TPC-C over 2 shards (4 with {@code -Dtpcc.long=true}), one warehouse each, through the proxy with the standard mix: 1% of order
 * lines draw stock from a remote warehouse and 15% of payments go to a remote customer, so those
 * transactions commit across shards. Afterwards the four TPC-C consistency conditions, read from
 * every shard directly, must hold, and no XA branch may stay prepared; also after one shard was
 * killed with SIGKILL in the middle of a run and restarted by the supervisor.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TpccAcrossShardsIT {

    /** Two shards are enough for remote warehouses; more cost a warehouse's load each. */
    private static final int SHARDS = Boolean.getBoolean("tpcc.long") ? 4 : 2;
    private static final String DATABASE = "tpcc";
    private static final String SHARDING = TpccSharding.yaml(SHARDS);

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private DataSource proxy;

    @BeforeAll
    void loadOneWarehousePerShard() throws Exception {
        home = CleaveTestHome.builder().shards(SHARDS).bufferPoolPerShardMiB(128).extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DATABASE);
        }
        // Each shard loads its own warehouse (and its copy of item) directly: all loads at once.
        TpccSharding.loadOneWarehousePerShard(shards());
        proxy = new JdbcTarget("jdbc:mysql://127.0.0.1:" + daemon.proxyPort() + "/" + DATABASE
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "").withServerPreparedStatements();
        assertThat(ConsistencyCheck.check(shards(), SHARDS)).as("violations right after the load").isEmpty();
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
    @Order(1)
    void theStandardMixCommitsAcrossShardsAndKeepsEveryConsistencyCondition() throws Exception {
        long crossShardBefore = preparedBranches();

        RunResult result = TpccDriver.run(proxy, RunOptions.of(SHARDS, 4, Duration.ofSeconds(5))
                .withWarmup(Duration.ofSeconds(1)).withReportInterval(Duration.ofSeconds(1)));

        assertThat(result.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        assertThat(result.transaction(TransactionType.PAYMENT).completed()).isPositive();
        assertThat(result.transaction(TransactionType.DELIVERY).completed()).isPositive();
        assertThat(result.errors()).as("errors other than retried deadlocks and lock waits").isEmpty();
        assertThat(preparedBranches() - crossShardBefore)
                .as("XA branches prepared on the shards: remote payments and order lines committed across shards")
                .isPositive();
        assertThat(ConsistencyCheck.check(shards(), SHARDS)).isEmpty();
        assertNoBranchPrepared(Duration.ofSeconds(5));
    }

    @Test
    @Order(2)
    void aShardKilledMidRunLeavesEveryConditionTrueOnceItIsBack() throws Exception {
        int victim = SHARDS - 1;
        long pidBefore = daemon.status(victim).pid();
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
            try {
                return TpccDriver.run(proxy, RunOptions.of(SHARDS, 4, Duration.ofSeconds(10))
                        .withReportInterval(Duration.ofSeconds(1)));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(4_000);
        ProcessHandle.of(pidBefore).orElseThrow().destroyForcibly();
        daemon.awaitStatus(victim, s -> s.state() == InstanceState.RUNNING && s.pid() != pidBefore,
                Duration.ofSeconds(60));

        RunResult result = run.get(3, TimeUnit.MINUTES);
        assertThat(result.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        // Transactions in flight on the killed shard fail (connection lost); none may be half applied.
        assertNoBranchPrepared(Duration.ofSeconds(45));
        assertThat(ConsistencyCheck.check(shards(), SHARDS)).isEmpty();

        // And the system keeps working afterwards, across shards too.
        RunResult after = TpccDriver.run(proxy, RunOptions.of(SHARDS, 4, Duration.ofSeconds(4)));
        assertThat(after.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        assertThat(after.errors()).as("errors once the shard is back").isEmpty();
        assertThat(ConsistencyCheck.check(shards(), SHARDS)).isEmpty();
    }

    /**
     * A move of the killed shard's warehouse right after, under TPC-C: its cutover finds the
     * moving keys idle (sessions whose statements met the dead shard do not stay marked as in a
     * transaction there). Behind {@code -Dtpcc.moveAfterKill=true}: it copies a warehouse.
     */
    @Test
    @Order(3)
    void aMoveRightAfterTheKillCutsOver() throws Exception {
        assumeTrue(Boolean.getBoolean("tpcc.moveAfterKill"), "a warehouse move after the kill: -Dtpcc.moveAfterKill=true");
        try (Connection c = daemon.connectProxy(DATABASE, ""); Statement s = c.createStatement()) {
            // TPC-C's history has no key; a move copies and checks rows by primary key, so it gets one.
            s.execute("ALTER TABLE history ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY");
        }
        AtomicBoolean moved = new AtomicBoolean();
        CompletableFuture<List<RunResult>> runs = MoveChecks.tpccUntil(proxy, SHARDS, moved);
        Thread.sleep(1_000);
        MoveRecord started = daemon.daemon().moves().start("warehouse", String.valueOf(SHARDS), 0, "test");
        MoveRecord done;
        try {
            done = MoveChecks.awaitEnd(daemon.daemon().moves(), started.id, Duration.ofMinutes(5));
        } finally {
            moved.set(true);
        }
        List<RunResult> results = runs.get(5, TimeUnit.MINUTES);
        assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        for (RunResult result : results) {
            assertThat(result.errors()).as("errors other than retried deadlocks and lock waits").isEmpty();
        }
        assertThat(ConsistencyCheck.check(shards(), SHARDS)).isEmpty();
        System.out.printf("move after the kill: %d cutover attempts, pause %.1f ms%n", done.cutoverAttempts, done.pauseMillis);
    }

    /** Waits until no shard holds a prepared branch: recovery settles those of broken commits. */
    private void assertNoBranchPrepared(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> prepared = preparedXids();
        while (!prepared.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(250);
            prepared = preparedXids();
        }
        assertThat(prepared).as("XA branches still prepared after %s", timeout).isEmpty();
    }

    private List<String> preparedXids() throws SQLException {
        List<String> out = new ArrayList<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection c = daemon.connect(shard); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("XA RECOVER")) {
                while (rs.next()) {
                    out.add("shard " + shard + ": " + rs.getString("data"));
                }
            }
        }
        return out;
    }

    /** XA PREPAREs the shards have run since they started (SHOW GLOBAL STATUS). */
    private long preparedBranches() throws SQLException {
        long total = 0;
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection c = daemon.connect(shard); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_xa_prepare'")) {
                rs.next();
                total += rs.getLong(2);
            }
        }
        return total;
    }

    private List<DataSource> shards() {
        List<DataSource> out = new ArrayList<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            out.add(shard(shard));
        }
        return out;
    }

    private DataSource shard(int shard) {
        ShardEndpoint e = daemon.shards().get(shard);
        return new JdbcTarget("jdbc:mysql://127.0.0.1:" + e.port() + "/" + DATABASE
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true", e.user(), e.secret());
    }
}
