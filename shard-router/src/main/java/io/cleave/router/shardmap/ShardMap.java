package io.cleave.router.shardmap;

import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.topology.Topology;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which shard holds each bucket of each keyspace, at one version. Immutable: a rebalance builds
 * the next version and publishes it through {@link ShardMapHolder}, so a statement planned
 * against one version never sees half of another.
 */
public final class ShardMap {

    private final long version;
    private final int shardCount;
    private final Map<String, int[]> bucketShards;

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards) {
        this.version = version;
        this.shardCount = shardCount;
        Map<String, int[]> copy = new HashMap<>();
        for (Map.Entry<String, int[]> e : bucketShards.entrySet()) {
            for (int shard : e.getValue()) {
                if (shard < 0 || shard >= shardCount) {
                    throw new IllegalArgumentException("keyspace " + e.getKey() + " assigns a bucket to shard "
                            + shard + ", not one of 0.." + (shardCount - 1));
                }
            }
            copy.put(e.getKey(), e.getValue().clone());
        }
        this.bucketShards = Map.copyOf(copy);
    }

    /**
     * Version 1 for a topology: each keyspace's buckets spread over the shards in contiguous,
     * even blocks (bucket b of B goes to shard b * N / B), so neighbouring keys of a range keyspace
     * stay together, unless {@code explicit} assigns a keyspace's buckets itself.
     */
    public static ShardMap initial(Topology topology, Map<String, int[]> explicit) {
        Map<String, int[]> assignment = new HashMap<>();
        int shards = topology.shardCount();
        for (Keyspace keyspace : topology.keyspaces().values()) {
            int buckets = keyspace.function().bucketCount();
            int[] given = explicit.get(keyspace.name());
            if (given != null) {
                if (given.length != buckets) {
                    throw new IllegalArgumentException("keyspace " + keyspace.name() + " has " + buckets
                            + " buckets but " + given.length + " shard assignments");
                }
                assignment.put(keyspace.name(), given);
                continue;
            }
            int[] map = new int[buckets];
            for (int b = 0; b < buckets; b++) {
                map[b] = (int) ((long) b * shards / buckets);
            }
            assignment.put(keyspace.name(), map);
        }
        return new ShardMap(1, shards, assignment);
    }

    public long version() {
        return version;
    }

    public int shardCount() {
        return shardCount;
    }

    public int shardOf(String keyspace, int bucket) {
        int[] map = bucketShards.get(keyspace);
        if (map == null) {
            throw new IllegalArgumentException("shard map has no keyspace " + keyspace);
        }
        return map[bucket];
    }

    public Set<String> keyspaces() {
        return bucketShards.keySet();
    }

    /** A copy of the bucket -> shard array of one keyspace. */
    public int[] buckets(String keyspace) {
        return bucketShards.get(keyspace).clone();
    }

    /** The next version, with {@code buckets} of {@code keyspace} assigned to {@code targetShard}. */
    public ShardMap withBucketsMoved(String keyspace, Collection<Integer> buckets, int targetShard) {
        Map<String, int[]> next = new HashMap<>(bucketShards);
        int[] map = bucketShards.get(keyspace).clone();
        for (int b : buckets) {
            map[b] = targetShard;
        }
        next.put(keyspace, map);
        return new ShardMap(version + 1, shardCount, next);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ShardMap other) || other.version != version || other.shardCount != shardCount
                || !other.bucketShards.keySet().equals(bucketShards.keySet())) {
            return false;
        }
        for (Map.Entry<String, int[]> e : bucketShards.entrySet()) {
            if (!Arrays.equals(e.getValue(), other.bucketShards.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + bucketShards.keySet().hashCode();
    }

    @Override
    public String toString() {
        return "ShardMap{version=" + version + ", shards=" + shardCount + ", keyspaces=" + bucketShards.keySet() + "}";
    }
}
