package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.deadlock.Shards.node;
import static org.assertj.core.api.Assertions.assertThat;

class WaitForGraphTest {

    @Test
    void twoTransactionsWaitingForEachOtherOnTwoShardsAreACycleAcrossShards() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction b = s.client(2, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);

        List<WaitForGraph.Cycle> cycles = WaitForGraph.of(s.snapshot()).cycles();

        assertThat(cycles).hasSize(1);
        WaitForGraph.Cycle cycle = cycles.get(0);
        assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(b));
        assertThat(cycle.lockShards()).containsExactly(0, 1);
        assertThat(cycle.spansShards()).isTrue();
        assertThat(cycle.edgesFrom(node(a))).singleElement().satisfies(e -> {
            assertThat(e.shard()).isZero();
            assertThat(e.waitingThread()).isEqualTo(11);
            assertThat(e.to()).isEqualTo(node(b));
        });
    }

    @Test
    void aWaitForATransactionThatIsNotWaitingIsNoDeadlock() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        s.client(2, 12, 22);
        s.waits(0, 11, 12);

        WaitForGraph g = WaitForGraph.of(s.snapshot());

        assertThat(g.deadlocked()).isEmpty();
        assertThat(g.cycles()).isEmpty();
        assertThat(g.edgesFrom(node(a))).hasSize(1);
    }

    @Test
    void aChainBehindACycleIsStuckButOnlyTheCycleIsBroken() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction b = s.client(2, 12, 22);
        TrackedTransaction c = s.client(3, 13, 0);
        s.waits(0, 11, 12).waits(1, 22, 21).waits(0, 13, 11);

        WaitForGraph g = WaitForGraph.of(s.snapshot());

        assertThat(g.deadlocked()).containsExactlyInAnyOrder(node(a), node(b), node(c));
        assertThat(g.cycles()).singleElement().satisfies(cycle ->
                assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(b)));
    }

    @Test
    void threeTransactionsOverThreeShards() {
        Shards s = new Shards(3);
        TrackedTransaction a = s.client(1, 11, 21, 0);
        TrackedTransaction b = s.client(2, 0, 22, 32);
        TrackedTransaction c = s.client(3, 13, 0, 33);
        // a waits on shard 1 for b, b on shard 2 for c, c on shard 0 for a.
        s.waits(1, 21, 22).waits(2, 32, 33).waits(0, 13, 11);

        WaitForGraph.Cycle cycle = WaitForGraph.of(s.snapshot()).cycles().get(0);

        assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(b), node(c));
        assertThat(cycle.lockShards()).containsExactly(0, 1, 2);
    }

    @Test
    void aSingleShardTransactionCanCloseACycleAcrossShards() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction single = s.client(2, 0, 22);
        TrackedTransaction b = s.client(3, 13, 23);
        // a waits on shard 1 for the single-shard one, which waits there for b, which waits on shard 0 for a.
        s.waits(1, 21, 22).waits(1, 22, 23).waits(0, 13, 11);

        assertThat(WaitForGraph.of(s.snapshot()).cycles()).singleElement().satisfies(cycle -> {
            assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(single), node(b));
            assertThat(cycle.spansShards()).isTrue();
        });
    }

    @Test
    void aShardTransactionThatIsNoClientOfTheProxyIsANodeOfItsOwn() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction b = s.client(2, 12, 22);
        // a waits on shard 1 for another client's thread 99, which waits there for b; b waits on shard 0 for a.
        s.waits(1, 21, 99).waits(1, 99, 22).waits(0, 12, 11);

        WaitForGraph.Cycle cycle = WaitForGraph.of(s.snapshot()).cycles().get(0);

        assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(b), new WaitNode.ShardThread(1, 99));
    }

    @Test
    void aCycleOnOneShardIsLeftToThatShard() {
        Shards s = new Shards(2);
        s.client(1, 11, 0);
        s.client(2, 12, 0);
        s.waits(0, 11, 12).waits(0, 12, 11);

        List<WaitForGraph.Cycle> cycles = WaitForGraph.of(s.snapshot()).cycles();

        assertThat(cycles).singleElement().satisfies(c -> assertThat(c.spansShards()).isFalse());
    }

    @Test
    void aClientBetweenCommandsWaitsForNothingWhateverAnOlderViewOfTheShardSays() {
        Shards s = new Shards(2);
        s.client(1, 0, false, 11, 21);
        s.client(2, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);

        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).isEmpty();
    }

    @Test
    void aPoolLineWhoseConnectionsAreAllHeldByTransactionsWaitingOnTheWaiterIsACycle() {
        Shards s = new Shards(2);
        // a holds shard 0 and waits in line for shard 1; b holds the one connection to shard 1 and waits on shard 0 for a.
        TrackedTransaction a = s.client(1, 11, 0);
        TrackedTransaction b = s.client(2, 12, 22);
        s.waits(0, 12, 11).line(0, 1, 1, a);

        WaitForGraph.Cycle cycle = WaitForGraph.of(s.snapshot()).cycles().get(0);

        assertThat(cycle.members()).containsExactlyInAnyOrder(node(a), node(b), new WaitNode.PoolLine(0, 1));
        assertThat(cycle.spansShards()).isTrue();
        assertThat(cycle.edgesFrom(node(a))).singleElement().satisfies(e -> assertThat(e.inLine()).isTrue());
    }

    @Test
    void aPoolLineMovesWhenAnyHolderCanGoOn() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 0);
        s.client(2, 12, 22);
        s.client(3, 0, 23);
        s.waits(0, 12, 11).line(0, 1, 2, a);

        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).isEmpty();
    }

    @Test
    void aPoolLineMovesWhenSomeConnectionIsHeldBySomeoneTheProxyDoesNotTrack() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 0);
        s.client(2, 12, 22);
        s.waits(0, 12, 11).line(0, 1, 2, a);

        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).isEmpty();
    }

    @Test
    void aLineOnAnotherProxyThreadIsNotHeldByThisThreadsTransactions() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 1, true, 11, 0);
        s.client(2, 0, true, 12, 22);
        s.waits(0, 12, 11).line(1, 1, 1, a);

        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).isEmpty();
    }

    @Test
    void aTransactionWaitingOnTwoShardsAtOnceGoesOnOnlyWhenBothLetGo() {
        Shards s = new Shards(3);
        TrackedTransaction a = s.client(1, 11, 21, 0);
        TrackedTransaction b = s.client(2, 12, 0, 32);
        s.client(3, 0, 23, 0);
        // a's statement waits on shard 0 for b and on shard 1 for an idle transaction; b waits on shard 2 for nothing else.
        s.waits(0, 11, 12).waits(1, 21, 23);

        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).isEmpty();

        s.transaction(2, 31, 1, null).waits(2, 32, 31);
        TrackedTransaction c = s.client(4, 13, 0, 31);
        s.waits(0, 13, 11);
        assertThat(WaitForGraph.of(s.snapshot()).deadlocked()).contains(node(a), node(b), node(c));
    }

    @Test
    void withoutAVictimWhoeverWaitedOnlyForItCanGoOn() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction b = s.client(2, 12, 22);
        TrackedTransaction c = s.client(3, 13, 0);
        s.waits(0, 11, 12).waits(1, 22, 21).waits(0, 13, 12);

        WaitForGraph g = WaitForGraph.of(s.snapshot()).without(java.util.Set.of(node(b)));

        assertThat(g.deadlocked()).isEmpty();
        assertThat(g.edgesFrom(node(a))).isEmpty();
        assertThat(g.edgesFrom(node(c))).isEmpty();
    }
}
