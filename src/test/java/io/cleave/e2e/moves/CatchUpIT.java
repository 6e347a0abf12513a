package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.QueryRows;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.cleave.e2e.moves.MoveChecks.count;
import static io.cleave.e2e.moves.MoveChecks.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Catch-up against the source's real binlog in the two situations where reading the source again
 * for a changed key can find the row as it was: an XA transaction whose rows the binlog carries at
 * its XA PREPARE and which the source shows only at its XA COMMIT (seconds later, from another
 * connection, or after the mover restarted), and a commit the binlog already carries while the
 * engine has not made it visible yet (held there by semi-synchronous replication's wait after the
 * binlog sync, as a busy server holds one for a moment). Each is placed where verification cannot
 * repair it any more (after it, while the cutover waits), so a lost write stays lost.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CatchUpIT {

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE k");
            execute(c, "CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, v BIGINT NOT NULL, PRIMARY KEY (w, i))");
            StringBuilder values = new StringBuilder();
            for (int w = 1; w <= 100; w++) {
                for (int i = 0; i < 5; i++) {
                    values.append(values.isEmpty() ? "" : ",").append("(").append(w).append(",").append(i).append(",0)");
                }
            }
            execute(c, "INSERT INTO k.t (w, i, v) VALUES " + values);
        }
    }

    @AfterEach
    void noHooks() {
        hooks().set(MoveHooks.NONE);
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
    void aBranchPreparedOnTheSourceDuringTheCutoverReachesTheTargetWithItsCommit() throws Exception {
        AtomicBoolean once = new AtomicBoolean();
        CompletableFuture<Void> committed = new CompletableFuture<>();
        hooks().set((point, id) -> {
            if (point == MoveHooks.Point.CUTTING_OVER && once.compareAndSet(false, true)) {
                // Prepared before the cutover's catch-up reads it; committed while the cutover waits for it.
                prepare("cleave-test-1", "UPDATE k.t SET v = 42 WHERE w = 5 AND i = 0");
                CompletableFuture.runAsync(() -> {
                    sleep(1500);
                    run(0, "XA COMMIT 'cleave-test-1'");
                }).whenComplete((v, e) -> complete(committed, e));
            }
        });
        MoveRecord done = move("1-10");
        committed.get(10, TimeUnit.SECONDS);
        assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        assertThat(done.cutoverAttempts).as("attempts while the branch was prepared").isGreaterThan(1);
        assertThat(count(daemon, 1, "SELECT v FROM k.t WHERE w = 5 AND i = 0")).as("the committed branch's row on the target")
                .isEqualTo(42);
    }

    @Test
    @Order(2)
    void aCommitInTheBinlogButNotYetVisibleOnTheSourceReachesTheTarget() throws Exception {
        AtomicBoolean once = new AtomicBoolean();
        CompletableFuture<Long> written = new CompletableFuture<>();
        try {
            hooks().set((point, id) -> {
                if (point == MoveHooks.Point.CUTTING_OVER && once.compareAndSet(false, true)) {
                    String before = binlogEnd(0);
                    // With no replica to answer, the commit waits 3 s between its binlog sync and its engine
                    // commit: its events reach the catch-up while the source still shows the old row.
                    run(0, "SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC");
                    run(0, "SET GLOBAL rpl_semi_sync_master_timeout = 3000");
                    run(0, "SET GLOBAL rpl_semi_sync_master_enabled = ON");
                    CompletableFuture.runAsync(() -> {
                        try (Connection c = daemon.connectProxy("k", "")) {
                            long start = System.nanoTime();
                            execute(c, "UPDATE t SET v = 44 WHERE w = 15 AND i = 0");
                            written.complete((System.nanoTime() - start) / 1_000_000);
                        } catch (SQLException e) {
                            written.completeExceptionally(e);
                        }
                    });
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (binlogEnd(0).equals(before) && System.nanoTime() < deadline) {
                        sleep(5);
                    }
                }
            });
            MoveRecord done = move("11-20");
            assertThat(written.get(10, TimeUnit.SECONDS)).as("the UPDATE waited for its commit, ms").isGreaterThan(1000);
            assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
            assertThat(count(daemon, 1, "SELECT v FROM k.t WHERE w = 15 AND i = 0")).as("the acknowledged UPDATE on the target")
                    .isEqualTo(44);
        } finally {
            run(0, "SET GLOBAL rpl_semi_sync_master_enabled = OFF");
        }
    }

    @Test
    @Order(3)
    void aBranchPreparedBeforeTheMoverRestartedReachesTheTargetWhenItCommitsAfter() throws Exception {
        AtomicBoolean once = new AtomicBoolean();
        CountDownLatch verifying = new CountDownLatch(1);
        hooks().set((point, id) -> {
            if (point == MoveHooks.Point.CATCHING_UP && once.compareAndSet(false, true)) {
                prepare("cleave-test-3", "UPDATE k.t SET v = 43 WHERE w = 25 AND i = 0");
            } else if (point == MoveHooks.Point.VERIFYING) {
                // The catch-up read the branch's XA PREPARE and journaled its position: the daemon stops here.
                verifying.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("the daemon stopped");
                }
            }
        });
        MoveRecord started = daemon.daemon().moves().start("w", "21-30", 1, "test");
        assertThat(verifying.await(60, TimeUnit.SECONDS)).as("the move reached VERIFYING").isTrue();
        daemon.closeLeavingInstancesRunning();
        daemon = home.start();
        // The restarted move catches up and verifies (the branch hides its row from both sides
        // alike), then its cutover waits for the branch: the branch commits now.
        MoveChecks.awaitPhase(daemon.daemon().moves(), started.id, MovePhase.CUTTING_OVER, Duration.ofMinutes(1));
        sleep(300);
        run(0, "XA COMMIT 'cleave-test-3'");
        MoveRecord done = MoveChecks.awaitEnd(daemon.daemon().moves(), started.id, Duration.ofMinutes(2));
        assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        assertThat(count(daemon, 1, "SELECT v FROM k.t WHERE w = 25 AND i = 0")).as("the committed branch's row on the target")
                .isEqualTo(43);
    }

    private MoveRecord move(String keys) throws InterruptedException {
        MoveRecord started = daemon.daemon().moves().start("w", keys, 1, "test");
        return MoveChecks.awaitEnd(daemon.daemon().moves(), started.id, Duration.ofMinutes(2));
    }

    private MoveHooks.Switchable hooks() {
        return (MoveHooks.Switchable) daemon.daemon().moves().environment().hooks();
    }

    /** An XA transaction prepared on shard 0 directly (an id recovery leaves alone), left prepared. */
    private void prepare(String xid, String sql) {
        try (Connection c = daemon.connect(0)) {
            execute(c, "XA START '" + xid + "'");
            execute(c, sql);
            execute(c, "XA END '" + xid + "'");
            execute(c, "XA PREPARE '" + xid + "'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void run(int shard, String sql) {
        try (Connection c = daemon.connect(shard)) {
            execute(c, sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The shard's binlog end ("file position"). */
    private String binlogEnd(int shard) {
        try (Connection c = daemon.connect(shard)) {
            return QueryRows.of(c, "SHOW MASTER STATUS").get(0);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void complete(CompletableFuture<Void> f, Throwable e) {
        if (e == null) {
            f.complete(null);
        } else {
            f.completeExceptionally(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
