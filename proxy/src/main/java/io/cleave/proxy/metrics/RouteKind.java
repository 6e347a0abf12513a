package io.cleave.proxy.metrics;

/** How a statement was served, for the queries-by-route metric. */
public enum RouteKind {
    /** Relayed to one shard. */
    SINGLE_SHARD,
    /** Fanned out to several shards and merged. */
    MULTI_SHARD,
    /** Sent to every shard (DDL, reference-table writes). */
    BROADCAST,
    /** Answered by the proxy itself (session statements, LAST_INSERT_ID(), ping). */
    LOCAL,
    /** Refused with an error. */
    REFUSED;

    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
