package io.cleave.router.keyspace;

/**
 * Maps a sharding-key value to a bucket. Buckets, not shards, are what a function knows about:
 * the shard map assigns buckets to shards, so rebalancing moves buckets and never re-hashes keys.
 */
public interface ShardFunction {

    /** The name this function is registered under ("hash", "range"). */
    String kind();

    KeyType keyType();

    /** Number of buckets; bucket ids are 0 .. bucketCount() - 1. */
    int bucketCount();

    /**
     * The bucket holding {@code key}.
     *
     * @throws KeyOutOfRangeException when no bucket covers the key
     */
    int bucketOf(ShardKey key);

    /** A short human description of the bucket, e.g. "w_id 1-25" or "hash bucket 17". */
    String describeBucket(int bucket);
}
