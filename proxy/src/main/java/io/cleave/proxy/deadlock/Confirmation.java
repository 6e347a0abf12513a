package io.cleave.proxy.deadlock;

import java.util.Set;

/**
 * Whether a cycle seen in the second look was there in the first, unchanged: every member was
 * already deadlocked then, every client transaction still runs the same command, and every other
 * shard transaction is still the same transaction. Only then is anyone a victim: a wait that ends
 * by itself between the looks, or a view of a moment, never costs a transaction its work.
 */
final class Confirmation {

    private Confirmation() {
    }

    static boolean sameWaits(WaitForGraph.Cycle cycle, Set<WaitNode> stuckBefore, Snapshot first, Snapshot second) {
        for (WaitNode m : cycle.members()) {
            if (!stuckBefore.contains(m)) {
                return false;
            }
            if (m instanceof WaitNode.Client c) {
                Snapshot.TransactionView before = first.view(c.transaction());
                Snapshot.TransactionView now = second.view(c.transaction());
                if (before == null || now == null || !now.running() || before.command() != now.command()) {
                    return false;
                }
            } else if (m instanceof WaitNode.ShardThread t) {
                ShardLocks.ShardTransaction before = transaction(first, t);
                ShardLocks.ShardTransaction now = transaction(second, t);
                if (before == null || now == null || !java.util.Objects.equals(before.trxId(), now.trxId())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static ShardLocks.ShardTransaction transaction(Snapshot s, WaitNode.ShardThread t) {
        ShardLocks locks = s.shards().get(t.shard());
        return locks == null ? null : locks.transaction(t.thread());
    }
}
