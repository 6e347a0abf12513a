package io.cleave.bench.chaos;

/**
 * The bucket of an integer key in a hash keyspace, computed here on its own so the soak checks
 * where rows lie without asking the code that placed them. Cleave's hash is part of its on-disk
 * contract: 64-bit FNV-1a over the key's 8 little-endian bytes, then MurmurHash3's fmix64, modulo
 * the bucket count (unsigned). A disagreement shows as rows on the wrong shard at the first check.
 */
public final class HashBuckets {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private HashBuckets() {
    }

    public static int bucketOf(long key, int buckets) {
        long h = FNV_OFFSET;
        for (int i = 0; i < 8; i++) {
            h ^= (key >>> (8 * i)) & 0xff;
            h *= FNV_PRIME;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) Long.remainderUnsigned(h, buckets);
    }
}
