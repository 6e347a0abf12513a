package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.Router;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.KeySet;
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
            Map.of("orders", new TableRule.Sharded("orders", "w", "o_w_id")), 0);
    private final Router router = new Router(topology);
    private final CutoverGate gate = new CutoverGate(new TargetResolver(topology));
    private final EventLoop loop = new DefaultEventLoop();
    private final Cutover cutover = new Cutover(1, "w", new KeySet.Keys(1, 50), ranges, 0, Duration.ofMillis(300));

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** A session as the gate sees it; its fields change only on the loop. */
    private final class FakeSession implements Participant {
        boolean transactionOnSource;
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
        CompletableFuture<Cutover.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run(cutover, fenced::countDown);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!gate.armed()) {
            Thread.sleep(1);
        }
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
        CompletableFuture<Cutover.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run(cutover, fenced::incrementAndGet);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (!gate.armed()) {
            Thread.sleep(1);
        }
        assertThat(waiting.statement("SELECT * FROM orders", retried::incrementAndGet)).as("a scan reaches moving keys")
                .isFalse();
        Cutover.Outcome o = outcome.get(5, TimeUnit.SECONDS);
        assertThat(o.switched()).isFalse();
        assertThat(o.reason()).contains("still running after 300 ms");
        assertThat(fenced).hasValue(0);
        loop.submit(() -> { }).get();
        assertThat(retried).hasValue(1);
    }
}
