package io.cleave.manager.config;

import java.time.Duration;
import java.util.Optional;

/**
 * The {@code backup} section: where backups go by default and whether binlogs are archived there
 * for point-in-time recovery.
 *
 * @param location       a directory or {@code s3://BUCKET/PREFIX}; {@code cleave backup} writes there
 *                       unless told otherwise, and archived binlogs and recorded cuts go there
 * @param archiveBinlogs copy each shard's binlog to the location as it is written and record a cut
 *                       every {@code cutInterval}, so that every recorded cut is a restore point
 * @param cutInterval    how often a cut is recorded while binlogs are archived
 * @param maxSnapshot    how long the logical engine may keep its snapshots open (they hold back
 *                       InnoDB's purge on every shard); past it the backup fails and says so
 * @param s3Endpoint     an S3-compatible server's URL (path-style requests); empty for AWS itself
 * @param s3Region       the region signed into requests
 * @param engine         how {@code cleave backup} copies the shards unless told ({@code auto}: physical where
 *                       a mariadb-backup of the shards' server version is found, else logical)
 * @param maxRateMbS     megabytes per second a backup may write to its location, all its writers together
 *                       (0: no bound); {@code cleave backup --max-rate} sets it for one backup
 */
public record BackupConfig(Optional<String> location, boolean archiveBinlogs, Duration cutInterval,
                           Duration maxSnapshot, Optional<String> s3Endpoint, String s3Region,
                           BackupEngine engine, int maxRateMbS) {

    public static final BackupConfig NONE = new BackupConfig(Optional.empty(), false, Duration.ofSeconds(5),
            Duration.ofHours(6), Optional.empty(), "us-east-1", BackupEngine.AUTO, 0);
}
