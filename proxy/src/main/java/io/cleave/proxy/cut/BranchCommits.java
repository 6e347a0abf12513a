package io.cleave.proxy.cut;

import java.util.concurrent.Executor;

/** Branch commits of decided transactions still running, per shard (the proxy's commit fence). */
public interface BranchCommits {

    BranchCommits NONE = new BranchCommits() {
        @Override
        public long issued(int shard) {
            return 0;
        }

        @Override
        public boolean passes(int shard, long upTo, Executor executor, Runnable then) {
            return true;
        }
    };

    /** A mark of the branch commits begun on {@code shard} so far. */
    long issued(int shard);

    /**
     * Whether those up to {@code upTo} have all ended; if not, {@code then} runs on
     * {@code executor} once they have, and false is returned.
     */
    boolean passes(int shard, long upTo, Executor executor, Runnable then);
}
