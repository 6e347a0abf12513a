package io.cleave.manager.standby;

/** What a home is to its standby pair: the primary serves and is replicated, the standby replicates every shard of it. */
public enum HostRole {
    PRIMARY,
    STANDBY
}
