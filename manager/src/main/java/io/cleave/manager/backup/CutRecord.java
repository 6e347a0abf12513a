package io.cleave.manager.backup;

import java.util.List;

/**
 * A cut recorded while binlogs are archived: its id (increasing), when it was taken, the version of
 * the shard map it was taken under, and where each shard's binlog stood in it. It is written only once every shard's archive holds its binlog up to
 * that position, so every recorded cut is a point a restore can reach.
 */
public record CutRecord(long id, long millis, long mapVersion, List<BackupManifest.ShardPosition> shards) {
}
