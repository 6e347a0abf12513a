package io.cleave.router.keyspace;

/**
 * A named key domain (warehouse ids, tenant ids). Tables sharded on the same keyspace are
 * co-located: rows with equal keys live on one shard, so joins on the key stay on that shard.
 */
public record Keyspace(String name, ShardFunction function) {
}
