package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveRefused;
import io.cleave.manager.move.MoveService;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.cleave.e2e.moves.MoveChecks.count;
import static io.cleave.e2e.moves.MoveChecks.execute;
import static io.cleave.e2e.moves.MoveChecks.proxyCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Moves on one daemon with two shards, through the proxy under writes: a key range of a range
 * keyspace (its range splits in the map), buckets of a hash keyspace, a rebalance of a keyspace
 * that sits on one shard, a cancel, and every refused request. Clients keep writing and reading
 * across shards the whole time: no statement may fail, totals stay what they were, and each row
 * ends on exactly the shard the map names.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MovesIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - name: warehouse
                  function: range
                  ranges:
                    - { from: 1, to: 100, shard: 0 }
                    - { from: 101, shard: 1 }
                - { name: ids, function: hash, buckets: 16, key_type: integer }
                - name: uneven
                  function: range
                  ranges:
                    - { from: 1, to: 100, shard: 0 }
                    - { from: 101, to: 200, shard: 0 }
                    - { from: 201, shard: 1 }
                - name: loose
                  function: range
                  ranges:
                    - { from: 1, shard: 0 }
              tables:
                - { name: account, keyspace: warehouse, column: w_id }
                - { name: entry, keyspace: warehouse, column: w_id }
                - { name: sb, keyspace: ids, column: id }
                - { name: item, keyspace: uneven, column: k }
                - { name: nokey, keyspace: loose, column: k }
            """;
    private static final int WAREHOUSES = 120;
    private static final int ACCOUNTS = 20;
    private static final long BALANCE = 1000;

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private MoveService moves;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml(SHARDING).create();
        daemon = home.start();
        moves = daemon.daemon().moves();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE m");
            execute(c, "CREATE TABLE m.account (w_id INT NOT NULL, a_id INT NOT NULL, balance BIGINT NOT NULL,"
                    + " note VARCHAR(40), updated DATETIME(6), PRIMARY KEY (w_id, a_id))");
            execute(c, "CREATE TABLE m.entry (id BIGINT NOT NULL AUTO_INCREMENT, w_id INT NOT NULL, amount BIGINT,"
                    + " PRIMARY KEY (id), KEY (w_id))");
            execute(c, "CREATE TABLE m.sb (id INT NOT NULL, k INT NOT NULL, c CHAR(60), PRIMARY KEY (id))");
            execute(c, "CREATE TABLE m.item (k INT NOT NULL, payload VARCHAR(100), PRIMARY KEY (k))");
            execute(c, "CREATE TABLE m.nokey (k INT NOT NULL, v INT)");
            for (int w = 1; w <= WAREHOUSES; w++) {
                StringBuilder values = new StringBuilder();
                for (int a = 1; a <= ACCOUNTS; a++) {
                    values.append(a == 1 ? "" : ",").append("(").append(w).append(",").append(a).append(",")
                            .append(BALANCE).append(",'acct ").append(a).append("', NOW(6))");
                }
                execute(c, "INSERT INTO m.account (w_id, a_id, balance, note, updated) VALUES " + values);
            }
            StringBuilder sb = new StringBuilder();
            for (int id = 1; id <= 3000; id++) {
                sb.append(sb.isEmpty() ? "" : ",").append("(").append(id).append(",").append(id % 97).append(",'row ")
                        .append(id).append("')");
                if (id % 500 == 0) {
                    execute(c, "INSERT INTO m.sb (id, k, c) VALUES " + sb);
                    sb.setLength(0);
                }
            }
            StringBuilder items = new StringBuilder();
            for (int k = 1; k <= 200; k++) {
                items.append(k == 1 ? "" : ",").append("(").append(k).append(",'item ").append(k).append("')");
            }
            execute(c, "INSERT INTO m.item (k, payload) VALUES " + items);
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
    void aKeyRangeMovesUnderTransfersAndScansWithoutAClientError() throws Exception {
        long total = (long) WAREHOUSES * ACCOUNTS * BALANCE;
        try (Workload load = new Workload(daemon, 4, total)) {
            load.awaitRounds(20);
            MoveRecord started = moves.start("warehouse", "1-50", 1, "test");
            assertThat(started.source).isZero();
            assertThat(started.tables).extracting(t -> t.table).containsExactlyInAnyOrder("account", "entry");
            MoveRecord done = MoveChecks.awaitEnd(moves, started.id, Duration.ofMinutes(2));
            assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
            load.awaitRounds(20);
            load.stopAndCheck();
            assertThat(done.rowsCopied).isGreaterThanOrEqualTo(50L * ACCOUNTS);
            assertThat(done.pauseMillis).isGreaterThan(0);
        }
        ShardMap map = daemon.daemon().shardMaps().current();
        assertThat(map.splitRanges().get("warehouse").ranges().toString()).isEqualTo("[1-50, 51-100, 101-]");
        assertThat(map.buckets("warehouse")).containsExactly(1, 0, 1);
        assertThat(map.ghosts()).isEmpty();
        assertThat(count(daemon, 0, "SELECT COUNT(*) FROM m.account WHERE w_id <= 50")).isZero();
        assertThat(count(daemon, 0, "SELECT COUNT(*) FROM m.entry WHERE w_id <= 50")).isZero();
        assertThat(count(daemon, 1, "SELECT COUNT(*) FROM m.account WHERE w_id <= 50")).isEqualTo(50L * ACCOUNTS);
        assertThat(count(daemon, 1, "SELECT COUNT(*) FROM m.account WHERE w_id BETWEEN 51 AND 100")).isZero();
        long sum = count(daemon, 0, "SELECT SUM(balance) FROM m.account") + count(daemon, 1, "SELECT SUM(balance) FROM m.account");
        assertThat(sum).isEqualTo((long) WAREHOUSES * ACCOUNTS * BALANCE);

        // AUTO_INCREMENT ids stay unique: both shards go on generating ids after the move.
        try (Connection c = daemon.connectProxy("m", "")) {
            for (int w : new int[] {7, 60, 7, 60, 110}) {
                execute(c, "INSERT INTO entry (w_id, amount) VALUES (" + w + ", 0)");
            }
        }
        Set<Long> ids = new HashSet<>();
        long rows = 0;
        for (int shard = 0; shard < 2; shard++) {
            try (Connection s = daemon.connect(shard); Statement st = s.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id FROM m.entry")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    rows++;
                }
            }
        }
        assertThat(ids).as("entry ids across both shards").hasSize((int) rows);
    }

    @Test
    @Order(2)
    void hashBucketsMoveUnderWritesAndTheShardsComputeBucketsAsTheRouterDoes() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicLong writes = new AtomicLong();
        Thread writer = new Thread(() -> {
            try (Connection c = daemon.connectProxy("m", "")) {
                int next = 100_000;
                while (!stop.get()) {
                    int id = 1 + ThreadLocalRandom.current().nextInt(3000);
                    execute(c, "UPDATE sb SET k = k + 1 WHERE id = " + id);
                    execute(c, "INSERT INTO sb (id, k, c) VALUES (" + next + ", 1, 'new')");
                    execute(c, "DELETE FROM sb WHERE id = " + next++);
                    long rows = proxyCount(c, "SELECT COUNT(*) FROM sb WHERE id BETWEEN 1 AND 3000");
                    if (rows != 3000) {
                        throw new AssertionError("a range scan over both shards saw " + rows + " rows, not 3000");
                    }
                    writes.incrementAndGet();
                }
            } catch (Throwable t) {
                errors.add(t);
            }
        });
        writer.start();
        long bucketsBefore = count(daemon, 0, "SELECT COUNT(*) FROM m.sb");
        MoveRecord started = moves.start("ids", "bucket:0-3", 1, "test");
        MoveRecord done = MoveChecks.awaitEnd(moves, started.id, Duration.ofMinutes(2));
        long at = writes.get();
        while (writes.get() < at + 5 && errors.isEmpty()) {
            Thread.sleep(20);
        }
        stop.set(true);
        writer.join();
        assertThat(errors).isEmpty();
        assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        assertThat(daemon.daemon().shardMaps().current().buckets("ids")).startsWith(1, 1, 1, 1, 0, 0, 0, 0, 1);

        HashShardFunction hash = new HashShardFunction(16, KeyType.INTEGER);
        KeySet moved = new KeySet.Buckets(0, 3);
        long left = 0;
        try (Connection s = daemon.connect(0); Statement st = s.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, cleave.bucket_of(id, 16) FROM m.sb")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                assertThat(rs.getInt(2)).as("bucket of %d on the shard", id).isEqualTo(hash.bucketOf(ShardKey.of(id)));
                assertThat(moved.contains(ShardKey.of(id), hash)).as("row %d left on the source", id).isFalse();
                left++;
            }
        }
        assertThat(left).isLessThan(bucketsBefore);
        long onTarget = count(daemon, 1, "SELECT COUNT(*) FROM m.sb");
        assertThat(left + onTarget).isEqualTo(3000);
        try (Connection s = daemon.connect(1); Statement st = s.createStatement();
             ResultSet rs = st.executeQuery("SELECT cleave.bucket_of(-5, 16), cleave.bucket_of(9223372036854775807, 16)")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(hash.bucketOf(ShardKey.of(-5)));
            assertThat(rs.getInt(2)).isEqualTo(hash.bucketOf(ShardKey.of(Long.MAX_VALUE)));
        }
    }

    @Test
    @Order(3)
    void badRequestsAreRefusedWithTheReasonAndNothingMoves() throws Exception {
        long version = daemon.daemon().shardMaps().current().version();
        assertRefused(() -> moves.start("nosuch", "1", 1, "test"), MoveRefused.Kind.BAD_REQUEST,
                "unknown keyspace 'nosuch'");
        assertRefused(() -> moves.start("uneven", "0-5", 1, "test"), MoveRefused.Kind.BAD_REQUEST,
                "outside every range");
        assertRefused(() -> moves.start("warehouse", "60", 0, "test"), MoveRefused.Kind.BAD_REQUEST,
                "on shard 0 already");
        assertRefused(() -> moves.start("warehouse", "60", 5, "test"), MoveRefused.Kind.NOT_FOUND,
                "shard 5 does not exist");
        assertRefused(() -> moves.start("warehouse", "45-60", 0, "test"), MoveRefused.Kind.BAD_REQUEST,
                "lie on shards 1 and 0");
        assertRefused(() -> moves.start("ids", "1-5", 0, "test"), MoveRefused.Kind.BAD_REQUEST, "bucket:");
        assertRefused(() -> moves.start("loose", "1-10", 1, "test"), MoveRefused.Kind.BAD_REQUEST,
                "table m.nokey of keyspace loose has no primary key");
        // A trigger would fire on the rows the move writes: the copy would differ from the source for ever (a BEFORE
        // trigger setting a column), or an audit trigger would record the move as clients' changes.
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE TRIGGER m.account_noted BEFORE INSERT ON m.account FOR EACH ROW SET NEW.note = 'new'");
            try {
                assertRefused(() -> moves.start("warehouse", "45", 0, "test"), MoveRefused.Kind.BAD_REQUEST,
                        "table m.account has trigger account_noted on shard 1: a move writes the rows");
            } finally {
                execute(c, "DROP TRIGGER m.account_noted");
            }
        }
        assertThat(daemon.daemon().shardMaps().current().version()).as("no map version was added").isEqualTo(version);
        assertThat(moves.active()).isEmpty();
    }

    @Test
    @Order(4)
    void aCancelledMoveLeavesTheSourceAsItWasAndDdlWaitsForAMove() throws Exception {
        try (Connection c = daemon.connectProxy("m", "")) {
            // Enough rows that the copy takes a while at the default pace.
            for (int batch = 0; batch < 20; batch++) {
                StringBuilder values = new StringBuilder();
                for (int i = 0; i < 1000; i++) {
                    values.append(i == 0 ? "" : ",").append("(61, ").append(1000 + batch * 1000 + i).append(", 1, 'x', NOW())");
                }
                execute(c, "INSERT INTO account (w_id, a_id, balance, note, updated) VALUES " + values);
            }
            long before = count(daemon, 0, "SELECT COUNT(*) FROM m.account");
            MoveRecord started = moves.start("warehouse", "51-70", 1, "test");
            assertRefused(() -> moves.start("warehouse", "65-80", 1, "test"), MoveRefused.Kind.CONFLICT,
                    "move " + started.id + " is already moving keys 51-70");
            MoveChecks.awaitPhase(moves, started.id, MovePhase.COPYING, Duration.ofSeconds(30));
            assertThatThrownBy(() -> execute(c, "ALTER TABLE account ADD COLUMN extra INT"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("(move " + started.id + ", keys 51-70");
            moves.cancel(started.id);
            MoveRecord ended = MoveChecks.awaitEnd(moves, started.id, Duration.ofMinutes(1));
            assertThat(ended.phase).isEqualTo(MovePhase.CANCELLED);
            assertThat(count(daemon, 0, "SELECT COUNT(*) FROM m.account")).isEqualTo(before);
            assertThat(count(daemon, 1, "SELECT COUNT(*) FROM m.account WHERE w_id BETWEEN 51 AND 70")).isZero();
            assertThat(daemon.daemon().shardMaps().current().ghosts()).isEmpty();
            assertThat(daemon.daemon().shardMaps().current().shardOf("warehouse", ShardKey.of(61),
                    daemon.daemon().config().sharding().topology().keyspace("warehouse").function())).isZero();
            assertRefused(() -> moves.cancel(started.id), MoveRefused.Kind.CONFLICT, "has ended (cancelled)");
            assertRefused(() -> moves.cancel(999), MoveRefused.Kind.NOT_FOUND, "there is no move 999");
            execute(c, "ALTER TABLE account ADD COLUMN extra INT");
            execute(c, "ALTER TABLE account DROP COLUMN extra");
        }
    }

    @Test
    @Order(5)
    void aRebalanceEvensOutAKeyspaceThatSitsOnOneShard() throws Exception {
        var dry = moves.rebalance(false, true);
        assertThat(dry.moves()).isEmpty();
        assertThat(dry.steps()).filteredOn(step -> step.keyspace().equals("uneven")).singleElement()
                .satisfies(step -> {
                    assertThat(step.from()).isZero();
                    assertThat(step.to()).isEqualTo(1);
                });
        var plan = moves.rebalance(false, false);
        assertThat(plan.moves()).hasSameSizeAs(plan.steps());
        for (long id : plan.moves()) {
            assertThat(MoveChecks.awaitEnd(moves, id, Duration.ofMinutes(2)).phase).isEqualTo(MovePhase.DONE);
        }
        long on0 = count(daemon, 0, "SELECT COUNT(*) FROM m.item");
        long on1 = count(daemon, 1, "SELECT COUNT(*) FROM m.item");
        assertThat(on0 + on1).isEqualTo(200);
        assertThat(on1).as("items moved to shard 1").isBetween(60L, 140L);
        try (Connection c = daemon.connectProxy("m", "")) {
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM item")).isEqualTo(200);
        }
    }

    @Test
    @Order(6)
    void theCliShowsShardsMovesAndFollowsAMoveAndMetricsCountThem() throws Exception {
        String home = "--home=" + daemon.home().root();
        CliRun shards = cli("shards", home);
        assertThat(shards.code()).isZero();
        assertThat(shards.out()).contains("shard map version").contains("keyspace warehouse (range)").contains("101-");
        CliRun exact = cli("shards", home, "--exact", "--json");
        assertThat(exact.out()).contains("\"exact\" : true").contains("\"keys\" : \"bucket:");

        CliRun move = cli("move", "warehouse", "105", "--to", "0", "--wait", home);
        assertThat(move.code()).as(move.out() + move.err()).isZero();
        assertThat(move.out()).contains("move ").contains("done:").contains("clients paused");
        CliRun list = cli("moves", home);
        assertThat(list.out()).contains("105").contains("done");
        assertThat(cli("moves", "--json", home).out()).contains("\"phase\" : \"DONE\"");

        CliRun bad = cli("move", "warehouse", "105", "--to", "0", home);
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("on shard 0 already");
        assertThat(cli("move", "warehouse", "105", "--to", "9", home).code()).isEqualTo(8);
        assertThat(cli("move", "--cancel", "1", home).code()).isEqualTo(7);
        CliRun dry = cli("rebalance", "--dry-run", home);
        assertThat(dry.code()).isZero();
        assertThat(dry.out()).containsAnyOf("dry run: nothing moved", "nothing to move");

        String metrics = daemon.admin("GET", "/metrics", false).body();
        assertThat(metrics).contains("cleave_move_cutover_pause_seconds_count").contains("cleave_moves_total{outcome=\"done\"}")
                .contains("cleave_move_rows_copied_total").contains("cleave_move_catchup_lag_events")
                .contains("cleave_move_phase{phase=\"copying\"}");
        assertThat(daemon.admin("GET", "/v1/moves", true).statusCode()).isEqualTo(200);
        assertThat(daemon.admin("GET", "/v1/moves/abc", true).statusCode()).isEqualTo(400);
        assertThat(daemon.admin("GET", "/v1/moves/999", true).statusCode()).isEqualTo(404);
    }

    private record CliRun(int code, String out, String err) {
    }

    private static CliRun cli(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cmd = io.cleave.manager.cli.CleaveMain.commandLine();
        cmd.setOut(new java.io.PrintWriter(out));
        cmd.setErr(new java.io.PrintWriter(err));
        int code = cmd.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, MoveRefused.Kind kind,
                                      String message) {
        assertThatThrownBy(call).isInstanceOf(MoveRefused.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(((MoveRefused) e).kind()).isEqualTo(kind));
    }

    /**
     * Clients through the proxy: transfers between two accounts of one warehouse in a transaction
     * (with an entry row each), and a scan of every balance across both shards, whose total must
     * never change. Any error fails the test.
     */
    static final class Workload implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        private final AtomicLong rounds = new AtomicLong();
        private final List<Thread> threads = new ArrayList<>();

        Workload(RunningDaemon daemon, int clients, long total) {
            for (int i = 0; i < clients; i++) {
                boolean scanner = i == 0;
                Thread t = new Thread(() -> {
                    try (Connection c = daemon.connectProxy("m", "")) {
                        while (!stop.get()) {
                            if (scanner) {
                                long sum = proxyCount(c, "SELECT SUM(balance) FROM account WHERE w_id <= " + WAREHOUSES);
                                if (sum != total) {
                                    throw new AssertionError("balances across shards add up to " + sum + ", not " + total);
                                }
                            } else {
                                transfer(c);
                            }
                            rounds.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "workload-" + i);
                t.start();
                threads.add(t);
            }
        }

        private static void transfer(Connection c) throws SQLException {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            int w = 1 + r.nextInt(WAREHOUSES);
            int from = 1 + r.nextInt(ACCOUNTS);
            int to = 1 + (from % ACCOUNTS);
            c.setAutoCommit(false);
            try (PreparedStatement debit = c.prepareStatement("UPDATE account SET balance = balance - 1, updated = NOW(6)"
                    + " WHERE w_id = ? AND a_id = ?");
                 PreparedStatement credit = c.prepareStatement("UPDATE account SET balance = balance + 1 WHERE w_id = ?"
                         + " AND a_id = ?");
                 PreparedStatement entry = c.prepareStatement("INSERT INTO entry (w_id, amount) VALUES (?, 1)")) {
                debit.setInt(1, w);
                debit.setInt(2, from);
                debit.executeUpdate();
                credit.setInt(1, w);
                credit.setInt(2, to);
                credit.executeUpdate();
                entry.setInt(1, w);
                entry.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }

        void awaitRounds(long more) throws InterruptedException {
            long target = rounds.get() + more;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (rounds.get() < target && errors.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(errors).as("client errors").isEmpty();
        }

        void stopAndCheck() throws InterruptedException {
            close();
            assertThat(errors).as("client errors").isEmpty();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
