package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.proxy.cut.Cut;
import io.cleave.proxy.cut.JdbcCut;
import io.cleave.proxy.cut.ShardSnapshot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads across shards see one consistent cut, as on one server. Writers move amounts between
 * accounts on different shards, each transfer one cross-shard transaction that changes two tables
 * together: {@code accounts} and {@code mirror} hold the same balance for every id, but in
 * keyspaces that put an id's two rows on different shards. Readers check what one server would
 * never show otherwise: autocommit sums over every shard (merged), a join of the two tables on a
 * column that is no sharding key (evaluated on one shard), and transactions begun WITH CONSISTENT
 * SNAPSHOT, READ ONLY or plain at REPEATABLE READ reading sums and single rows of both tables on
 * different shards. With cuts on, no read is torn; the manager's JDBC cut sees the same; with cuts
 * switched off the same readers see torn results, so the checks can fail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsistentCutsIT {

    private static final int SHARDS = 4;
    private static final int ACCOUNTS_PER_SHARD = 10;
    private static final long OPENING = 1_000_000;
    private static final long TOTAL = OPENING * SHARDS * ACCOUNTS_PER_SHARD;
    private static final int WRITERS = 4;

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private final AtomicReference<CleaveProxyService> proxy = new AtomicReference<>();
    private final List<Integer> ids = new ArrayList<>();

    /** Account ids 1-10 on shard 0, 101-110 on shard 1, ...; an id's mirror row is on the next shard. */
    private static String sharding() {
        StringBuilder accounts = new StringBuilder();
        StringBuilder mirror = new StringBuilder();
        for (int s = 0; s < SHARDS; s++) {
            String range = s == SHARDS - 1 ? "{ from: " + (s * 100 + 1) : "{ from: " + (s * 100 + 1) + ", to: " + (s * 100 + 100);
            accounts.append("        - ").append(range).append(", shard: ").append(s).append(" }\n");
            mirror.append("        - ").append(range).append(", shard: ").append((s + 1) % SHARDS).append(" }\n");
        }
        return """
                sharding:
                  keyspaces:
                    - name: account
                      function: range
                      ranges:
                """ + accounts + """
                    - name: mirrored
                      function: range
                      ranges:
                """ + mirror + """
                  tables:
                    - { name: accounts, keyspace: account, column: id }
                    - { name: mirror, keyspace: mirrored, column: id }
                """;
    }

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(sharding())
                .proxy(context -> {
                    CleaveProxyService service = new CleaveProxyService(context);
                    proxy.set(service);
                    return service;
                })
                .create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE cuts");
            for (String table : List.of("accounts", "mirror")) {
                execute(c, "CREATE TABLE cuts." + table + " (id INT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL) ENGINE=InnoDB");
            }
            for (int s = 0; s < SHARDS; s++) {
                for (int i = 1; i <= ACCOUNTS_PER_SHARD; i++) {
                    ids.add(s * 100 + i);
                }
            }
            for (int id : ids) {
                execute(c, "INSERT INTO cuts.accounts VALUES (" + id + ", " + OPENING + ")");
                execute(c, "INSERT INTO cuts.mirror VALUES (" + id + ", " + OPENING + ")");
            }
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
    void withCutsNoReaderSeesATransferHalfDone() throws Exception {
        double cutsBefore = daemon.metric("cleave_proxy_cuts_total{outcome=\"taken\"}");
        Tally tally = runTransfersAndReaders(Duration.ofSeconds(Long.getLong("cuts.seconds", 20)), false);
        System.out.println("with cuts: " + tally);
        assertThat(tally.transfers.get()).as("transfers committed").isPositive();
        assertThat(tally.reads()).as("reads checked").isPositive();
        assertThat(tally.torn()).as("torn reads with cuts: " + tally).isEmpty();
        double cuts = daemon.metric("cleave_proxy_cuts_total{outcome=\"taken\"}") - cutsBefore;
        double windows = daemon.metric("cleave_proxy_cut_window_seconds_count");
        System.out.printf("cuts taken %.0f in %.0f windows; decisions held %.0f (longest %.1f ms), branch commits held %.0f"
                + " (longest %.1f ms)%n", cuts, windows, daemon.metric("cleave_proxy_cut_commit_wait_seconds_count"),
                1000 * daemon.metric("cleave_proxy_cut_commit_wait_seconds_max"),
                daemon.metric("cleave_proxy_cut_branch_commit_wait_seconds_count"),
                1000 * daemon.metric("cleave_proxy_cut_branch_commit_wait_seconds_max"));
        assertThat(cuts).as("cuts counted on /metrics").isPositive();
        assertThat(windows).as("windows counted, readers sharing them").isPositive().isLessThanOrEqualTo(cuts);
        Leftovers.awaitNothingOpen(daemon, Duration.ofSeconds(30));
    }

    @Test
    @Order(2)
    void theManagersCutOverJdbcSeesEveryTransferWholeWithEachShardsBinlogPosition() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Tally tally = new Tally();
        List<Thread> writers = startWriters(stop, tally);
        List<Connection> shards = new ArrayList<>();
        try {
            for (int s = 0; s < SHARDS; s++) {
                shards.add(daemon.connect(s));
            }
            Map<Integer, Connection> byShard = new LinkedHashMap<>();
            for (int s = 0; s < SHARDS; s++) {
                byShard.put(s, shards.get(s));
            }
            for (int round = 0; round < 50; round++) {
                Cut<Connection> cut = JdbcCut.take(proxy.get().server().runtime().cuts(), byShard, true, Duration.ofSeconds(10));
                long accounts = 0;
                long mirror = 0;
                for (ShardSnapshot<Connection> s : cut.shards()) {
                    accounts += sum(s.connection(), "SELECT COALESCE(SUM(balance), 0) FROM cuts.accounts");
                    mirror += sum(s.connection(), "SELECT COALESCE(SUM(balance), 0) FROM cuts.mirror");
                    assertThat(s.position()).as("shard " + s.shard() + "'s binlog position at its snapshot").isNotNull();
                    assertThat(s.position().file()).isNotBlank();
                    assertThat(s.position().gtid()).as("its GTID position").isNotBlank();
                    execute(s.connection(), "COMMIT");
                }
                assertThat(accounts).as("accounts at cut " + round).isEqualTo(TOTAL);
                assertThat(mirror).as("mirror at cut " + round).isEqualTo(TOTAL);
            }
        } finally {
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            for (Connection c : shards) {
                c.close();
            }
        }
        assertThat(tally.failures).as("writers failed: " + tally.failureText).hasValue(0);
    }

    @Test
    @Order(3)
    void withCutsSwitchedOffTheSameReadersSeeTornResults() throws Exception {
        proxy.get().server().consistentCuts(false);
        try {
            Tally tally = runTransfersAndReaders(Duration.ofSeconds(Long.getLong("cuts.off.seconds", 30)), true);
            System.out.println("without cuts: " + tally);
            assertThat(tally.torn()).as("torn reads without cuts: " + tally).isNotEmpty();
        } finally {
            proxy.get().server().consistentCuts(true);
        }
    }

    // ---- the workload ----------------------------------------------------------------------------

    /** What the readers saw. */
    private static final class Tally {
        final AtomicLong transfers = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicReference<String> failureText = new AtomicReference<>("");
        final Map<String, AtomicLong> reads = new LinkedHashMap<>();
        final Map<String, AtomicLong> torn = new LinkedHashMap<>();
        final List<String> examples = new ArrayList<>();

        synchronized void read(String kind, boolean ok, String what) {
            reads.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
            if (!ok) {
                torn.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
                if (examples.size() < 5) {
                    examples.add(kind + ": " + what);
                }
            }
        }

        synchronized long reads() {
            return reads.values().stream().mapToLong(AtomicLong::get).sum();
        }

        synchronized Map<String, Long> torn() {
            Map<String, Long> out = new LinkedHashMap<>();
            torn.forEach((k, v) -> out.put(k, v.get()));
            return out;
        }

        void failed(Exception e) {
            failures.incrementAndGet();
            failureText.set(e.toString());
        }

        @Override
        public synchronized String toString() {
            return transfers.get() + " transfers, reads " + reads + ", torn " + torn + (examples.isEmpty() ? "" : " e.g. "
                    + examples) + (failures.get() == 0 ? "" : ", " + failures.get() + " failures (" + failureText.get() + ")");
        }
    }

    /**
     * Runs the writers and every kind of reader for {@code duration}; with {@code untilTorn}, stops
     * as soon as each kind of reader saw a torn result (or at the end).
     */
    private Tally runTransfersAndReaders(Duration duration, boolean untilTorn) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Tally tally = new Tally();
        List<Thread> threads = new ArrayList<>(startWriters(stop, tally));
        threads.add(reader("sums", stop, tally, c -> readSums(c, tally)));
        threads.add(reader("join", stop, tally, c -> readJoin(c, tally)));
        threads.add(reader("snapshot", stop, tally, c -> readInTransaction(c, "START TRANSACTION WITH CONSISTENT SNAPSHOT", tally)));
        threads.add(reader("read-only", stop, tally, c -> readInTransaction(c, "START TRANSACTION READ ONLY", tally)));
        threads.add(reader("first-read", stop, tally, c -> readInTransaction(c, "BEGIN", tally)));
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline && !(untilTorn && tally.torn().size() == tally.reads.size()
                && tally.reads.size() == 5)) {
            Thread.sleep(200);
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(tally.failures).as("a writer or reader failed: " + tally.failureText.get()).hasValue(0);
        assertThat(sum("SELECT SUM(balance) FROM cuts.accounts")).as("the total after the run").isEqualTo(TOTAL);
        return tally;
    }

    private interface ReadStep {
        void read(Connection c) throws SQLException;
    }

    private Thread reader(String name, AtomicBoolean stop, Tally tally, ReadStep step) {
        Thread t = new Thread(() -> {
            try (Connection c = daemon.connectProxy("cuts", "")) {
                while (!stop.get()) {
                    step.read(c);
                }
            } catch (SQLException e) {
                tally.failed(e);
            }
        }, "reader-" + name);
        t.start();
        return t;
    }

    private List<Thread> startWriters(AtomicBoolean stop, Tally tally) {
        List<Thread> out = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Thread t = new Thread(() -> {
                try (Connection c = daemon.connectProxy("cuts", "")) {
                    while (!stop.get()) {
                        transfer(c, tally);
                    }
                } catch (SQLException e) {
                    tally.failed(e);
                }
            }, "writer-" + w);
            t.start();
            out.add(t);
        }
        return out;
    }

    /**
     * Moves an amount from one account to one on another shard, in both tables, in one transaction:
     * rows locked in one global order (accounts by id, then mirror by id), so transfers do not
     * deadlock one another; one that fails on a lock wait or deadlock anyway is retried.
     */
    private void transfer(Connection c, Tally tally) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int a = ids.get(random.nextInt(ids.size()));
        int b;
        do {
            b = ids.get(random.nextInt(ids.size()));
        } while (b / 100 == a / 100);
        long amount = 1 + random.nextInt(100);
        int low = Math.min(a, b);
        int high = Math.max(a, b);
        long lowDelta = low == a ? -amount : amount;
        try {
            execute(c, "BEGIN");
            for (String table : List.of("accounts", "mirror")) {
                execute(c, "UPDATE " + table + " SET balance = balance + " + lowDelta + " WHERE id = " + low);
                execute(c, "UPDATE " + table + " SET balance = balance + " + -lowDelta + " WHERE id = " + high);
            }
            execute(c, "COMMIT");
            tally.transfers.incrementAndGet();
        } catch (SQLException e) {
            if (e.getErrorCode() != 1213 && e.getErrorCode() != 1205) {
                throw e;
            }
            execute(c, "ROLLBACK");
        }
    }

    private void readSums(Connection c, Tally tally) throws SQLException {
        long accounts = sum(c, "SELECT SUM(balance) FROM accounts");
        tally.read("sums", accounts == TOTAL, "SUM(accounts) = " + accounts);
        long mirror = sum(c, "SELECT SUM(balance) FROM mirror");
        tally.read("sums", mirror == TOTAL, "SUM(mirror) = " + mirror);
    }

    private void readJoin(Connection c, Tally tally) throws SQLException {
        long differing = sum(c, "SELECT COUNT(*) FROM accounts a JOIN mirror m ON m.id = a.id WHERE a.balance <> m.balance");
        tally.read("join", differing == 0, differing + " ids whose two rows differ");
    }

    /** In one transaction: both sums, and one id's row in each table (on two shards). */
    private void readInTransaction(Connection c, String begin, Tally tally) throws SQLException {
        String kind = begin.startsWith("BEGIN") ? "first-read" : begin.contains("READ ONLY") ? "read-only" : "snapshot";
        int id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
        execute(c, begin);
        try {
            if (!kind.equals("read-only")) {
                long accounts = sum(c, "SELECT SUM(balance) FROM accounts");
                tally.read(kind, accounts == TOTAL, "SUM(accounts) = " + accounts);
            }
            long account = sum(c, "SELECT balance FROM accounts WHERE id = " + id);
            long mirrored = sum(c, "SELECT balance FROM mirror WHERE id = " + id);
            tally.read(kind, account == mirrored, "id " + id + ": " + account + " and " + mirrored);
            long mirror = sum(c, "SELECT SUM(balance) FROM mirror");
            tally.read(kind, mirror == TOTAL, "SUM(mirror) = " + mirror);
        } finally {
            execute(c, "COMMIT");
        }
    }

    private long sum(String sql) throws SQLException {
        try (Connection c = daemon.connectProxy("", "")) {
            return sum(c, sql);
        }
    }

    private static long sum(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row from " + sql);
            }
            return rs.getLong(1);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
