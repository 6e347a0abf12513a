package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.cleave.e2e.moves.MoveChecks.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write-heavy load through the proxy (sysbench's oltp_write_only: an index update, a non-index
 * update, a delete and an insert of the same id per transaction, eight clients) while keys move back
 * and forth between two shards, in rounds: buckets of a hash keyspace (whose moving rows lie between
 * the rows that stay, in every index) and a range of a range keyspace; then moves whose verification
 * copies every chunk again. The clients touch their rows in descending order, so they never deadlock
 * each other (one server gives them no error) and they take rows in the order opposite to the move's
 * own scans. A move may make a client wait, never fail: every error a client gets fails the test.
 * {@code -Dmoves.errorRounds=N} runs more rounds (default 1).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClientErrorsDuringMovesIT {

    private static final int TABLES = 3;
    private static final int ROWS = 3000;
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: sbh, function: hash, buckets: 16, key_type: integer }
                - name: sbr
                  function: range
                  ranges:
                    - { from: 1, to: 1500, shard: 0 }
                    - { from: 1501, shard: 1 }
              tables:
                - { name: sbtest1, keyspace: sbh, column: id }
                - { name: sbtest2, keyspace: sbh, column: id }
                - { name: sbtest3, keyspace: sbr, column: id }
            """;

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private MoveService moves;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml(SHARDING).create();
        daemon = home.start();
        moves = daemon.daemon().moves();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE sb");
        }
        try (Connection c = daemon.connectProxy("sb", "")) {
            SbLoad.prepare(c, TABLES, ROWS);
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
    @Order(1)
    void keysMoveBackAndForthUnderWritesWithoutAClientError() throws Exception {
        int rounds = Integer.getInteger("moves.errorRounds", 1);
        List<String> done = new ArrayList<>();
        try (SbLoad load = load()) {
            load.awaitTransactions(200, Duration.ofMinutes(1));
            for (int round = 1; round <= rounds; round++) {
                for (String[] move : new String[][] {{"sbh", "bucket:0-7", "1"}, {"sbh", "bucket:0-7", "0"},
                        {"sbr", "1-700", "1"}, {"sbr", "1-700", "0"}}) {
                    long before = load.transactions();
                    MoveRecord ended = move(move[0], move[1], Integer.parseInt(move[2]));
                    done.add("round " + round + " " + move[0] + " " + move[1] + " to " + move[2] + ": "
                            + (load.transactions() - before) + " transactions, " + ended.chunksRepaired + " chunks repaired");
                    assertThat(load.errorLines()).as(() -> "client errors after " + done
                            + MoveChecks.latestDeadlocks(daemon)).isEmpty();
                }
            }
            load.awaitTransactions(100, Duration.ofMinutes(1));
            load.stopAndCheck();
            System.out.println("ClientErrorsDuringMovesIT: " + load.transactions() + " transactions; " + done);
        }
    }

    /**
     * Verification copies a chunk again where the target differs: here every chunk, because the
     * target's copy is changed behind the move's back before it verifies. The target's own rows lie
     * in those chunks' key ranges (a hash keyspace), and clients keep writing them.
     */
    @Test
    @Order(2)
    void chunksCopiedAgainByVerificationDoNotFailClients() throws Exception {
        int rounds = Integer.getInteger("moves.errorRounds", 1);
        List<String> done = new ArrayList<>();
        try (SbLoad load = load()) {
            load.awaitTransactions(200, Duration.ofMinutes(1));
            for (int round = 1; round <= rounds; round++) {
                AtomicBoolean once = new AtomicBoolean();
                moves.testHooks((point, id) -> {
                    if (point == MoveHooks.Point.VERIFYING && once.compareAndSet(false, true)) {
                        changeCopyOnShard0();
                    }
                });
                long before = load.transactions();
                MoveRecord there = move("sbh", "bucket:8-15", 0);
                moves.testHooks(MoveHooks.NONE);
                move("sbh", "bucket:8-15", 1);
                assertThat(there.chunksRepaired).as("chunks verification copied again").isGreaterThan(0);
                done.add("round " + round + ": " + there.chunksRepaired + " chunks copied again, "
                        + (load.transactions() - before) + " transactions");
                assertThat(load.errorLines()).as(() -> "client errors while verification copied chunks again (" + done
                        + ")" + MoveChecks.latestDeadlocks(daemon)).isEmpty();
            }
            load.awaitTransactions(100, Duration.ofMinutes(1));
            load.stopAndCheck();
            System.out.println("ClientErrorsDuringMovesIT: " + done);
        } finally {
            moves.testHooks(MoveHooks.NONE);
        }
    }

    /** Buckets 8-15 move from shard 1 to shard 0: their copy on shard 0 is changed, so that every chunk differs. */
    private void changeCopyOnShard0() {
        try (Connection c = daemon.connect(0)) {
            // By key, one row at a time with autocommit: an UPDATE over the whole table would lock
            // rows clients write while passing over them, and it must not be what deadlocks with them.
            for (int t = 1; t <= 2; t++) {
                List<Integer> ids = new ArrayList<>();
                try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                        "SELECT id FROM sb.sbtest" + t + " WHERE cleave.bucket_of(id, 16) BETWEEN 8 AND 15")) {
                    while (rs.next()) {
                        ids.add(rs.getInt(1));
                    }
                }
                try (java.sql.PreparedStatement ps = c.prepareStatement(
                        "UPDATE sb.sbtest" + t + " SET pad = 'changed behind the move' WHERE id = ?")) {
                    for (int id : ids) {
                        ps.setInt(1, id);
                        ps.executeUpdate();
                    }
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private SbLoad load() {
        return new SbLoad(SbLoad.proxy(daemon.proxyPort(), "sb"), 8, TABLES, ROWS, true);
    }

    private MoveRecord move(String keyspace, String keys, int to) throws InterruptedException {
        MoveRecord started = moves.start(keyspace, keys, to, "test");
        MoveRecord ended = MoveChecks.awaitEnd(moves, started.id, Duration.ofMinutes(3));
        assertThat(ended.phase).as(ended.message).isEqualTo(MovePhase.DONE);
        return ended;
    }
}
