package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
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
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossShardDeadlockIT {

    private static final int SHARDS = 3;
    private static final Duration WITHIN = Duration.ofSeconds(1);
    private static final String DEADLOCKS = "cleave_proxy_deadlocks_total";

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** What a session's statement came to: its error (null: it succeeded) and when it ended. */
    private record Outcome(SQLException error, long endedNanos) {
        boolean victim() {
            return error != null;
        }
    }

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(Bank.sharding(SHARDS)).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            Bank.create(c);
        }
    }

    @AfterAll
    void stop() {
        threads.shutdownNow();
        if (daemon != null) {
            daemon.close();
        }
        home.close();
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
        Outcome a;
        Outcome b;
        long closed;
        try (Connection ca = daemon.connectProxy("", url); Connection cb = daemon.connectProxy("", url)) {
            execute(ca, "BEGIN");
            increment(ca, x, prepared);
            execute(cb, "BEGIN");
            increment(cb, y, prepared);
            Future<Outcome> aWaits = async(ca, y, prepared, true);
            closed = System.nanoTime();
            Future<Outcome> bCloses = async(cb, x, prepared, true);
            a = aWaits.get(30, TimeUnit.SECONDS);
            b = bCloses.get(30, TimeUnit.SECONDS);
        }
        assertThat(a.victim() ^ b.victim()).as("exactly one victim (a: %s, b: %s)", a.error(), b.error()).isTrue();
        Outcome victim = a.victim() ? a : b;
        Outcome winner = a.victim() ? b : a;
        assertDeadlockError(victim.error(), "0, 1");
        assertThat(Duration.ofNanos(victim.endedNanos() - closed)).as("the victim's answer").isLessThan(WITHIN);
        assertThat(Duration.ofNanos(winner.endedNanos() - closed)).as("the other goes on at once").isLessThan(WITHIN);
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
        List<Outcome> outcomes = new ArrayList<>();
        long closed;
        try (Connection a = daemon.connectProxy("", ""); Connection b = daemon.connectProxy("", "");
             Connection c = daemon.connectProxy("", "")) {
            // a holds shard 0, b shard 1, c shard 2; a and b did more work, so c is the victim.
            execute(a, "BEGIN");
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id IN (10, 11)");
            execute(b, "BEGIN");
            execute(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id IN (110, 111)");
            execute(c, "BEGIN");
            increment(c, 210, false);
            List<Future<Outcome>> waits = new ArrayList<>();
            waits.add(async(a, 110, false, true));
            waits.add(async(b, 210, false, true));
            closed = System.nanoTime();
            waits.add(async(c, 10, false, true));
            for (Future<Outcome> w : waits) {
                outcomes.add(w.get(30, TimeUnit.SECONDS));
            }
        }
        assertThat(outcomes.get(0).victim()).as("a: %s", outcomes.get(0).error()).isFalse();
        assertThat(outcomes.get(1).victim()).as("b: %s", outcomes.get(1).error()).isFalse();
        assertThat(outcomes.get(2).victim()).as("c, the lightest, is the victim").isTrue();
        assertDeadlockError(outcomes.get(2).error(), "0, 1, 2");
        assertThat(Duration.ofNanos(outcomes.get(2).endedNanos() - closed)).isLessThan(WITHIN);
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
        List<Outcome> outcomes = new ArrayList<>();
        long closed;
        try (Connection a = daemon.connectProxy("", ""); Connection single = daemon.connectProxy("", "");
             Connection b = daemon.connectProxy("", "")) {
            // a holds shard 0; single holds a row of shard 1 only; b holds other rows of shard 1.
            execute(a, "BEGIN");
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id IN (20, 21)");
            execute(single, "BEGIN");
            increment(single, 120, false);
            execute(b, "BEGIN");
            execute(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id IN (121, 122, 123)");
            List<Future<Outcome>> waits = new ArrayList<>();
            // a waits on shard 1 for single, single waits there for b, b waits on shard 0 for a.
            waits.add(async(a, 120, false, true));
            waits.add(async(single, 121, false, true));
            closed = System.nanoTime();
            waits.add(async(b, 20, false, true));
            for (Future<Outcome> w : waits) {
                outcomes.add(w.get(30, TimeUnit.SECONDS));
            }
        }
        assertThat(outcomes.get(1).victim()).as("the single-shard transaction did the least work").isTrue();
        assertThat(outcomes.get(0).victim()).as("a: %s", outcomes.get(0).error()).isFalse();
        assertThat(outcomes.get(2).victim()).as("b: %s", outcomes.get(2).error()).isFalse();
        assertDeadlockError(outcomes.get(1).error(), "0, 1");
        assertThat(outcomes.get(1).error().getMessage()).contains("rolled back on shards 1)");
        assertThat(Duration.ofNanos(outcomes.get(1).endedNanos() - closed)).isLessThan(WITHIN);
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
