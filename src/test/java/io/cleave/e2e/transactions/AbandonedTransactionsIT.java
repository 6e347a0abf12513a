package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.QueryRows;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.daemon.ShardEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.cleave.e2e.support.RawMysqlClient.describe;
import static io.cleave.e2e.support.RawMysqlClient.errorCode;
import static io.cleave.e2e.support.RawMysqlClient.isErr;
import static io.cleave.e2e.support.RawMysqlClient.isOk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transactions a client leaves behind, compared with one plain server: a client that sends BEGIN
 * and an UPDATE and closes its socket at once (no COM_QUIT) leaves no transaction open on any
 * shard; with autocommit off and no BEGIN (PyMySQL's and mysqlclient's default), a first statement
 * that fails (a lock wait timeout, a duplicate key) leaves the session in the transaction the
 * server opened for it, so the client's COMMIT or ROLLBACK ends it on its shard and a later DDL
 * finds no lock left.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AbandonedTransactionsIT {

    private static final String SCHEMA = "abandon";
    private static final int ROWS = 200;
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: acct, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: accounts, keyspace: acct, column: id }
            """;

    private CleaveTestHome plainHome;
    private CleaveTestHome shardedHome;
    private RunningDaemon plain;
    private RunningDaemon sharded;

    @BeforeAll
    void start() throws Exception {
        plainHome = CleaveTestHome.builder().shards(1).withoutProxy().serverOption("innodb_lock_wait_timeout", "2")
                .create();
        shardedHome = CleaveTestHome.builder().shards(4).extraYaml(SHARDING).serverOption("innodb_lock_wait_timeout", "2")
                .create();
        CompletableFuture<RunningDaemon> plainStart = CompletableFuture.supplyAsync(plainHome::start);
        sharded = shardedHome.start();
        plain = plainStart.join();
        for (Side side : sides()) {
            try (Connection c = side.connect("", true)) {
                exec(c, "CREATE DATABASE " + SCHEMA);
            }
        }
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {sharded, plain, shardedHome, plainHome}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the homes kill whatever is left
            }
        }
    }

    /** The two sides: one plain server, and the proxy over four shards. */
    private List<Side> sides() {
        return List.of(new Side("one server", plain, null), new Side("the proxy", sharded, sharded));
    }

    @BeforeEach
    void freshTable() throws Exception {
        for (Side side : sides()) {
            try (Connection c = side.connect(true)) {
                exec(c, "DROP TABLE IF EXISTS accounts");
                exec(c, "CREATE TABLE accounts (id INT PRIMARY KEY, v INT NOT NULL)");
                StringBuilder rows = new StringBuilder();
                for (int id = 1; id <= ROWS; id++) {
                    rows.append(id == 1 ? "" : ", ").append('(').append(id).append(", 0)");
                }
                exec(c, "INSERT INTO accounts (id, v) VALUES " + rows);
            }
            Leftovers.awaitNothingOpen(side.daemon, Duration.ofSeconds(10));
        }
    }

    @Test
    void clientsClosingRightAfterBeginAndAnUpdateLeaveNothingOpen() throws Exception {
        for (Side side : sides()) {
            ExecutorService clients = Executors.newFixedThreadPool(5);
            try {
                for (int round = 0; round < 20; round++) {
                    List<Future<?>> done = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        // Different rows, then the same rows: some UPDATEs wait for another's lock when their client goes.
                        int id = round % 2 == 0 ? 1 + round * 5 + i : 1 + i % 2;
                        int pause = (round + i) % 4;
                        boolean reset = i % 2 == 1;
                        done.add(clients.submit(() -> {
                            RawMysqlClient c = side.raw();
                            ok(c, "BEGIN");
                            c.writePacket(0, query("UPDATE accounts SET v = v + 1 WHERE id = " + id));
                            if (pause > 0) {
                                Thread.sleep(pause);
                            }
                            if (reset) {
                                c.abort();
                            } else {
                                c.close();
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : done) {
                        f.get();
                    }
                }
            } finally {
                clients.shutdownNow();
            }
            Leftovers.awaitNothingOpen(side.daemon, Duration.ofSeconds(10));
            try (Connection c = side.connect(true)) {
                assertThat(QueryRows.of(c, "SELECT SUM(v) FROM accounts")).as("%s: nothing was committed", side.name)
                        .containsExactly("0");
            }
        }
        Leftovers.awaitNothingHeld(sharded, Duration.ofSeconds(10));
    }

    @Test
    void aFirstStatementTimingOutWithAutocommitOffLeavesTheTransactionToTheClientsCommit() throws Exception {
        for (Side side : sides()) {
            try (Connection holder = side.connect(true); Connection b = side.connect(false)) {
                exec(holder, "BEGIN");
                assertThat(QueryRows.of(holder, "SELECT v FROM accounts WHERE id = 7 FOR UPDATE")).containsExactly("0");
                exec(b, "SET SESSION innodb_lock_wait_timeout = 1");
                assertThatThrownBy(() -> exec(b, "UPDATE accounts SET v = v + 1 WHERE id = 7"))
                        .as(side.name).isInstanceOfSatisfying(SQLException.class, e ->
                                assertThat(e.getErrorCode()).isEqualTo(1205));
                // As on one server: the failed statement opened B's transaction, and it stays open.
                assertThat(openTransactions(side)).as("%s: the holder's and B's transactions", side.name).isEqualTo(2);
                b.commit();
                assertThat(openTransactions(side)).as("%s: B's COMMIT ended its transaction", side.name).isEqualTo(1);
                exec(holder, "ROLLBACK");
                assertThat(openTransactions(side)).as(side.name).isZero();
                // No metadata lock is left on the table: a DDL goes through at once.
                exec(holder, "SET SESSION lock_wait_timeout = 2");
                exec(holder, "ALTER TABLE accounts COMMENT = 'after B'");
                exec(holder, "DROP TABLE accounts");
            }
        }
    }

    @Test
    void aFirstStatementFailingOnADuplicateKeyWithAutocommitOffIsRolledBackByTheClient() throws Exception {
        List<Integer> openAfterTheError = new ArrayList<>();
        for (Side side : sides()) {
            try (RawMysqlClient b = side.raw()) {
                ok(b, "SET autocommit = 0");
                byte[] duplicate = b.query("INSERT INTO accounts (id, v) VALUES (9, 1)");
                assertThat(isErr(duplicate) ? errorCode(duplicate) : 0).as("%s: %s", side.name, describe(duplicate))
                        .isEqualTo(1062);
                openAfterTheError.add(openTransactions(side));
                ok(b, "UPDATE accounts SET v = 5 WHERE id = 9");
                ok(b, "ROLLBACK");
                assertThat(openTransactions(side)).as(side.name).isZero();
                try (Connection c = side.connect(true)) {
                    assertThat(QueryRows.of(c, "SELECT v FROM accounts WHERE id = 9")).containsExactly("0");
                }
                ok(b, "DROP TABLE accounts");
            }
        }
        assertThat(openAfterTheError.get(1)).as("transactions open after the failed INSERT, as on one server")
                .isEqualTo(openAfterTheError.get(0));
    }

    /** Open InnoDB transactions over the side's servers (the plain server's, or every shard's). */
    private int openTransactions(Side side) throws Exception {
        // innodb_trx is refreshed from a cache only after 0.1 s without reads.
        Thread.sleep(250);
        int n = 0;
        for (List<String> open : Leftovers.openOnShards(side.daemon).values()) {
            n += open.size();
        }
        return n;
    }

    /** One side of the comparison. {@code proxy}: the daemon whose proxy to use, null for the plain server. */
    private record Side(String name, RunningDaemon daemon, RunningDaemon proxy) {

        Connection connect(boolean autocommit) throws SQLException {
            return connect(SCHEMA, autocommit);
        }

        Connection connect(String schema, boolean autocommit) throws SQLException {
            Connection c;
            if (proxy != null) {
                c = proxy.connectProxy(schema, "");
            } else {
                ShardEndpoint e = daemon.shards().get(0);
                c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port() + "/" + schema
                        + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", e.user(), e.secret());
            }
            c.setAutoCommit(autocommit);
            return c;
        }

        RawMysqlClient raw() throws IOException {
            if (proxy != null) {
                return RawMysqlClient.login(proxy.proxyPort(), "root", "", SCHEMA);
            }
            ShardEndpoint e = daemon.shards().get(0);
            return RawMysqlClient.login(e.port(), e.user(), e.secret(), SCHEMA);
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static void ok(RawMysqlClient c, String sql) throws IOException {
        byte[] answer = c.query(sql);
        assertThat(isOk(answer)).as("%.80s: %s", sql, describe(answer)).isTrue();
    }

    private static byte[] query(String sql) {
        return RawMysqlClient.concat(new byte[] {0x03}, sql.getBytes(StandardCharsets.UTF_8));
    }
}
