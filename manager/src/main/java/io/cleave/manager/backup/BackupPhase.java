package io.cleave.manager.backup;

/** Where a backup is. */
public enum BackupPhase {
    /** Reading the schema, the accounts and the routing; checking the location. */
    STARTING,
    /**
     * Waiting for a window to open the snapshots on every shard at one cut (the physical engine: after
     * its copies, then counting and checksumming every table in the cut's snapshots).
     */
    CUTTING,
    /** Reading rows at the cut and writing chunk files (the physical engine: copying each shard's files, before the cut). */
    COPYING,
    /** Every chunk is stored; the manifest, which makes the backup complete, is being written. */
    FINISHING,
    DONE,
    FAILED;

    public boolean terminal() {
        return this == DONE || this == FAILED;
    }
}
