package io.cleave.proxy.deadlock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Picks the transaction to roll back as InnoDB does: the one that did the least work (the smallest
 * sum of InnoDB's transaction weight, rows changed and locks held, over all its shards), and among
 * equals the youngest. Only a client transaction of this proxy whose command is still running can
 * be the victim: it is the one the proxy can stop and answer.
 */
final class VictimPolicy {

    /** A cycle to break and its victim. */
    record Choice(WaitForGraph.Cycle cycle, Snapshot.TransactionView victim) {
    }

    private VictimPolicy() {
    }

    /**
     * The victims of every cycle of {@code graph} (the second look) that was already there at the
     * {@code first} look, unchanged. Where cycles overlap (three transactions, two cycles through
     * one of them), victims are taken one by one, each from what is still a cycle once the victims
     * before it are gone, so one look breaks them all and no more victims than that.
     */
    static List<Choice> chooseAll(WaitForGraph graph, Snapshot first, Snapshot second) {
        Set<WaitNode> stuckBefore = WaitForGraph.of(first).deadlocked();
        List<Choice> choices = new ArrayList<>();
        Set<WaitNode> gone = new HashSet<>();
        boolean found = true;
        while (found) {
            found = false;
            for (WaitForGraph.Cycle cycle : graph.without(gone).spanningCycles()) {
                if (!Confirmation.sameWaits(cycle, stuckBefore, first, second)) {
                    continue;
                }
                Optional<Snapshot.TransactionView> victim = choose(cycle, second);
                if (victim.isPresent()) {
                    choices.add(new Choice(cycle, victim.get()));
                    gone.add(new WaitNode.Client(victim.get().transaction()));
                    found = true;
                    break;
                }
            }
        }
        return choices;
    }

    static Optional<Snapshot.TransactionView> choose(WaitForGraph.Cycle cycle, Snapshot snapshot) {
        return cycle.members().stream()
                .filter(m -> m instanceof WaitNode.Client)
                .map(m -> snapshot.view(((WaitNode.Client) m).transaction()))
                .filter(v -> v != null && v.running())
                .min(Comparator.<Snapshot.TransactionView>comparingLong(v -> weight(v, snapshot))
                        .thenComparing(Comparator.comparingLong(Snapshot.TransactionView::startedNanos).reversed())
                        .thenComparing(Comparator.comparingLong(
                                (Snapshot.TransactionView v) -> v.transaction().connectionId()).reversed()));
    }

    /** The transaction's weight summed over the shards it holds. */
    static long weight(Snapshot.TransactionView view, Snapshot snapshot) {
        long total = 0;
        for (int s = 0; s < view.threads().length; s++) {
            ShardLocks locks = snapshot.shards().get(s);
            if (view.threads()[s] != 0 && locks != null) {
                ShardLocks.ShardTransaction t = locks.transaction(view.threads()[s]);
                if (t != null) {
                    total += t.weight();
                }
            }
        }
        return total;
    }
}
