package io.cleave.manager.imports;

/** Where an import stands. */
public enum ImportPhase {
    /** The source is being attached: the proxy routes the database's tables to it from then on. */
    ATTACHING,
    /** The database's tables, views and routines are being created on every local shard. */
    CREATING_SCHEMA,
    /** The rows move off the source (one move of every table: copy, catch-up, verify, cutover). */
    MOVING,
    /** Every table lives on the local shards; the source is let go. */
    DETACHING,
    DONE,
    /** The move failed: the source stays attached and serving; importing again from it goes on. */
    FAILED;

    public boolean ended() {
        return this == DONE;
    }
}
