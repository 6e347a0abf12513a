package io.cleave.manager.backup;

/** Where a backup is. */
public enum BackupPhase {
    /** Reading the schema, the accounts and the routing; checking the location. */
    STARTING,
    /** Waiting for a window to open the snapshots on every shard at one cut. */
    CUTTING,
    /** Reading rows at the cut and writing chunk files. */
    COPYING,
    /** Every chunk is stored; the manifest, which makes the backup complete, is being written. */
    FINISHING,
    DONE,
    FAILED;

    public boolean terminal() {
        return this == DONE || this == FAILED;
    }
}
