package io.cleave.manager.scale;

/** Where a scale stands; up runs STARTING, RESIZING, ADDING, SPREADING; down DRAINING, SHRINKING, RESIZING, SPREADING. */
public enum ScalePhase {
    /** The new shards' instances are initialized and started, the running ones' my.cnf rewritten. */
    STARTING,
    /** Every shard's buffer pool is set to its share online, and AUTO_INCREMENT steps by the new count. */
    RESIZING,
    /** The new shards get every database's schema and the reference tables' rows; their cutover adds them to the map. */
    ADDING,
    /** Buckets and ranges move so the shards hold even shares. */
    SPREADING,
    /** Every key and table moves off the shards that go. */
    DRAINING,
    /** The map stops naming the shards that go; once no client holds them, they stop (their datadirs stay). */
    SHRINKING,
    DONE,
    /** A move failed: what is done stays; asking for the same count again goes on. */
    FAILED
}
