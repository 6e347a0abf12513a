package io.cleave.router.plan;

/** How per-shard partial aggregates combine into the final value. */
public enum AggregateKind {
    /** Partial COUNTs are summed. */
    COUNT,
    /** Partial SUMs are summed (NULL when every partial is NULL). */
    SUM,
    MIN,
    MAX,
    /** The shards return SUM in the column and COUNT in {@code countColumn}; the merge divides. */
    AVG,
    /** A group key or a value equal in every row of the group: the first one is kept. */
    FIRST
}
