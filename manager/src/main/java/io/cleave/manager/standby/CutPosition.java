package io.cleave.manager.standby;

/** A primary shard's binlog position at a cut (a backup's manifest holds one per shard). */
public record CutPosition(int shard, String file, long position) {
}
