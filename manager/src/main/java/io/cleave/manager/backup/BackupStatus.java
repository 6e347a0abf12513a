package io.cleave.manager.backup;

/**
 * A backup as the admin API and {@code cleave backup --wait} show it.
 *
 * @param rowsEstimate   the rows the shards' statistics promise (an estimate: the progress bar's total)
 * @param historyLength  the longest InnoDB history list on a shard while the snapshots are open (purge held back)
 * @param snapshotMillis how long the snapshots have been (or were) open
 */
public record BackupStatus(String id, String location, String engine, BackupPhase phase, String startedAt,
                           String finishedAt, long rowsEstimate, long rowsRead, long bytesRead, long storedBytes,
                           long chunks, int tables, int tablesDone, long historyLength, long snapshotMillis,
                           long durationMillis, String message) {
}
