package io.cleave.e2e.transactions;

import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.transactions.Bank.attempt;
import static io.cleave.e2e.transactions.Bank.balanceOnShard;
import static io.cleave.e2e.transactions.Bank.balances;
import static io.cleave.e2e.transactions.Bank.balancesOnShards;
import static io.cleave.e2e.transactions.Bank.execute;
import static io.cleave.e2e.transactions.Bank.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Transactions across three real shards, checked on the shards themselves: a commit is visible on
 * every shard, a rollback undoes every shard, a duplicate key or a real deadlock inside a
 * transaction reaches the client with its own code and SQLSTATE and rolls back every shard, a
 * multi-shard autocommit write is all-or-nothing, SELECT ... FOR UPDATE locks the row on its shard,
 * a transaction on one shard sends the shard nothing beyond the client's own statements, and a
 * client that vanishes mid-transaction leaves nothing open. Each test uses its own accounts.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossShardTransactionsIT {

    private static final int SHARDS = 3;

    private BankHome home;
    private RunningDaemon daemon;
    private final ExecutorService threads = Executors.newCachedThreadPool();

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
    void aCommitAcrossShardsIsVisibleOnEveryShard() throws Exception {
        try (Connection c = proxy(); Connection other = proxy()) {
            Bank.open(c, "commit", 100, 10, 110, 210);
            execute(c, "BEGIN");
            execute(c, "UPDATE bank.accounts SET balance = balance - 30 WHERE id = 110");
            execute(c, "UPDATE bank.accounts SET balance = balance + 20 WHERE id = 10");
            execute(c, "UPDATE bank.accounts SET balance = balance + 10 WHERE id = 210");
            assertThat(rows(c, "SELECT balance FROM bank.accounts WHERE id IN (10, 110, 210) ORDER BY id"))
                    .as("the transaction sees its own writes").containsExactly("120", "70", "110");
            assertThat(balancesOnShards(daemon, 10, 110, 210)).as("nothing visible before COMMIT")
                    .containsExactlyEntriesOf(balances(10, 100L, 110, 100L, 210, 100L));
            assertThat(rows(other, "SELECT balance FROM bank.accounts WHERE id IN (10, 110, 210) ORDER BY id"))
                    .containsExactly("100", "100", "100");
            execute(c, "COMMIT");

            assertThat(balancesOnShards(daemon, 10, 110, 210))
                    .containsExactlyEntriesOf(balances(10, 120L, 110, 70L, 210, 110L));
            assertThat(rows(other, "SELECT balance FROM bank.accounts WHERE id IN (10, 110, 210) ORDER BY id"))
                    .containsExactly("120", "70", "110");
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        awaitNoDecisionRows(1);
    }

    @Test
    void aRollbackUndoesEveryShard() throws Exception {
        try (Connection c = proxy()) {
            Bank.open(c, "rollback", 100, 11, 111, 211);
            execute(c, "BEGIN");
            execute(c, "UPDATE bank.accounts SET balance = balance - 30 WHERE id = 11");
            execute(c, "UPDATE bank.accounts SET balance = balance + 30 WHERE id = 111");
            execute(c, "INSERT INTO bank.accounts (id, owner, balance) VALUES (212, 'rollback', 5)");
            execute(c, "ROLLBACK");
            assertThat(balancesOnShards(daemon, 11, 111, 211, 212))
                    .containsExactlyEntriesOf(balances(11, 100L, 111, 100L, 211, 100L, 212, null));
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
    }

    @Test
    void aDuplicateKeyInsideACrossShardTransactionRollsBackEveryShard() throws Exception {
        try (Connection c = proxy()) {
            Bank.open(c, "dup", 100, 20, 21, 120, 121);
            // The duplicate on the shard that joins as the second one ...
            execute(c, "BEGIN");
            execute(c, "UPDATE bank.accounts SET balance = balance + 5 WHERE id = 120");
            expectError(c, "INSERT INTO bank.accounts (id, owner, balance) VALUES (20, 'dup', 1)", 1062, "23000");
            assertThat(balancesOnShards(daemon, 20, 120)).containsExactlyEntriesOf(balances(20, 100L, 120, 100L));

            // ... and on the first shard after a second one joined.
            execute(c, "BEGIN");
            execute(c, "UPDATE bank.accounts SET balance = balance + 5 WHERE id = 21");
            execute(c, "UPDATE bank.accounts SET balance = balance + 5 WHERE id = 121");
            expectError(c, "INSERT INTO bank.accounts (id, owner, balance) VALUES (20, 'dup', 1)", 1062, "23000");
            assertThat(balancesOnShards(daemon, 21, 121)).containsExactlyEntriesOf(balances(21, 100L, 121, 100L));
            Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));

            // The transaction is over: the next write stands on its own.
            execute(c, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 121");
            assertThat(balanceOnShard(daemon, 121)).isEqualTo(101L);
        }
    }

    @Test
    void aRealDeadlockAcrossTwoSessionsRollsBackTheVictimOnEveryShard() throws Exception {
        try (Connection setup = proxy()) {
            Bank.open(setup, "deadlock", 100, 30, 31, 130, 131);
        }
        try (Connection a = proxy(); Connection b = proxy()) {
            // Both start on shard 1 (their coordinator), then lock one row each on shard 0 (a branch).
            execute(a, "BEGIN");
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 130");
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 30");
            execute(b, "BEGIN");
            execute(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 131");
            execute(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 31");

            Future<SQLException> aWaits = threads.submit(() -> attempt(a,
                    "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 31"));
            awaitLockWait(0);
            SQLException bError = attempt(b, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 30");
            SQLException aError = aWaits.get(30, TimeUnit.SECONDS);

            assertThat(aError == null ^ bError == null).as("exactly one session is the deadlock victim (a: %s, b: %s)",
                    aError, bError).isTrue();
            SQLException victimError = aError != null ? aError : bError;
            assertThat(victimError.getErrorCode()).as(victimError.getMessage()).isEqualTo(1213);
            assertThat(victimError.getSQLState()).isEqualTo("40001");
            Connection winner = aError == null ? a : b;
            execute(winner, "COMMIT");

            boolean aWon = aError == null;
            // The winner's three increments committed; none of the victim's survive, on either shard.
            assertThat(balancesOnShards(daemon, 30, 31, 130, 131)).containsExactlyEntriesOf(aWon
                    ? balances(30, 101L, 31, 101L, 130, 101L, 131, 100L)
                    : balances(30, 101L, 31, 101L, 130, 100L, 131, 101L));
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
    }

    @Test
    void aMultiShardInsertIsAllOrNothing() throws Exception {
        try (Connection c = proxy()) {
            Bank.open(c, "insert", 100, 140);
            expectError(c, "INSERT INTO bank.accounts (id, owner, balance) VALUES (40, 'insert', 1), (140, 'insert', 1),"
                    + " (240, 'insert', 1)", 1062, "23000");
            assertThat(balancesOnShards(daemon, 40, 140, 240))
                    .as("the rows for the shards without a duplicate were rolled back")
                    .containsExactlyEntriesOf(balances(40, null, 140, 100L, 240, null));

            execute(c, "INSERT INTO bank.accounts (id, owner, balance) VALUES (41, 'insert', 1), (141, 'insert', 2),"
                    + " (241, 'insert', 3)");
            assertThat(balancesOnShards(daemon, 41, 141, 241)).containsExactlyEntriesOf(balances(41, 1L, 141, 2L, 241, 3L));
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
    }

    @Test
    void aKeylessUpdateIsAllOrNothing() throws Exception {
        try (Connection c = proxy()) {
            Bank.open(c, "keyless", 100, 42, 142);
            Bank.open(c, "keyless", 10, 242);
            // Shard 2's account cannot pay 50 (CHECK balance >= 0): shards 0 and 1 must not keep theirs.
            expectError(c, "UPDATE bank.accounts SET balance = balance - 50 WHERE owner = 'keyless'", 4025, "23000");
            assertThat(balancesOnShards(daemon, 42, 142, 242))
                    .containsExactlyEntriesOf(balances(42, 100L, 142, 100L, 242, 10L));

            execute(c, "UPDATE bank.accounts SET balance = balance + 5 WHERE owner = 'keyless'");
            assertThat(balancesOnShards(daemon, 42, 142, 242))
                    .containsExactlyEntriesOf(balances(42, 105L, 142, 105L, 242, 15L));
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
    }

    @Test
    void selectForUpdateLocksTheRowOnItsShard() throws Exception {
        try (Connection setup = proxy()) {
            Bank.open(setup, "lock", 100, 50, 51, 52, 150);
        }
        try (Connection a = proxy(); RawMysqlClient b = RawMysqlClient.login(daemon.proxyPort(), "root", "", "bank");
             Connection waiter = proxy()) {
            execute(a, "BEGIN");
            assertThat(rows(a, "SELECT balance FROM bank.accounts WHERE id = 50 FOR UPDATE")).containsExactly("100");
            assertThat(rows(a, "SELECT balance FROM bank.accounts WHERE id = 150 FOR UPDATE")).containsExactly("100");

            // The error as the shard sent it (Connector/J would report SQLSTATE HY000 as 40001).
            assertThat(RawMysqlClient.isOk(b.query("SET SESSION innodb_lock_wait_timeout = 1"))).isTrue();
            long started = System.nanoTime();
            expectRawError(b, "UPDATE accounts SET balance = 0 WHERE id = 150", 1205, "HY000");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the lock wait ends by its own timeout")
                    .isLessThan(Duration.ofSeconds(10));
            assertThat(RawMysqlClient.isOk(b.query("UPDATE accounts SET balance = balance + 1 WHERE id = 51"))).isTrue();
            assertThat(balanceOnShard(daemon, 51)).as("other rows of the shard are free").isEqualTo(101L);

            // A lock wait inside a cross-shard transaction rolls back its other shard too.
            assertThat(RawMysqlClient.isOk(b.query("BEGIN"))).isTrue();
            assertThat(RawMysqlClient.isOk(b.query("UPDATE accounts SET balance = balance + 1 WHERE id = 52"))).isTrue();
            expectRawError(b, "SELECT balance FROM accounts WHERE id = 150 FOR UPDATE", 1205, "HY000");
            assertThat(balanceOnShard(daemon, 52)).isEqualTo(100L);

            // Without a short timeout, a writer waits until the lock's holder commits.
            Future<SQLException> blocked = threads.submit(() -> attempt(waiter,
                    "UPDATE bank.accounts SET balance = balance * 2 WHERE id = 150"));
            awaitLockWait(1);
            assertThat(blocked.isDone()).isFalse();
            execute(a, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 150");
            execute(a, "COMMIT");
            SQLException waited = blocked.get(30, TimeUnit.SECONDS);
            assertThat(waited == null).as("the waiter succeeded: %s", waited).isTrue();
            assertThat(balanceOnShard(daemon, 150)).as("the waiter ran after the commit").isEqualTo(202L);
        }
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
    }

    @Test
    void aSingleShardTransactionSendsTheShardOnlyTheClientsStatements() throws Exception {
        // A raw client sends exactly the statements written here (Connector/J adds its own, such as
        // SELECT @@session.transaction_read_only before an UPDATE in a transaction).
        try (Connection setup = proxy()) {
            Bank.open(setup, "single", 100, 60, 260, 261);
        }
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "bank");
             Connection shard2 = daemon.connect(2)) {
            for (int i = 0; i < 3; i++) {
                singleShardTransaction(c);
            }
            // A control: a transaction reaching shard 2 as a second shard does show as XA there.
            Map<String, Long> before = status(shard2);
            run(c, "BEGIN", "UPDATE accounts SET balance = balance + 1 WHERE id = 60",
                    "UPDATE accounts SET balance = balance + 1 WHERE id = 260", "COMMIT");
            // COMMIT is answered at its decision, the branch's XA COMMIT may still run: a statement
            // reaching shard 2 through the proxy waits for it (the commit fence).
            run(c, "UPDATE accounts SET balance = balance WHERE id = 260");
            Map<String, Long> control = delta(before, status(shard2));
            assertThat(control.get("Com_xa_start")).as("XA START on the second shard: %s", control).isEqualTo(1);
            assertThat(control.get("Com_xa_commit")).as("its XA COMMIT came before the next statement: %s", control)
                    .isEqualTo(1);

            // Other traffic (the periodic recovery scan) may touch shard 2 too: one clean run of a
            // few proves the point, and no run may ever show an XA statement.
            Map<String, Long> last = null;
            for (int attempt = 0; attempt < 5; attempt++) {
                before = status(shard2);
                singleShardTransaction(c);
                last = delta(before, status(shard2));
                for (String xa : List.of("Com_xa_start", "Com_xa_end", "Com_xa_prepare", "Com_xa_commit",
                        "Com_xa_rollback")) {
                    assertThat(last.get(xa)).as("%s in %s", xa, last).isZero();
                }
                // BEGIN, two UPDATEs, COMMIT, and our own second SHOW STATUS.
                if (last.getOrDefault("Questions", 0L) == 5 && last.get("Com_begin") == 1 && last.get("Com_commit") == 1
                        && last.getOrDefault("Com_update", 0L) == 2) {
                    return;
                }
            }
            fail("no run sent only BEGIN, 2 UPDATEs and COMMIT to the shard; last: " + last);
        }
    }

    @Test
    void aClientThatVanishesMidTransactionLeavesNothingOpen() throws Exception {
        try (Connection c = proxy()) {
            Bank.open(c, "vanish", 100, 70, 170, 270);
        }
        RawMysqlClient raw = RawMysqlClient.login(daemon.proxyPort(), "root", "", "bank");
        for (String sql : List.of("BEGIN", "UPDATE accounts SET balance = balance - 10 WHERE id = 70",
                "UPDATE accounts SET balance = balance + 5 WHERE id = 170",
                "UPDATE accounts SET balance = balance + 5 WHERE id = 270")) {
            assertThat(RawMysqlClient.isOk(raw.query(sql))).as(sql).isTrue();
        }
        raw.close();
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        assertThat(balancesOnShards(daemon, 70, 170, 270))
                .containsExactlyEntriesOf(balances(70, 100L, 170, 100L, 270, 100L));
        try (Connection c = proxy()) {
            execute(c, "UPDATE bank.accounts SET balance = balance + 1 WHERE id = 170");
            assertThat(balanceOnShard(daemon, 170)).as("the rows are not locked any more").isEqualTo(101L);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private Connection proxy() throws SQLException {
        return daemon.connectProxy("bank", "");
    }

    private static void singleShardTransaction(RawMysqlClient c) throws Exception {
        run(c, "BEGIN", "UPDATE accounts SET balance = balance + 1 WHERE id = 260",
                "UPDATE accounts SET balance = balance - 1 WHERE id = 261", "COMMIT");
    }

    /** Statements that each answer OK. */
    private static void run(RawMysqlClient c, String... statements) throws Exception {
        for (String sql : statements) {
            byte[] answer = c.query(sql);
            assertThat(RawMysqlClient.isOk(answer)).as("%s: %s", sql,
                    RawMysqlClient.isErr(answer) ? RawMysqlClient.errorMessage(answer) : "not OK").isTrue();
        }
    }

    private static Map<String, Long> status(Connection shard) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        for (String row : rows(shard, "SHOW GLOBAL STATUS WHERE Variable_name = 'Questions' OR Variable_name LIKE 'Com\\_%'")) {
            String[] kv = row.split(" ");
            out.put(kv[0], Long.parseLong(kv[1]));
        }
        return out;
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new java.util.TreeMap<>();
        after.forEach((k, v) -> {
            if (v - before.getOrDefault(k, 0L) != 0 || k.startsWith("Com_xa") || k.equals("Com_begin")
                    || k.equals("Com_commit")) {
                out.put(k, v - before.getOrDefault(k, 0L));
            }
        });
        return out;
    }

    private static void expectError(Connection c, String sql, int code, String sqlState) {
        assertThatThrownBy(() -> execute(c, sql)).as(sql).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(code);
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(sqlState);
        });
    }

    private static void expectRawError(RawMysqlClient client, String sql, int code, String sqlState) throws Exception {
        byte[] answer = client.query(sql);
        assertThat(RawMysqlClient.isErr(answer)).as("%s fails", sql).isTrue();
        assertThat(RawMysqlClient.errorCode(answer)).as(RawMysqlClient.errorMessage(answer)).isEqualTo(code);
        assertThat(RawMysqlClient.sqlState(answer)).as(RawMysqlClient.errorMessage(answer)).isEqualTo(sqlState);
    }

    /** Waits until a transaction on {@code shard} waits for a lock (polled every 200 ms, see {@link Bank}). */
    private void awaitLockWait(int shard) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (Connection s = daemon.connect(shard)) {
            while (System.nanoTime() < deadline) {
                if (!rows(s, "SELECT trx_id FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'").isEmpty()) {
                    return;
                }
                Thread.sleep(200);
            }
        }
        fail("no transaction waited for a lock on shard " + shard);
    }

    /** The commit cleans its decision row from the coordinator once every branch committed. */
    private void awaitNoDecisionRows(int coordinator) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection s = daemon.connect(coordinator)) {
            while (!rows(s, "SELECT xid FROM cleave.decisions").isEmpty()) {
                if (System.nanoTime() > deadline) {
                    fail("decision rows left on shard " + coordinator + ": " + rows(s, "SELECT xid FROM cleave.decisions"));
                }
                Thread.sleep(100);
            }
        }
    }
}
