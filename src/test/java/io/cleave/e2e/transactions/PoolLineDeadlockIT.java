package io.cleave.e2e.transactions;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.proxy.deadlock.DeadlockReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.transactions.Bank.attempt;
import static io.cleave.e2e.transactions.Bank.balances;
import static io.cleave.e2e.transactions.Bank.balancesOnShards;
import static io.cleave.e2e.transactions.Bank.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deadlock no shard sees at all: with one backend connection per shard, a transaction holding
 * shard 0's waits in the proxy's line for shard 1's, which a transaction waiting in line for shard
 * 0's holds. Without the detector both would wait for the backend wait timeout and fail; with it
 * the victim is taken out of its line with 1213 and rolled back, and the other goes on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PoolLineDeadlockIT {

    private BankHome home;
    private RunningDaemon daemon;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    void start() throws SQLException {
        home = BankHome.start(2, b -> b.proxyOption("threads", 1).proxyOption("max_backend_connections_per_shard", 1));
        daemon = home.daemon();
        try (Connection c = daemon.connectProxy("", "")) {
            Bank.open(c, "line", 100, 1, 101);
        }
    }

    @AfterAll
    void stop() {
        threads.shutdownNow();
        if (home != null) {
            home.close();
        }
    }

    @Test
    void twoTransactionsWaitingInEachOthersLineForABackendConnection() throws Exception {
        double before = daemon.metric("cleave_proxy_deadlocks_total");
        SQLException aError;
        SQLException bError;
        long closed;
        try (Connection a = daemon.connectProxy("", ""); Connection b = daemon.connectProxy("", "")) {
            execute(a, "BEGIN");
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 1");
            execute(b, "BEGIN");
            execute(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 101");
            Future<SQLException> aWaits = threads.submit(() -> incrementAndCommit(a, 101));
            closed = System.nanoTime();
            Future<SQLException> bWaits = threads.submit(() -> incrementAndCommit(b, 1));
            aError = aWaits.get(30, TimeUnit.SECONDS);
            bError = bWaits.get(30, TimeUnit.SECONDS);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - closed);
        assertThat(aError == null ^ bError == null).as("exactly one victim (a: %s, b: %s)", aError, bError).isTrue();
        SQLException victim = aError != null ? aError : bError;
        assertThat(victim.getErrorCode()).as(victim.getMessage()).isEqualTo(1213);
        assertThat(victim.getSQLState()).isEqualTo("40001");
        assertThat(took).as("both answered well before the 10 s backend wait timeout").isLessThan(Duration.ofSeconds(2));
        assertThat(balancesOnShards(daemon, 1, 101)).containsExactlyEntriesOf(balances(1, 101L, 101, 101L));
        Bank.awaitNothingOpen(daemon, 2, Duration.ofSeconds(10));
        assertThat(daemon.metric("cleave_proxy_deadlocks_total") - before).isEqualTo(1.0);
        DeadlockReport report = daemon.daemon().statusReport().latestDeadlock();
        assertThat(report.text()).contains("WAITING for a backend connection to shard")
                .contains("LINE for a backend connection to shard");
    }

    /** Increments {@code id}; commits if that worked. Returns the increment's error, or null. */
    private static SQLException incrementAndCommit(Connection c, int id) throws SQLException {
        SQLException error = attempt(c, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = " + id);
        if (error == null) {
            execute(c, "COMMIT");
        }
        return error;
    }
}
