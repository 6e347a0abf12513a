package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VictimPolicyTest {

    @Test
    void theTransactionThatDidLessWorkOverAllItsShardsIsTheVictim() {
        Shards s = new Shards(2);
        TrackedTransaction heavy = s.client(1, 11, 21);
        TrackedTransaction light = s.client(2, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);
        s.transaction(0, 11, 2, "UPDATE a").transaction(1, 21, 5, null);
        s.transaction(0, 12, 4, null).transaction(1, 22, 2, "UPDATE b");
        Snapshot snapshot = s.snapshot();

        Snapshot.TransactionView victim = VictimPolicy.choose(WaitForGraph.of(snapshot).cycles().get(0), snapshot)
                .orElseThrow();

        assertThat(victim.transaction()).isSameAs(light);
        assertThat(VictimPolicy.weight(snapshot.view(heavy), snapshot)).isEqualTo(7);
        assertThat(VictimPolicy.weight(victim, snapshot)).isEqualTo(6);
    }

    @Test
    void amongEqualsTheYoungestIsTheVictim() {
        Shards s = new Shards(2);
        s.client(1, 11, 21);
        TrackedTransaction younger = s.client(2, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);
        Snapshot snapshot = s.snapshot();

        assertThat(VictimPolicy.choose(WaitForGraph.of(snapshot).cycles().get(0), snapshot).orElseThrow().transaction())
                .isSameAs(younger);
    }

    @Test
    void onlyAClientTransactionOfThisProxyCanBeTheVictim() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 21);
        TrackedTransaction b = s.client(2, 12, 22);
        s.waits(1, 21, 99).waits(1, 99, 22).waits(0, 12, 11);
        s.transaction(1, 99, 0, "UPDATE other");
        s.transaction(0, 11, 3, null).transaction(1, 21, 3, null);
        s.transaction(0, 12, 1, null).transaction(1, 22, 1, null);
        Snapshot snapshot = s.snapshot();

        Snapshot.TransactionView victim = VictimPolicy.choose(WaitForGraph.of(snapshot).cycles().get(0), snapshot)
                .orElseThrow();

        assertThat(victim.transaction()).isSameAs(b).isNotSameAs(a);
    }

    @Test
    void overlappingCyclesAreAllBrokenAtOnceWithAsFewVictimsAsThePolicyNeeds() {
        // a and b wait for each other over shards 0 and 1, b and c over shards 1 and 2.
        Shards s = new Shards(3);
        TrackedTransaction a = s.client(1, 11, 21, 0);
        TrackedTransaction b = s.client(2, 12, 22, 32);
        TrackedTransaction c = s.client(3, 0, 23, 33);
        s.waits(0, 11, 12).waits(1, 22, 21).waits(1, 23, 22).waits(2, 32, 33);
        s.transaction(0, 12, 5, null).transaction(1, 22, 5, "UPDATE b").transaction(2, 32, 5, null);
        Snapshot lightEnds = s.snapshot();

        // b is the heaviest: c (as light as a, but younger) goes first, then a breaks what is left.
        assertThat(VictimPolicy.chooseAll(WaitForGraph.of(lightEnds), lightEnds, lightEnds))
                .extracting(choice -> choice.victim().transaction()).containsExactly(c, a);

        s.transaction(0, 12, 0, null).transaction(1, 22, 0, "UPDATE b").transaction(2, 32, 0, null);
        Snapshot lightMiddle = s.snapshot();
        assertThat(VictimPolicy.chooseAll(WaitForGraph.of(lightMiddle), lightMiddle, lightMiddle))
                .extracting(choice -> choice.victim().transaction()).containsExactly(b);
    }

    @Test
    void noVictimForACycleTheFirstLookDidNotSee() {
        Shards s = new Shards(2);
        s.client(1, 11, 21);
        s.client(2, 12, 22);
        s.waits(0, 11, 12);
        Snapshot first = s.snapshot();
        s.waits(1, 22, 21);
        Snapshot second = s.snapshot();

        assertThat(VictimPolicy.chooseAll(WaitForGraph.of(second), first, second)).isEmpty();
        assertThat(VictimPolicy.chooseAll(WaitForGraph.of(second), second, second)).hasSize(1);
    }
}
