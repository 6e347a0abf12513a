package io.cleave.manager.move;

/** What a move carries. */
public enum MoveKind {
    /** Keys of a keyspace (a key range, a bucket range) from one shard to another. */
    KEYS,
    /**
     * Whole tables from one shard (or an attached server) to where a new rule puts their rows:
     * split by key over a keyspace's shards, copied to every shard, or onto one home shard.
     */
    TABLES
}
