package io.cleave.router.keyspace;

import java.nio.charset.StandardCharsets;

/**
 * A stable hash of the key into a fixed number of buckets. The hash is part of the on-disk
 * contract (rows were placed by it), so it must never change: 64-bit FNV-1a over the key's bytes
 * (an integer's 8 little-endian bytes, a folded string's UTF-8), finished with the MurmurHash3
 * fmix64 avalanche so that consecutive ids spread evenly across buckets.
 */
public final class HashShardFunction implements ShardFunction {

    public static final String KIND = "hash";

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int buckets;
    private final KeyType keyType;

    public HashShardFunction(int buckets, KeyType keyType) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, was " + buckets);
        }
        this.buckets = buckets;
        this.keyType = keyType;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public KeyType keyType() {
        return keyType;
    }

    @Override
    public int bucketCount() {
        return buckets;
    }

    @Override
    public int bucketOf(ShardKey key) {
        long hash = key instanceof ShardKey.IntKey k
                ? hashLong(k.value())
                : hashBytes(((ShardKey.StringKey) key).folded().getBytes(StandardCharsets.UTF_8));
        return (int) Long.remainderUnsigned(hash, buckets);
    }

    @Override
    public String describeBucket(int bucket) {
        return "hash bucket " + bucket + "/" + buckets;
    }

    static long hashLong(long value) {
        long h = FNV_OFFSET;
        for (int i = 0; i < 8; i++) {
            h ^= (value >>> (8 * i)) & 0xff;
            h *= FNV_PRIME;
        }
        return fmix64(h);
    }

    static long hashBytes(byte[] bytes) {
        long h = FNV_OFFSET;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        return fmix64(h);
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
