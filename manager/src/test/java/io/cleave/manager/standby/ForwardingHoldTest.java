package io.cleave.manager.standby;

import io.cleave.proxy.cutover.CutoverGate;
import io.cleave.proxy.cutover.Participant;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ForwardingHoldTest {

    private final RangeShardFunction ranges = new RangeShardFunction(List.of(new KeyRange(1, 100), new KeyRange(101, 200)));
    private final Topology topology = new Topology(2, Map.of("w", new Keyspace("w", ranges)),
            Map.of("orders", new TableRule.Sharded("orders", "w", "o_w_id")), 0);
    private final ShardMap map = new ShardMap(1, 2, Map.of("w", new int[] {0, 1}));
    private final CutoverGate gate = new CutoverGate(new TargetResolver(topology), () -> map);
    private final EventLoop loop = new DefaultEventLoop();
    private final ForwardingHold hold = new ForwardingHold(new GateOnly(gate));

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void aClaimedHoldLastsUntilItsReleaseAndRunsTheDecisionWhileStillHolding() throws Exception {
        hold.hold(1_000, 500);
        assertThat(gate.armed()).isTrue();
        assertThat(hold.claim()).as("a take-over claims the hold").isTrue();
        Thread.sleep(800);
        assertThat(gate.armed()).as("past its bound, a claimed hold still holds").isTrue();
        CountDownLatch decided = new CountDownLatch(1);
        AtomicInteger armedWhileDeciding = new AtomicInteger();
        hold.release(() -> {
            armedWhileDeciding.set(gate.armed() ? 1 : 0);
            decided.countDown();
        });
        assertThat(decided.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(armedWhileDeciding).as("the decision runs before the held statements").hasValue(1);
        awaitDisarmed();
    }

    @Test
    void anUnclaimedHoldLetsGoAtItsBoundAndCannotBeClaimedAfter() throws Exception {
        hold.hold(1_000, 100);
        awaitDisarmed();
        assertThat(hold.claim()).as("the proxy's statements may have run since").isFalse();
    }

    @Test
    void aHoldWhoseDrainFailsLeavesTheNextOneFree() throws Exception {
        Session pinned = new Session(true);
        gate.register(pinned);
        assertThatThrownBy(() -> hold.hold(200, 5_000)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could not hold");
        assertThat(hold.claim()).isFalse();
        gate.unregister(pinned);
        hold.hold(1_000, 5_000);
        assertThat(hold.claim()).as("a later switchover holds the proxy again").isTrue();
        hold.release(() -> { });
        awaitDisarmed();
    }

    private void awaitDisarmed() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gate.armed()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** A session keeping connection state (it holds a shard until it ends). */
    private final class Session implements Participant {
        private final boolean pinned;

        Session(boolean pinned) {
            this.pinned = pinned;
        }

        @Override
        public EventLoop eventLoop() {
            return loop;
        }

        @Override
        public boolean holdsTransactionOn(int shard) {
            return false;
        }

        @Override
        public boolean holdsAnyShard() {
            return pinned;
        }

        @Override
        public long transactionSerial() {
            return 0;
        }

        @Override
        public boolean busy() {
            return false;
        }

        @Override
        public long commandSerial() {
            return 0;
        }
    }

    /** The proxy as the hold uses it: its gate only. */
    private record GateOnly(CutoverGate gate) implements SwitchingProxy {
        @Override
        public String runId() {
            return "run";
        }

        @Override
        public <T> T withoutRecovery(java.util.concurrent.Callable<T> work) throws Exception {
            return work.call();
        }

        @Override
        public void forwardTo(List<Attachment.ShardAddress> shards, Map<Integer, String> sockets, String user,
                              String password) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean forwarding() {
            return true;
        }

        @Override
        public void serveOwnShards(String otherRun) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void serveNoShard() {
            throw new UnsupportedOperationException();
        }
    }
}
