package io.cleave.proxy.deadlock;

import java.util.Comparator;
import java.util.Optional;

/**
 * Picks the transaction to roll back as InnoDB does: the one that did the least work (the smallest
 * sum of InnoDB's transaction weight, rows changed and locks held, over all its shards), and among
 * equals the youngest. Only a client transaction of this proxy whose command is still running can
 * be the victim: it is the one the proxy can stop and answer.
 */
final class VictimPolicy {

    private VictimPolicy() {
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
