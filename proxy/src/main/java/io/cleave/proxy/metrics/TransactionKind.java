package io.cleave.proxy.metrics;

/** What a transaction that ended spanned, for the transactions metric. */
public enum TransactionKind {
    /** BEGIN ... COMMIT/ROLLBACK (or autocommit off) on one shard: a plain transaction there. */
    SINGLE_SHARD,
    /** A client's transaction that reached several shards: the coordinator plus XA branches. */
    CROSS_SHARD,
    /** One autocommit write that reached several shards, made atomic by a transaction of the proxy's own. */
    MULTI_SHARD_AUTOCOMMIT;

    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
