package io.cleave.proxy.deadlock;

/** A vertex of the global wait-for graph. */
sealed interface WaitNode {

    /**
     * A client transaction through the proxy, one node across all its shards. Waits for every
     * transaction blocking any of its statement's legs (all must let go).
     */
    record Client(TrackedTransaction transaction) implements WaitNode {
        @Override
        public String toString() {
            return "client connection " + transaction.connectionId();
        }
    }

    /** A transaction on one shard that no client transaction of this proxy holds (another client of the shard, an autocommit statement). */
    record ShardThread(int shard, long thread) implements WaitNode {
        @Override
        public String toString() {
            return "thread " + thread + " on shard " + shard;
        }
    }

    /**
     * The line for a backend connection to one shard on one proxy thread: it moves when any
     * holder of that pool's connections gives one back, so it waits for one of them, not all.
     */
    record PoolLine(int loop, int shard) implements WaitNode {
        @Override
        public String toString() {
            return "the line for a connection to shard " + shard + " (proxy thread " + loop + ")";
        }
    }
}
