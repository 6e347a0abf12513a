package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConfirmationTest {

    @Test
    void theSameTransactionsWaitingInTheSameCommandsConfirmTheCycle() {
        Snapshot first = twoWay().snapshot();
        Snapshot second = first;

        assertThat(confirmed(first, second)).isTrue();
    }

    @Test
    void aCommandThatEndedBetweenTheLooksWasNoDeadlock() {
        Shards before = new Shards(2);
        TrackedTransaction a = before.client(1, 11, 21);
        TrackedTransaction b = before.client(2, 12, 22);
        before.waits(0, 11, 12).waits(1, 22, 21);
        Snapshot first = before.snapshot();
        // The same transactions, but a's view now shows another running command (counter moved on by two).
        Snapshot second = new Snapshot(List.of(
                new Snapshot.TransactionView(a, 0, 9, new long[] {11, 21}, 1),
                first.view(b)), first.lines(), first.shards());

        assertThat(confirmed(first, second)).isFalse();
    }

    @Test
    void anotherTransactionOnTheSameServerThreadIsNotTheSameWait() {
        Shards s = new Shards(2);
        s.client(1, 11, 21);
        s.client(2, 12, 22);
        s.waits(1, 21, 99).waits(1, 99, 22).waits(0, 12, 11);
        Snapshot first = s.snapshot();
        s.transaction(1, 99, 1, "UPDATE again");
        Snapshot second = new Snapshot(first.transactions(), first.lines(), java.util.Map.of(0, first.shards().get(0),
                1, new ShardLocks(1, first.shards().get(1).waits(), java.util.Map.of(
                        21L, first.shards().get(1).transaction(21),
                        22L, first.shards().get(1).transaction(22),
                        99L, new ShardLocks.ShardTransaction(99, "another", 1, null, null)))));

        assertThat(confirmed(first, second)).isFalse();
    }

    private static Shards twoWay() {
        Shards s = new Shards(2);
        s.client(1, 11, 21);
        s.client(2, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);
        return s;
    }

    private static boolean confirmed(Snapshot first, Snapshot second) {
        WaitForGraph.Cycle cycle = WaitForGraph.of(second).cycles().get(0);
        return Confirmation.sameWaits(cycle, WaitForGraph.of(first).deadlocked(), first, second);
    }
}
