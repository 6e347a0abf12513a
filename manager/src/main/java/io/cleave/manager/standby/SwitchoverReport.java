package io.cleave.manager.standby;

import java.util.List;

/**
 * What a switchover did.
 *
 * @param epoch        the pair's epoch now (the new primary's)
 * @param primary      the new primary's admin URL
 * @param shards       each shard's GTID position at the switch (where the new primary took over)
 * @param pauseMillis  how long clients' statements were held (from the hold to its release)
 * @param held         statements that waited in the hold
 * @param millis       the whole switchover, checks included
 * @param standbyProxyPauseMillis when the standby's proxy forwarded its clients here (it was the primary before):
 *                     how long at most they were held, from the hold's request to the standby's take-over
 *                     (it lets them go right after); -1 when it held none
 */
public record SwitchoverReport(long epoch, String primary, List<ShardSwitch> shards, double pauseMillis, int held,
                               long millis, double standbyProxyPauseMillis) {

    /** One shard at the switch. */
    public record ShardSwitch(int shard, String gtid) {
    }
}
