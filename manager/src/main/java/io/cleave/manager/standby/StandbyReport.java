package io.cleave.manager.standby;

import java.util.List;

/**
 * What {@code cleave status} and {@code GET /v1/standby} show of a standby pair from one home.
 *
 * @param primary the primary's admin URL; {@code this host} on the primary
 * @param shards  each shard's replication as last read (every 2 s); empty before the first read
 */
public record StandbyReport(HostRole role, long epoch, String primary, boolean semiSync, List<ShardReplication> shards) {
}
