package io.cleave.e2e.transactions;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.proxy.deadlock.DeadlockReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.transactions.Bank.balances;
import static io.cleave.e2e.transactions.Bank.balancesOnShards;
import static io.cleave.e2e.transactions.Bank.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deadlocks across real shards end as on one server: the victim gets 1213 (SQLSTATE 40001) within
 * a second and keeps nothing on any shard, the others go on at once and commit. Two sessions in
 * opposite order over two shards (text and server-side prepared statements), a three-way cycle
 * over three shards, a cycle that a single-shard transaction closes, and a long lock wait that is
 * no cycle and must not be broken. Each deadlock is counted in /metrics and shown by status.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossShardDeadlockIT {

    private static final int SHARDS = 3;
    private static final Duration WITHIN = Duration.ofSeconds(1);
    private static final String DEADLOCKS = "cleave_proxy_deadlocks_total";

    private BankHome home;
    private RunningDaemon daemon;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** What a session's statement came to: its error (null: it succeeded) and when it ended. */
    private record Outcome(SQLException error, long endedNanos) {
        boolean victim() {
            return error != null;
        }
    }

    /** The sessions' outcomes, in order, and when the last one's statement closed the cycle. */
    private record Cycle(List<Outcome> outcomes, long closedNanos) {
        Outcome of(int session) {
            return outcomes.get(session);
        }

        Duration answered(int session) {
            return Duration.ofNanos(outcomes.get(session).endedNanos() - closedNanos);
        }
    }

    @BeforeAll
    void start() throws SQLException {
        home = BankHome.start(SHARDS);
        daemon = home.daemon();
    }

    @AfterAll
    void stop() {
        threads.shutdownNow();
        if (home != null) {
            home.close();
        }
    }

    @Test
    void twoSessionsInOppositeOrderOverTwoShards() throws Exception {
        twoSessionsInOppositeOrder("", 1, 101, false);
    }

    @Test
    void twoSessionsInOppositeOrderWithServerSidePreparedStatements() throws Exception {
        twoSessionsInOppositeOrder("useServerPrepStmts=true&cachePrepStmts=true", 2, 102, true);
    }

    private void twoSessionsInOppositeOrder(String url, int x, int y, boolean prepared) throws Exception {
        open("opposite", x, y);
        double before = daemon.metric(DEADLOCKS);

        Cycle run = cycle(url, prepared, new int[][] {{x}, {y}}, y, x);

        assertThat(run.of(0).victim() ^ run.of(1).victim()).as("exactly one victim (a: %s, b: %s)",
                run.of(0).error(), run.of(1).error()).isTrue();
        int victim = run.of(0).victim() ? 0 : 1;
        assertDeadlockError(run.of(victim).error(), "0, 1");
        assertThat(run.answered(victim)).as("the victim's answer").isLessThan(WITHIN);
        assertThat(run.answered(1 - victim)).as("the other goes on at once").isLessThan(WITHIN);
        // The winner's two increments committed; the victim's are gone from both shards.
        assertThat(balancesOnShards(daemon, x, y)).containsExactlyEntriesOf(balances(x, 101L, y, 101L));
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        assertThat(daemon.metric(DEADLOCKS) - before).isEqualTo(1.0);

        DeadlockReport report = daemon.daemon().statusReport().latestDeadlock();
        assertThat(report).isNotNull();
        assertThat(report.shards()).containsExactly(0, 1);
        assertThat(report.transactions()).hasSize(2).allSatisfy(p -> {
            assertThat(p.connectionId()).isPositive();
            assertThat(p.shards()).containsExactly(0, 1);
            assertThat(p.waits()).singleElement().satisfies(w -> {
                assertThat(w.statement()).contains("UPDATE").endsWith("WHERE id = ?");
                assertThat(w.lock()).contains("lock on `bank`.`accounts`");
            });
        });
        assertThat(report.text()).contains("LATEST DETECTED DEADLOCK (across shards 0, 1)")
                .contains("*** WE ROLL BACK TRANSACTION (" + report.victim() + ")")
                .doesNotContain("id = " + x).doesNotContain("id = " + y);
    }

    @Test
    void aThreeWayCycleOverThreeShards() throws Exception {
        open("three", 10, 11, 110, 111, 210);
        double before = daemon.metric(DEADLOCKS);

        // a holds shard 0, b shard 1, c shard 2; a and b did more work, so c is the victim.
        Cycle run = cycle("", false, new int[][] {{10, 11}, {110, 111}, {210}}, 110, 210, 10);

        assertThat(run.of(0).victim()).as("a: %s", run.of(0).error()).isFalse();
        assertThat(run.of(1).victim()).as("b: %s", run.of(1).error()).isFalse();
        assertThat(run.of(2).victim()).as("c, the lightest, is the victim").isTrue();
        assertDeadlockError(run.of(2).error(), "0, 1, 2");
        assertThat(run.answered(2)).isLessThan(WITHIN);
        assertThat(balancesOnShards(daemon, 10, 11, 110, 111, 210))
                .containsExactlyEntriesOf(balances(10, 101L, 11, 101L, 110, 102L, 111, 101L, 210, 101L));
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        assertThat(daemon.metric(DEADLOCKS) - before).isEqualTo(1.0);
        DeadlockReport report = daemon.daemon().statusReport().latestDeadlock();
        assertThat(report.shards()).containsExactly(0, 1, 2);
        assertThat(report.transactions()).hasSize(3);
    }

    @Test
    void aSingleShardTransactionClosingACycleWithCrossShardOnes() throws Exception {
        open("single", 20, 21, 120, 121, 122, 123);
        double before = daemon.metric(DEADLOCKS);

        // a holds shard 0; single holds a row of shard 1 only; b holds other rows of shard 1. Then a
        // waits on shard 1 for single, single waits there for b, b waits on shard 0 for a.
        Cycle run = cycle("", false, new int[][] {{20, 21}, {120}, {121, 122, 123}}, 120, 121, 20);

        assertThat(run.of(1).victim()).as("the single-shard transaction did the least work").isTrue();
        assertThat(run.of(0).victim()).as("a: %s", run.of(0).error()).isFalse();
        assertThat(run.of(2).victim()).as("b: %s", run.of(2).error()).isFalse();
        assertDeadlockError(run.of(1).error(), "0, 1");
        assertThat(run.of(1).error().getMessage()).contains("rolled back on shards 1)");
        assertThat(run.answered(1)).isLessThan(WITHIN);
        // The single-shard victim's increment of 120 is gone: its shard rolled it back, not just the statement.
        assertThat(balancesOnShards(daemon, 20, 21, 120, 121, 122, 123)).containsExactlyEntriesOf(
                balances(20, 102L, 21, 101L, 120, 101L, 121, 101L, 122, 101L, 123, 101L));
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        assertThat(daemon.metric(DEADLOCKS) - before).isEqualTo(1.0);
        assertThat(daemon.daemon().statusReport().latestDeadlock().transactions()).hasSize(3)
                .anySatisfy(p -> assertThat(p.shards()).containsExactly(1));
    }

    @Test
    void aLongLockWaitThatIsNoCycleIsNotBroken() throws Exception {
        open("long", 30, 31, 130);
        double deadlocks = daemon.metric(DEADLOCKS);
        double checks = daemon.metric("cleave_proxy_deadlock_checks_total");
        try (Connection holder = daemon.connectProxy("", ""); Connection waiter = daemon.connectProxy("", "")) {
            execute(holder, "BEGIN");
            increment(holder, 30, false);
            increment(holder, 130, false);
            execute(waiter, "BEGIN");
            increment(waiter, 31, false);
            long started = System.nanoTime();
            // The waiter spans shards 0 and 1 and waits on shard 1 while the holder is busy but waits for nothing.
            Future<Outcome> waits = async(waiter, 130, false, false);
            execute(holder, "SELECT SLEEP(1.5)");
            assertThat(waits.isDone()).as("still waiting").isFalse();
            execute(holder, "COMMIT");
            Outcome waited = waits.get(30, TimeUnit.SECONDS);
            assertThat((Throwable) waited.error()).as("the waiter is no victim").isNull();
            assertThat(Duration.ofNanos(waited.endedNanos() - started)).isGreaterThan(Duration.ofMillis(1_400));
            execute(waiter, "COMMIT");

            // A wait for an idle transaction ends by the shard's own lock wait timeout, as on one server.
            execute(holder, "BEGIN");
            increment(holder, 130, false);
            execute(waiter, "SET SESSION innodb_lock_wait_timeout = 1");
            execute(waiter, "BEGIN");
            increment(waiter, 31, false);
            Outcome timedOut = async(waiter, 130, false, false).get(30, TimeUnit.SECONDS);
            assertThat((Throwable) timedOut.error()).isNotNull();
            assertThat(timedOut.error().getErrorCode()).as(timedOut.error().getMessage()).isEqualTo(1205);
            execute(holder, "COMMIT");
        }
        assertThat(balancesOnShards(daemon, 30, 31, 130)).containsExactlyEntriesOf(balances(30, 101L, 31, 101L, 130, 103L));
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        assertThat(daemon.metric(DEADLOCKS)).as("no deadlock").isEqualTo(deadlocks);
        assertThat(daemon.metric("cleave_proxy_deadlock_checks_total")).as("the detector looked").isGreaterThan(checks);
    }

    private void open(String owner, int... ids) throws SQLException {
        try (Connection c = daemon.connectProxy("", "")) {
            Bank.open(c, owner, 100, ids);
        }
    }

    /**
     * One session per entry of {@code holds}: each begins and increments its rows, in order; then
     * each increments {@code waitFor[i]} on a thread of its own (and commits if that works), the
     * last one closing the cycle.
     */
    private Cycle cycle(String url, boolean prepared, int[][] holds, int... waitFor) throws Exception {
        List<Connection> sessions = new ArrayList<>();
        try {
            for (int[] rows : holds) {
                Connection c = daemon.connectProxy("", url);
                sessions.add(c);
                execute(c, "BEGIN");
                if (rows.length == 1) {
                    increment(c, rows[0], prepared);
                } else {
                    execute(c, "UPDATE bank.accounts SET balance = balance + 1 WHERE id IN ("
                            + java.util.Arrays.stream(rows).mapToObj(Integer::toString)
                            .collect(java.util.stream.Collectors.joining(", ")) + ")");
                }
            }
            List<Future<Outcome>> waits = new ArrayList<>();
            long closed = 0;
            for (int i = 0; i < sessions.size(); i++) {
                closed = System.nanoTime();
                waits.add(async(sessions.get(i), waitFor[i], prepared, true));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> w : waits) {
                outcomes.add(w.get(30, TimeUnit.SECONDS));
            }
            return new Cycle(outcomes, closed);
        } finally {
            for (Connection c : sessions) {
                c.close();
            }
        }
    }

    private static void increment(Connection c, int id, boolean prepared) throws SQLException {
        if (!prepared) {
            execute(c, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = " + id);
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE bank.accounts SET balance = balance + ? WHERE id = ?")) {
            ps.setInt(1, 1);
            ps.setInt(2, id);
            ps.executeUpdate();
        }
    }

    /**
     * Increments {@code id} on another thread; on success commits when {@code commit} (a winner
     * goes on to its end, which lets whoever waits for it go on too).
     */
    private Future<Outcome> async(Connection c, int id, boolean prepared, boolean commit) {
        return threads.submit(() -> {
            try {
                increment(c, id, prepared);
            } catch (SQLException e) {
                return new Outcome(e, System.nanoTime());
            }
            long ended = System.nanoTime();
            if (commit) {
                execute(c, "COMMIT");
            }
            return new Outcome(null, ended);
        });
    }

    private static void assertDeadlockError(SQLException e, String shards) {
        assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1213);
        assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("40001");
        assertThat(e.getMessage()).startsWith("Deadlock found when trying to get lock; try restarting transaction")
                .contains("deadlock across shards " + shards);
    }
}
