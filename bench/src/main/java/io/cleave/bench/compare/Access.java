package io.cleave.bench.compare;

/** How the benchmark client reaches the data. */
public enum Access {
    /** Straight to the shard's own port, as an application without Cleave would. */
    DIRECT,
    /** Through the Cleave proxy. */
    PROXY,
    /** Through HAProxy as an L4 relay in front of the shard's socket: the floor any relaying hop costs. */
    RELAY
}
