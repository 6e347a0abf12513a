package io.cleave.router.shardmap;

import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which shard holds each bucket of each keyspace, at one version. Immutable: a move builds the
 * next version and publishes it through {@link ShardMapHolder}, so a statement planned against
 * one version never sees half of another.
 *
 * <p>A range keyspace starts with the configured ranges; once a move splits one, the map carries
 * the keyspace's ranges itself ({@link #splitRanges()}) and from then on it, not the config, is the
 * truth about the boundaries. The map also lists {@link Ghost ghosts}: rows a move left (or is
 * building) on a shard they do not belong to.
 */
public final class ShardMap {

    private final long version;
    private final int shardCount;
    private final Map<String, int[]> bucketShards;
    private final Map<String, RangeShardFunction> splitRanges;
    private final List<Ghost> ghosts;

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards) {
        this(version, shardCount, bucketShards, Map.of(), List.of());
    }

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards,
                    Map<String, RangeShardFunction> splitRanges, List<Ghost> ghosts) {
        this.version = version;
        this.shardCount = shardCount;
        Map<String, int[]> copy = new HashMap<>();
        for (Map.Entry<String, int[]> e : bucketShards.entrySet()) {
            for (int shard : e.getValue()) {
                checkShard(e.getKey(), shard);
            }
            RangeShardFunction ranges = splitRanges.get(e.getKey());
            if (ranges != null && ranges.bucketCount() != e.getValue().length) {
                throw new IllegalArgumentException("keyspace " + e.getKey() + " has " + ranges.bucketCount()
                        + " ranges but " + e.getValue().length + " shard assignments");
            }
            copy.put(e.getKey(), e.getValue().clone());
        }
        for (Ghost g : ghosts) {
            checkShard(g.keyspace(), g.shard());
        }
        this.bucketShards = Map.copyOf(copy);
        this.splitRanges = Map.copyOf(splitRanges);
        this.ghosts = List.copyOf(ghosts);
    }

    private void checkShard(String keyspace, int shard) {
        if (shard < 0 || shard >= shardCount) {
            throw new IllegalArgumentException("keyspace " + keyspace + " assigns keys to shard " + shard
                    + ", not one of 0.." + (shardCount - 1));
        }
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

    /**
     * The shard holding {@code key}: through the map's own ranges when a move split them, else
     * through the keyspace's {@code configured} function.
     *
     * @throws io.cleave.router.keyspace.KeyOutOfRangeException when no bucket covers the key
     */
    public int shardOf(String keyspace, ShardKey key, ShardFunction configured) {
        return shardOf(keyspace, function(keyspace, configured).bucketOf(key));
    }

    /** The function whose buckets this map assigns: the map's split ranges, else {@code configured}. */
    public ShardFunction function(String keyspace, ShardFunction configured) {
        RangeShardFunction split = splitRanges.get(keyspace);
        return split != null ? split : configured;
    }

    public Set<String> keyspaces() {
        return bucketShards.keySet();
    }

    /** A copy of the bucket -> shard array of one keyspace. */
    public int[] buckets(String keyspace) {
        return bucketShards.get(keyspace).clone();
    }

    /** Range keyspaces whose boundaries moves have changed, with their current ranges. */
    public Map<String, RangeShardFunction> splitRanges() {
        return splitRanges;
    }

    public List<Ghost> ghosts() {
        return ghosts;
    }

    /** The next version, with {@code buckets} of {@code keyspace} assigned to {@code targetShard}. */
    public ShardMap withBucketsMoved(String keyspace, Collection<Integer> buckets, int targetShard) {
        Map<String, int[]> next = new HashMap<>(bucketShards);
        int[] map = bucketShards.get(keyspace).clone();
        for (int b : buckets) {
            map[b] = targetShard;
        }
        next.put(keyspace, map);
        return new ShardMap(version + 1, shardCount, next, splitRanges, ghosts);
    }

    /**
     * The shard holding every key of {@code keys}.
     *
     * @throws IllegalArgumentException when some key is outside every range, or the keys lie on several shards
     */
    public int sourceOf(String keyspace, KeySet keys, ShardFunction configured) {
        ShardFunction f = function(keyspace, configured);
        int[] shards = bucketShards.get(keyspace);
        if (keys instanceof KeySet.Buckets b) {
            int source = shards[b.from()];
            for (int i = b.from(); i <= b.to(); i++) {
                if (shards[i] != source) {
                    throw new IllegalArgumentException("buckets " + keys + " of " + keyspace + " lie on shards " + source
                            + " and " + shards[i] + ": move the buckets of one shard at a time");
                }
            }
            return source;
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        if (!(f instanceof RangeShardFunction ranges)) {
            throw new IllegalArgumentException("keyspace " + keyspace + " is not a range keyspace");
        }
        long next = k.from();
        int source = -1;
        for (int bucket : sortedBuckets(ranges)) {
            KeyRange r = ranges.ranges().get(bucket);
            if (r.to() < next || r.from() > k.to()) {
                continue;
            }
            if (r.from() > next) {
                break;
            }
            if (source >= 0 && shards[bucket] != source) {
                throw new IllegalArgumentException("keys " + keys + " of " + keyspace + " lie on shards " + source + " and "
                        + shards[bucket] + ": move the keys of one shard at a time");
            }
            source = shards[bucket];
            if (r.to() >= k.to()) {
                return source;
            }
            next = r.to() + 1;
        }
        throw new IllegalArgumentException("key " + next + " of " + keys + " is outside every range of keyspace " + keyspace
                + " " + ranges.ranges());
    }

    /**
     * The next version, with {@code keys} on {@code target}. A range keyspace's ranges are split at
     * the keys' ends (1-100 on shard 0 moving 1-50 to shard 1 becomes 1-50 on 1 and 51-100 on 0),
     * and neighbouring ranges that end up on one shard merge.
     */
    public ShardMap withKeysMoved(String keyspace, KeySet keys, ShardFunction configured, int target) {
        checkShard(keyspace, target);
        if (keys instanceof KeySet.Buckets b) {
            List<Integer> buckets = new ArrayList<>();
            for (int i = b.from(); i <= b.to(); i++) {
                buckets.add(i);
            }
            return withBucketsMoved(keyspace, buckets, target);
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        RangeShardFunction ranges = (RangeShardFunction) function(keyspace, configured);
        int[] shards = bucketShards.get(keyspace);
        List<long[]> pieces = new ArrayList<>();
        for (int bucket : sortedBuckets(ranges)) {
            KeyRange r = ranges.ranges().get(bucket);
            int shard = shards[bucket];
            if (r.to() < k.from() || r.from() > k.to()) {
                pieces.add(new long[] {r.from(), r.to(), shard});
                continue;
            }
            if (r.from() < k.from()) {
                pieces.add(new long[] {r.from(), k.from() - 1, shard});
            }
            pieces.add(new long[] {Math.max(r.from(), k.from()), Math.min(r.to(), k.to()), target});
            if (r.to() > k.to()) {
                pieces.add(new long[] {k.to() + 1, r.to(), shard});
            }
        }
        List<long[]> merged = new ArrayList<>();
        for (long[] p : pieces) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last[2] == p[2] && last[1] != Long.MAX_VALUE && last[1] + 1 == p[0]) {
                last[1] = p[1];
            } else {
                merged.add(p);
            }
        }
        List<KeyRange> nextRanges = new ArrayList<>();
        int[] nextShards = new int[merged.size()];
        for (int i = 0; i < merged.size(); i++) {
            nextRanges.add(new KeyRange(merged.get(i)[0], merged.get(i)[1]));
            nextShards[i] = (int) merged.get(i)[2];
        }
        Map<String, int[]> next = new HashMap<>(bucketShards);
        next.put(keyspace, nextShards);
        Map<String, RangeShardFunction> nextSplit = new HashMap<>(splitRanges);
        nextSplit.put(keyspace, new RangeShardFunction(nextRanges));
        return new ShardMap(version + 1, shardCount, next, nextSplit, ghosts);
    }

    /** The next version, with {@code ghost} added. */
    public ShardMap withGhost(Ghost ghost) {
        List<Ghost> next = new ArrayList<>(ghosts);
        next.add(ghost);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, next);
    }

    /** The next version, without the ghosts of move {@code moveId}. */
    public ShardMap withoutGhosts(long moveId) {
        List<Ghost> next = new ArrayList<>(ghosts);
        next.removeIf(g -> g.moveId() == moveId);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, next);
    }

    /** This map as version {@code next}: several changes published as one version. */
    public ShardMap asVersion(long next) {
        return new ShardMap(next, shardCount, bucketShards, splitRanges, ghosts);
    }

    /** Bucket ids of a range function in key order. */
    private static List<Integer> sortedBuckets(RangeShardFunction ranges) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ranges.bucketCount(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> ranges.ranges().get(i).from()));
        return order;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ShardMap other) || other.version != version || other.shardCount != shardCount
                || !other.bucketShards.keySet().equals(bucketShards.keySet()) || !other.ghosts.equals(ghosts)) {
            return false;
        }
        for (Map.Entry<String, int[]> e : bucketShards.entrySet()) {
            if (!Arrays.equals(e.getValue(), other.bucketShards.get(e.getKey()))) {
                return false;
            }
        }
        if (!other.splitRanges.keySet().equals(splitRanges.keySet())) {
            return false;
        }
        for (Map.Entry<String, RangeShardFunction> e : splitRanges.entrySet()) {
            if (!e.getValue().ranges().equals(other.splitRanges.get(e.getKey()).ranges())) {
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
        return "ShardMap{version=" + version + ", shards=" + shardCount + ", keyspaces=" + bucketShards.keySet()
                + (ghosts.isEmpty() ? "" : ", ghosts=" + ghosts) + "}";
    }
}
