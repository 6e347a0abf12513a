package io.cleave.proxy.cutover;

import io.cleave.proxy.server.CommitFence;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.Router;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CutoverGateTest {

    private final RangeShardFunction ranges = new RangeShardFunction(List.of(new KeyRange(1, 100), new KeyRange(101, 200)));
    private final Topology topology = new Topology(2, Map.of("w", new Keyspace("w", ranges)),
            Map.of("orders", new TableRule.Sharded("orders", "w", "o_w_id"),
                    "settings", new TableRule.Unsharded("settings", 1),
                    "item", new TableRule.Reference("item")), 0);
    private final Router router = new Router(topology);
    private final ShardMap map = new ShardMap(1, 2, Map.of("w", new int[] {0, 1}));
    private final CutoverGate gate = new CutoverGate(new TargetResolver(topology), () -> map);
    private final EventLoop loop = new DefaultEventLoop();
    /** A drain deadline no test thread on a loaded machine runs into (the deadline's own test takes a short one). */
    private final Cutover cutover = new Cutover(1, "w", new KeySet.Keys(1, 50), ranges, 0, Duration.ofSeconds(10));

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** A session as the gate sees it; its fields change only on the loop. */
    private final class FakeSession implements Participant {
        boolean transactionOnSource;
        /** A connection kept for session state (a temporary table): it cannot follow the session elsewhere. */
        boolean pinned;
        long transactionSerial;
        boolean busy;
        long commandSerial;

        @Override
        public EventLoop eventLoop() {
            return loop;
        }

        @Override
        public boolean holdsTransactionOn(int shard) {
            return transactionOnSource && shard == 0;
        }

        @Override
        public boolean holdsAnyShard() {
            return transactionOnSource || pinned;
        }

        @Override
        public long transactionSerial() {
            return transactionSerial;
        }

        @Override
        public boolean busy() {
            return busy;
        }

        @Override
        public long commandSerial() {
            return commandSerial;
        }

        /** Admits a statement on the loop; returns whether it ran at once. */
        boolean statement(String sql, Runnable retry) throws Exception {
            return statement(gate, sql, retry);
        }

        boolean statement(CutoverGate gate, String sql, Runnable retry) throws Exception {
            CompletableFuture<Boolean> f = new CompletableFuture<>();
            loop.execute(() -> {
                Analysis a = router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis());
                f.complete(gate.admit(this, a.plan(), new LiteralParameters().bind(a, StandardCharsets.UTF_8), retry));
            });
            return f.get(5, TimeUnit.SECONDS);
        }

        void endTransaction() {
            loop.execute(() -> {
                transactionOnSource = false;
                transactionSerial++;
            });
        }
    }

    @Test
    void withoutACutoverEveryStatementRuns() throws Exception {
        FakeSession s = new FakeSession();
        gate.register(s);
        assertThat(s.statement("UPDATE orders SET x = 1 WHERE o_w_id = 7", () -> { })).isTrue();
    }

    @Test
    void statementsOnMovingKeysWaitForTheFenceAndTransactionsOnTheSourceFinishFirst() throws Exception {
        FakeSession inFlight = new FakeSession();
        inFlight.transactionOnSource = true;
        FakeSession newcomer = new FakeSession();
        gate.register(inFlight);
        gate.register(newcomer);
        CountDownLatch fenced = new CountDownLatch(1);
        AtomicInteger retried = new AtomicInteger();
        CompletableFuture<Cutover.Outcome> outcome = armed(cutover, fenced::countDown);
        Thread.sleep(20);
        assertThat(fenced.getCount()).as("the fence waits for the transaction on the source").isEqualTo(1);
        assertThat(newcomer.statement("UPDATE orders SET x = 1 WHERE o_w_id = 7", retried::incrementAndGet))
                .as("a new statement on a moving key waits").isFalse();
        assertThat(newcomer.statement("UPDATE orders SET x = 1 WHERE o_w_id = 70", () -> { }))
                .as("a key that does not move runs").isTrue();
        assertThat(inFlight.statement("UPDATE orders SET x = 1 WHERE o_w_id = 8", () -> { }))
                .as("the transaction already on the source goes on there").isTrue();
        inFlight.endTransaction();
        Cutover.Outcome o = outcome.get(5, TimeUnit.SECONDS);
        assertThat(o.switched()).isTrue();
        assertThat(o.held()).isEqualTo(1);
        assertThat(fenced.getCount()).isZero();
        loop.submit(() -> { }).get();
        assertThat(retried).as("the held statement ran again after the fence").hasValue(1);
        assertThat(gate.armed()).isFalse();
    }

    @Test
    void pastTheDeadlineEverythingHeldRunsAsBeforeAndTheAttemptIsGivenUp() throws Exception {
        FakeSession stuck = new FakeSession();
        stuck.transactionOnSource = true;
        FakeSession waiting = new FakeSession();
        gate.register(stuck);
        gate.register(waiting);
        AtomicInteger retried = new AtomicInteger();
        AtomicInteger fenced = new AtomicInteger();
        Cutover shortDeadline = new Cutover(1, "w", new KeySet.Keys(1, 50), ranges, 0, Duration.ofMillis(300));
        CompletableFuture<Cutover.Outcome> outcome = armed(shortDeadline, fenced::incrementAndGet);
        assertThat(waiting.statement("SELECT * FROM orders", retried::incrementAndGet)).as("a scan reaches moving keys")
                .isFalse();
        Cutover.Outcome o = outcome.get(5, TimeUnit.SECONDS);
        assertThat(o.switched()).isFalse();
        assertThat(o.reason()).contains("still running after 300 ms");
        assertThat(fenced).hasValue(0);
        loop.submit(() -> { }).get();
        assertThat(retried).hasValue(1);
    }

    @Test
    void aTableCutoverHoldsWhatMayReachItsSourceShardOnly() throws Exception {
        FakeSession s = new FakeSession();
        gate.register(s);
        Cutover tables = new Cutover(2, new Cutover.Scope.Source(), 1, Duration.ofSeconds(10));
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Cutover.Outcome> outcome = armed(tables, release::await);
        AtomicInteger retried = new AtomicInteger();
        assertThat(s.statement("UPDATE settings SET v = 1", retried::incrementAndGet)).as("a table on the source").isFalse();
        assertThat(s.statement("SELECT * FROM orders WHERE o_w_id = 150", retried::incrementAndGet))
                .as("a key on the source").isFalse();
        assertThat(s.statement("SELECT * FROM orders", retried::incrementAndGet)).as("a scan over both shards").isFalse();
        assertThat(s.statement("INSERT INTO item VALUES (1)", retried::incrementAndGet)).as("a write to every shard").isFalse();
        assertThat(s.statement("SELECT * FROM orders WHERE o_w_id = 7", () -> { })).as("a key on shard 0").isTrue();
        assertThat(s.statement("SELECT * FROM item", () -> { })).as("a read of a reference table").isTrue();
        release.countDown();
        assertThat(outcome.get(5, TimeUnit.SECONDS).switched()).isTrue();
        loop.submit(() -> { }).get();
        assertThat(retried).hasValue(4);
    }

    @Test
    void aTransactionThatACommandRunningAtArmingOpenedOnTheSourceFinishesBeforeTheFence() throws Exception {
        FakeSession s = new FakeSession();
        s.busy = true;
        gate.register(s);
        CountDownLatch fenced = new CountDownLatch(1);
        CompletableFuture<Cutover.Outcome> outcome = armed(cutover, fenced::countDown);
        Thread.sleep(20);
        // The command in flight at arming ends, leaving its transaction open on the source.
        loop.submit(() -> {
            s.busy = false;
            s.commandSerial++;
            s.transactionOnSource = true;
        }).get();
        Thread.sleep(30);
        assertThat(fenced.getCount()).as("the fence waits for the transaction the command opened").isEqualTo(1);
        assertThat(s.statement("UPDATE orders SET x = 1 WHERE o_w_id = 7", () -> { }))
                .as("that transaction goes on on the source").isTrue();
        s.endTransaction();
        assertThat(outcome.get(5, TimeUnit.SECONDS).switched()).isTrue();
    }

    @Test
    void theFenceWaitsForBranchCommitsOfAnsweredTransactionsOnTheSource() throws Exception {
        CommitFence commits = new CommitFence(2);
        CutoverGate gate = new CutoverGate(new TargetResolver(topology), () -> map, commits);
        FakeSession s = new FakeSession();
        s.transactionOnSource = true;
        gate.register(s);
        CountDownLatch fenced = new CountDownLatch(1);
        CompletableFuture<Cutover.Outcome> outcome = armed(gate, cutover, fenced::countDown);
        // The transaction is answered at its decision: it ends for its client while its branch on
        // the source still waits for its XA COMMIT.
        long branch = commits.pending(0);
        long elsewhere = commits.pending(1);
        s.endTransaction();
        Thread.sleep(30);
        assertThat(fenced.getCount()).as("the fence waits for the branch commit on the source").isEqualTo(1);
        commits.done(0, branch);
        assertThat(outcome.get(5, TimeUnit.SECONDS).switched()).isTrue();
        assertThat(commits.pendingOn(1)).as("a branch commit on another shard did not matter").isEqualTo(1);
        commits.done(1, elsewhere);
    }

    @Test
    void aSwitchOfEveryShardHoldsWhateverReachesAShardAndWaitsForTransactionsAndBranchCommitsOnAnyShard() throws Exception {
        CommitFence commits = new CommitFence(2);
        CutoverGate gate = new CutoverGate(new TargetResolver(topology), () -> map, commits);
        FakeSession inFlight = new FakeSession();
        inFlight.transactionOnSource = true;
        FakeSession newcomer = new FakeSession();
        gate.register(inFlight);
        gate.register(newcomer);
        long branch = commits.pending(1);
        CountDownLatch fenced = new CountDownLatch(1);
        CompletableFuture<Cutover.Outcome> outcome = armed(gate, Cutover.allShards(7, Duration.ofSeconds(10)),
                fenced::countDown);
        AtomicInteger retried = new AtomicInteger();
        assertThat(newcomer.statement(gate, "SELECT * FROM orders WHERE o_w_id = 150", retried::incrementAndGet))
                .as("a key on shard 1").isFalse();
        assertThat(newcomer.statement(gate, "SELECT * FROM item", retried::incrementAndGet))
                .as("a read of a reference table").isFalse();
        assertThat(newcomer.statement(gate, "SELECT 1", retried::incrementAndGet)).as("a statement with no table").isFalse();
        assertThat(newcomer.statement(gate, "SET @a = 1", () -> { })).as("a session statement reaches no shard").isTrue();
        assertThat(inFlight.statement(gate, "UPDATE orders SET x = 1 WHERE o_w_id = 150", () -> { }))
                .as("an open transaction goes on, on any shard").isTrue();
        inFlight.endTransaction();
        Thread.sleep(30);
        assertThat(fenced.getCount()).as("the fence waits for a branch commit on any shard").isEqualTo(1);
        commits.done(1, branch);
        Cutover.Outcome o = outcome.get(5, TimeUnit.SECONDS);
        assertThat(o.switched()).isTrue();
        assertThat(o.held()).isEqualTo(3);
        loop.submit(() -> { }).get();
        assertThat(retried).hasValue(3);
    }

    @Test
    void aSessionKeepingConnectionStateMakesASwitchOfEveryShardGiveUpAtItsDeadline() throws Exception {
        FakeSession temporaryTable = new FakeSession();
        temporaryTable.pinned = true;
        FakeSession waiting = new FakeSession();
        gate.register(temporaryTable);
        gate.register(waiting);
        AtomicInteger fenced = new AtomicInteger();
        AtomicInteger retried = new AtomicInteger();
        CompletableFuture<Cutover.Outcome> outcome = armed(Cutover.allShards(8, Duration.ofMillis(300)),
                fenced::incrementAndGet);
        assertThat(waiting.statement("UPDATE orders SET x = 1 WHERE o_w_id = 7", retried::incrementAndGet)).isFalse();
        Cutover.Outcome o = outcome.get(5, TimeUnit.SECONDS);
        assertThat(o.switched()).isFalse();
        assertThat(o.reason()).contains("connection-bound session state").contains("300 ms");
        assertThat(fenced).hasValue(0);
        loop.submit(() -> { }).get();
        assertThat(retried).as("the held statement ran as before").hasValue(1);
    }

    /** Runs a cutover attempt on another thread; returns once the gate is armed. */
    private CompletableFuture<Cutover.Outcome> armed(Cutover c, Cutover.Fence fence) throws InterruptedException {
        return armed(gate, c, fence);
    }

    private static CompletableFuture<Cutover.Outcome> armed(CutoverGate gate, Cutover c, Cutover.Fence fence)
            throws InterruptedException {
        CompletableFuture<Cutover.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run(c, fence);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!gate.armed()) {
            Thread.sleep(1);
        }
        return outcome;
    }
}
