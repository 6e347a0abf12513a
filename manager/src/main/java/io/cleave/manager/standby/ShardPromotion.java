package io.cleave.manager.standby;

/**
 * One shard as a promotion left it.
 *
 * @param shard    the shard's index
 * @param gtid     {@code @@gtid_slave_pos} once its relay log was applied: the primary's last transaction it holds
 * @param prepared Cleave's XA branches prepared on it when replication stopped (the proxy's recovery settles them)
 */
public record ShardPromotion(int shard, String gtid, int prepared) {
}
