package io.cleave.manager.standby;

import java.util.List;

/**
 * What {@code cleave promote} did.
 *
 * @param epoch          the pair's epoch now (the standby's + 1)
 * @param shards         each shard's GTID reached and the branches it had prepared
 * @param shardMap       the shard map version the proxy routes by, and where it came from
 * @param stillPrepared  Cleave's branches still prepared once the proxy's recovery ran (0 unless a coordinator
 *                       shard could not be read); -1 when the proxy did not start
 * @param millis         from the request to the proxy serving
 * @param proxy          the proxy's state
 */
public record PromotionReport(long epoch, List<ShardPromotion> shards, String shardMap, int stillPrepared, long millis, String proxy) {
}
