package io.cleave.manager.backup;

/**
 * Test hook into backups. Production runs {@link #NONE}. A test holds a read in the cut's snapshots
 * (the logical engine's read of a table, the physical engine's checksum of one) to prove that
 * {@code backup.max_snapshot_s} stops a backup whose snapshots stay open too long.
 */
@FunctionalInterface
public interface BackupHooks {

    BackupHooks NONE = shard -> {
    };

    /** Called on a reading thread with the cut's snapshot open on {@code shard}, before each table is read there. */
    void inSnapshot(int shard) throws InterruptedException;
}
