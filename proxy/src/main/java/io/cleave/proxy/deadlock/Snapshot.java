package io.cleave.proxy.deadlock;

import java.util.List;
import java.util.Map;

/**
 * What the detector saw in one look: the proxy's client transactions and pool lines, then every
 * shard's lock waits. The graph is built from it; two looks a moment apart confirm a cycle.
 *
 * @param shards the shards that answered (a shard that did not adds no edges)
 */
record Snapshot(List<TransactionView> transactions, List<LineView> lines, Map<Integer, ShardLocks> shards) {

    /**
     * A client transaction as seen: its running command (odd while one runs) and its server
     * thread on each shard (0 where it holds none).
     */
    record TransactionView(TrackedTransaction transaction, int loop, long command, long[] threads, long startedNanos) {

        boolean running() {
            return (command & 1) == 1;
        }

        boolean holds(int shard) {
            return threads[shard] != 0;
        }
    }

    /** A pool line with someone in it: the pool's connections in use, and who waits, in order. */
    record LineView(int loop, int shard, int inUse, List<TrackedTransaction> waiters) {
    }

    TransactionView view(TrackedTransaction t) {
        for (TransactionView v : transactions) {
            if (v.transaction() == t) {
                return v;
            }
        }
        return null;
    }
}
