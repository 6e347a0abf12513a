package io.cleave.manager.standby;

import java.util.List;

/**
 * What {@code cleave status} and {@code GET /v1/standby} show of a standby pair from one home.
 *
 * @param primary the primary's admin URL; {@code this host} on the primary
 * @param shards  each shard's replication as last read (every 2 s); empty before the first read
 * @param maps    the shard map version this home routes by and the newest its shards hold for the standby
 * @param relay   on a standby whose own proxy does not run: its proxy port relaying to the primary's proxy; else null
 * @param standbyAdmin on the primary: the standby's admin URL as its daemon last said it ({@link PairPeer}), which a
 *                     switchover and a rejoin by itself after a failover use; null until its daemon first asked
 */
public record StandbyReport(HostRole role, long epoch, String primary, boolean semiSync, List<ShardReplication> shards,
                            MapVersions maps, io.cleave.manager.standby.relay.RelayReport relay, String standbyAdmin) {

    /**
     * @param routed     the version in this home's state (a standby's: the seed's, until a promotion installs a newer one)
     * @param replicated the newest version written for the standby ({@code cleave.shard_maps}); 0 when none was since
     *                   the seed (as last read)
     */
    public record MapVersions(long routed, long replicated) {
    }
}
