package io.cleave.router.shardmap;

import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which shard holds each bucket of each keyspace, at one version. Immutable: a move builds the
 * next version and publishes it through {@link ShardMapHolder}, so a statement planned against
 * one version never sees half of another.
 *
 * <p>A range keyspace starts with the configured ranges; once a move splits one, the map carries
 * the keyspace's ranges itself ({@link #splitRanges()}) and from then on it, not the config, is the
 * truth about the boundaries. The map also lists {@link Ghost ghosts}: rows a move left (or is
 * building) on a shard they do not belong to.
 *
 * <p>Besides buckets the map holds what else of the routing model changes while Cleave runs, so that
 * the state directory, not the config, is its truth once it changed: the shard count ({@code cleave
 * scale}), table rules set at run time ({@code cleave shard-table}, {@code cleave import}), servers
 * attached for an import, and the tables a move is copying (whose structure must not change meanwhile).
 */
public final class ShardMap {

    private final long version;
    private final int shardCount;
    private final Map<String, int[]> bucketShards;
    private final Map<String, RangeShardFunction> splitRanges;
    private final List<Ghost> ghosts;
    private final Map<String, TableRule> rules;
    private final List<AttachedShard> attached;
    private final Map<String, Long> movingTables;
    private final Map<String, String> refused;
    private final Map<String, int[]> owners;
    /** The routing topology last derived from this map, and the configured one it was derived from. */
    private volatile Topology routing;
    private volatile Topology routingBase;

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards) {
        this(version, shardCount, bucketShards, Map.of(), List.of());
    }

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards,
                    Map<String, RangeShardFunction> splitRanges, List<Ghost> ghosts) {
        this(version, shardCount, bucketShards, splitRanges, ghosts, Map.of(), List.of(), Map.of());
    }

    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards,
                    Map<String, RangeShardFunction> splitRanges, List<Ghost> ghosts, Map<String, TableRule> rules,
                    List<AttachedShard> attached, Map<String, Long> movingTables) {
        this(version, shardCount, bucketShards, splitRanges, ghosts, rules, attached, movingTables, Map.of());
    }

    /**
     * @param rules        table rules set at run time (by lower-case table name), over the config's
     * @param attached     servers attached for an import, indexed right after the local shards
     * @param movingTables lower-case names of tables a move is copying ({@link #EVERY_TABLE}: all), with the move's id
     * @param refused      databases the proxy refuses by name (exactly as the shards name them), with why
     */
    public ShardMap(long version, int shardCount, Map<String, int[]> bucketShards,
                    Map<String, RangeShardFunction> splitRanges, List<Ghost> ghosts, Map<String, TableRule> rules,
                    List<AttachedShard> attached, Map<String, Long> movingTables, Map<String, String> refused) {
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
        for (int i = 0; i < attached.size(); i++) {
            if (attached.get(i).index() != shardCount + i) {
                throw new IllegalArgumentException("attached server " + attached.get(i).label() + " has index "
                        + attached.get(i).index() + ", not " + (shardCount + i) + " (right after the local shards)");
            }
        }
        Map<String, TableRule> lowerRules = new LinkedHashMap<>();
        rules.forEach((table, rule) -> lowerRules.put(table.toLowerCase(Locale.ROOT), rule));
        this.bucketShards = Map.copyOf(copy);
        this.splitRanges = Map.copyOf(splitRanges);
        this.ghosts = List.copyOf(ghosts);
        this.rules = Map.copyOf(lowerRules);
        this.attached = List.copyOf(attached);
        this.movingTables = Map.copyOf(movingTables);
        this.refused = Map.copyOf(refused);
        Map<String, int[]> own = new HashMap<>();
        for (Map.Entry<String, int[]> e : copy.entrySet()) {
            own.put(e.getKey(), new TreeSet<>(Arrays.stream(e.getValue()).boxed().toList()).stream()
                    .mapToInt(Integer::intValue).toArray());
        }
        this.owners = Map.copyOf(own);
    }

    /** The {@link #movingTables()} entry that stands for every table (a move adding shards freezes all DDL). */
    public static final String EVERY_TABLE = "*";

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

    /** Table rules set at run time, by lower-case table name; they override the config's. */
    public Map<String, TableRule> rules() {
        return rules;
    }

    public List<AttachedShard> attached() {
        return attached;
    }

    /** Whether {@code shard} is an attached server rather than a local shard. */
    public boolean isAttached(int shard) {
        return shard >= shardCount && shard < shardCount + attached.size();
    }

    /** Tables whose rows a move is copying (lower-case names, or {@link #EVERY_TABLE}), with the move's id. */
    public Map<String, Long> movingTables() {
        return movingTables;
    }

    /** The move copying {@code table}, or null. */
    public Long moveCopying(String table) {
        Long all = movingTables.get(EVERY_TABLE);
        return all != null ? all : movingTables.get(table.toLowerCase(Locale.ROOT));
    }

    /** The shards holding at least one bucket of {@code keyspace}, in order. */
    public int[] owners(String keyspace) {
        int[] own = owners.get(keyspace);
        if (own == null) {
            throw new IllegalArgumentException("shard map has no keyspace " + keyspace);
        }
        return own;
    }

    /**
     * The topology statements are routed by: the configured keyspaces and default shard, the
     * configured table rules with this map's rules over them, and this map's shard count (attached
     * servers counted, so that a table homed on one is valid).
     */
    public Topology routing(Topology configured) {
        Topology t = routing;
        if (t != null && routingBase == configured) {
            return t;
        }
        Map<String, TableRule> merged = new LinkedHashMap<>(configured.tables());
        merged.putAll(rules);
        t = new Topology(shardCount + attached.size(), configured.keyspaces(), merged, configured.defaultShard(),
                configured.routines());
        routingBase = configured;
        routing = t;
        return t;
    }

    /**
     * Databases the proxy refuses by name, with the reason it gives (an import a promotion cut short before its
     * cutover: the database's rows are on its source only). Empty nearly always.
     */
    public Map<String, String> refusedDatabases() {
        return refused;
    }

    /** The next version, refusing database {@code database} (exactly as the shards name it) for {@code reason}. */
    public ShardMap withRefusedDatabase(String database, String reason) {
        Map<String, String> next = new LinkedHashMap<>(refused);
        next.put(database, reason);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, attached, movingTables, next);
    }

    /** The next version, serving database {@code database} again. */
    public ShardMap withoutRefusedDatabase(String database) {
        Map<String, String> next = new LinkedHashMap<>(refused);
        next.remove(database);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, attached, movingTables, next);
    }

    /** The next version, without the run-time rule of {@code table} (the config's applies again, if any). */
    public ShardMap withoutRule(String table) {
        Map<String, TableRule> next = new LinkedHashMap<>(rules);
        next.remove(table.toLowerCase(Locale.ROOT));
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, next, attached, movingTables, refused);
    }

    /** The next version, with {@code rule} for its table (over the config's). */
    public ShardMap withRule(TableRule rule) {
        Map<String, TableRule> next = new LinkedHashMap<>(rules);
        next.put(rule.table().toLowerCase(Locale.ROOT), rule);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, next, attached, movingTables, refused);
    }

    /** The next version, with a server (shown as {@code label}) attached after the local shards and any attached before. */
    public ShardMap withAttached(String label) {
        List<AttachedShard> next = new ArrayList<>(attached);
        next.add(new AttachedShard(shardCount + attached.size(), label));
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, next, movingTables, refused);
    }

    /**
     * The next version without the attached server {@code index} (the last attached, so the others
     * keep their indexes); refused while a rule still homes a table there.
     */
    public ShardMap withoutAttached(int index) {
        if (attached.isEmpty() || attached.get(attached.size() - 1).index() != index) {
            throw new IllegalArgumentException("server " + index + " is not the last attached one");
        }
        for (TableRule rule : rules.values()) {
            if (rule instanceof TableRule.Unsharded u && u.homeShard() == index) {
                throw new IllegalArgumentException("table " + u.table() + " still lives on attached server " + index);
            }
        }
        List<AttachedShard> next = new ArrayList<>(attached.subList(0, attached.size() - 1));
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, next, movingTables, refused);
    }

    /** The next version, with {@code tables} (lower-cased) being copied by move {@code moveId}. */
    public ShardMap withMovingTables(Collection<String> tables, long moveId) {
        Map<String, Long> next = new LinkedHashMap<>(movingTables);
        for (String t : tables) {
            next.put(t.toLowerCase(Locale.ROOT), moveId);
        }
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, attached, next, refused);
    }

    /** The next version, without the tables move {@code moveId} was copying. */
    public ShardMap withoutMovingTables(long moveId) {
        Map<String, Long> next = new LinkedHashMap<>(movingTables);
        next.values().removeIf(id -> id == moveId);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, ghosts, rules, attached, next, refused);
    }

    /**
     * The next version with {@code count} local shards. Refused while buckets, ghosts or table rules
     * name a shard that would be gone, or a server is attached (its index follows the local shards').
     */
    public ShardMap withShardCount(int count) {
        if (!attached.isEmpty()) {
            throw new IllegalArgumentException("the shard count cannot change while " + attached.get(0).label()
                    + " is attached for an import");
        }
        for (TableRule rule : rules.values()) {
            if (rule instanceof TableRule.Unsharded u && u.homeShard() >= count) {
                throw new IllegalArgumentException("table " + u.table() + " still lives on shard " + u.homeShard());
            }
        }
        return new ShardMap(version + 1, count, bucketShards, splitRanges, ghosts, rules, attached, movingTables, refused);
    }

    /** The next version, with {@code buckets} of {@code keyspace} assigned to {@code targetShard}. */
    public ShardMap withBucketsMoved(String keyspace, Collection<Integer> buckets, int targetShard) {
        Map<String, int[]> next = new HashMap<>(bucketShards);
        int[] map = bucketShards.get(keyspace).clone();
        for (int b : buckets) {
            map[b] = targetShard;
        }
        next.put(keyspace, map);
        return new ShardMap(version + 1, shardCount, next, splitRanges, ghosts, rules, attached, movingTables, refused);
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
        return new ShardMap(version + 1, shardCount, next, nextSplit, ghosts, rules, attached, movingTables, refused);
    }

    /** The next version, with {@code ghost} added. */
    public ShardMap withGhost(Ghost ghost) {
        List<Ghost> next = new ArrayList<>(ghosts);
        next.add(ghost);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, next, rules, attached, movingTables, refused);
    }

    /** The next version, without the ghosts of move {@code moveId}. */
    public ShardMap withoutGhosts(long moveId) {
        List<Ghost> next = new ArrayList<>(ghosts);
        next.removeIf(g -> g.moveId() == moveId);
        return new ShardMap(version + 1, shardCount, bucketShards, splitRanges, next, rules, attached, movingTables, refused);
    }

    /** This map as version {@code next}: several changes published as one version. */
    public ShardMap asVersion(long next) {
        return new ShardMap(next, shardCount, bucketShards, splitRanges, ghosts, rules, attached, movingTables, refused);
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
                || !other.bucketShards.keySet().equals(bucketShards.keySet()) || !other.ghosts.equals(ghosts)
                || !other.rules.equals(rules) || !other.attached.equals(attached)
                || !other.movingTables.equals(movingTables) || !other.refused.equals(refused)) {
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
                + (ghosts.isEmpty() ? "" : ", ghosts=" + ghosts) + (rules.isEmpty() ? "" : ", rules=" + rules.values())
                + (attached.isEmpty() ? "" : ", attached=" + attached)
                + (movingTables.isEmpty() ? "" : ", moving tables=" + movingTables)
                + (refused.isEmpty() ? "" : ", refused databases=" + refused.keySet()) + "}";
    }
}
