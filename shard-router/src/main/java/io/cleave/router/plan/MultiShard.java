package io.cleave.router.plan;

/** What a routed statement does when its target turns out to be more than one shard. */
public sealed interface MultiShard permits MultiShard.Merge, MultiShard.WriteAll, MultiShard.Refused {

    /** Read: send {@code sql} (the rewrite for merging) to each shard and merge as {@code spec} says. */
    record Merge(SqlTemplate sql, MergeSpec spec) implements MultiShard {
    }

    /**
     * Write: send the statement to each shard. Affected rows add up, except for {@code replicated}
     * writes (reference tables, DDL) where every shard did the same thing and one shard's count is
     * the answer.
     */
    record WriteAll(boolean replicated) implements MultiShard {
    }

    /** Cannot be answered correctly across shards: refuse with this error. */
    record Refused(int code, String sqlState, String message) implements MultiShard {
    }
}
