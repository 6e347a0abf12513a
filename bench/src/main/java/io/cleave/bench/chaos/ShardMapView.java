package io.cleave.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The daemon's shard map ({@code state/shard-map.json}) as the checks read it, on their own: which
 * shard owns each key of each keyspace (the map's split ranges, else the configured ones; a hash
 * keyspace's bucket assignment), the rows of moves under way that sit where they do not belong
 * (ghosts), the table rules set at run time over the configured ones, and the tables being copied.
 */
public final class ShardMapView {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Keys a move left on, or is building on, a shard that does not own them. */
    record Ghost(String keyspace, boolean buckets, long from, long to, int shard) {
    }

    private final long version;
    private final int shardCount;
    private final Map<String, int[]> assignments;
    private final Map<String, List<long[]>> ranges;
    private final List<Ghost> ghosts;
    private final Map<String, TableRule> rules;
    private final Set<String> movingTables;

    ShardMapView(long version, int shardCount, Map<String, int[]> assignments, Map<String, List<long[]>> ranges,
                 List<Ghost> ghosts, Map<String, TableRule> rules, Set<String> movingTables) {
        this.version = version;
        this.shardCount = shardCount;
        this.assignments = assignments;
        this.ranges = ranges;
        this.ghosts = ghosts;
        this.rules = rules;
        this.movingTables = movingTables;
    }

    /**
     * Reads the map file over the layout's configured ranges and rules; {@code copying} names the
     * tables moves of whole tables are copying now (a scale's move marks every table with "*").
     */
    public static ShardMapView read(Path file, ChaosLayout layout, Set<String> copying) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        Map<String, int[]> assignments = new HashMap<>();
        Map<String, List<long[]>> ranges = new HashMap<>(layout.configuredRanges());
        root.path("keyspaces").fields().forEachRemaining(e -> {
            JsonNode a = e.getValue().path("assignment");
            int[] shards = new int[a.size()];
            for (int i = 0; i < shards.length; i++) {
                shards[i] = a.get(i).asInt();
            }
            assignments.put(e.getKey(), shards);
            if (e.getValue().has("ranges")) {
                List<long[]> split = new ArrayList<>();
                for (JsonNode r : e.getValue().get("ranges")) {
                    split.add(new long[] {r.get(0).asLong(), r.get(1).asLong()});
                }
                ranges.put(e.getKey(), split);
            }
        });
        List<Ghost> ghosts = new ArrayList<>();
        for (JsonNode g : root.path("ghosts")) {
            ghosts.add(new Ghost(g.path("keyspace").asText(), g.path("keys").asText().startsWith("bucket:"),
                g.path("from").asLong(), g.path("to").asLong(), g.path("shard").asInt()));
        }
        Map<String, TableRule> rules = new HashMap<>(layout.configuredRules());
        for (JsonNode r : root.path("rules")) {
            String table = r.path("table").asText().toLowerCase(Locale.ROOT);
            rules.put(table, switch (r.path("rule").asText()) {
                case "sharded" -> new TableRule.Sharded(r.path("keyspace").asText(), r.path("column").asText());
                case "reference" -> new TableRule.Reference();
                case "unsharded" -> new TableRule.Unsharded(r.path("shard").asInt());
                default -> throw new IOException("table " + table + " has an unknown rule in " + file);
            });
        }
        Set<String> moving = new HashSet<>(copying);
        root.path("moving_tables").fieldNames().forEachRemaining(t -> {
            if (!t.equals("*")) {
                moving.add(bare(t));
            }
        });
        return new ShardMapView(root.path("version").asLong(), root.path("shard_count").asInt(), assignments, ranges,
            ghosts, rules, moving);
    }

    /** A table name without its database, lower case: rules name tables, not databases. */
    static String bare(String table) {
        String t = table.toLowerCase(Locale.ROOT);
        return t.substring(t.lastIndexOf('.') + 1);
    }

    public long version() {
        return version;
    }

    public int shardCount() {
        return shardCount;
    }

    public TableRule rule(String table) {
        return rules.getOrDefault(bare(table), new TableRule.Unsharded(0));
    }

    /** Whether a move of whole tables copies this one now (its rows may sit on its targets). */
    public boolean copying(String table) {
        return movingTables.contains(bare(table));
    }

    /** The shard owning {@code key} of {@code keyspace}; -1 when no range covers it. */
    public int owner(String keyspace, long key) {
        int[] assignment = assignments.get(keyspace);
        if (assignment == null) {
            throw new IllegalStateException("the shard map has no keyspace " + keyspace);
        }
        int bucket = bucket(keyspace, key, assignment.length);
        return bucket < 0 ? -1 : assignment[bucket];
    }

    /** Whether a row of {@code key} on {@code shard} is a move's ghost there. */
    public boolean ghost(String keyspace, long key, int shard) {
        for (Ghost g : ghosts) {
            if (g.shard() == shard && g.keyspace().equals(keyspace)) {
                long k = g.buckets() ? HashBuckets.bucketOf(key, assignments.get(keyspace).length) : key;
                if (k >= g.from() && k <= g.to()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The bucket of a key: its range's position in a range keyspace, its hash bucket otherwise. */
    private int bucket(String keyspace, long key, int buckets) {
        List<long[]> r = ranges.get(keyspace);
        if (r == null) {
            return HashBuckets.bucketOf(key, buckets);
        }
        for (int i = 0; i < r.size(); i++) {
            if (key >= r.get(i)[0] && key <= r.get(i)[1]) {
                return i;
            }
        }
        return -1;
    }

    /** A range keyspace's ranges with the shard owning each: [from, to, shard]; empty for a hash keyspace. */
    public List<long[]> rangesWithOwners(String keyspace) {
        List<long[]> out = new ArrayList<>();
        List<long[]> r = ranges.get(keyspace);
        int[] assignment = assignments.get(keyspace);
        if (r != null && assignment != null) {
            for (int i = 0; i < r.size(); i++) {
                out.add(new long[] {r.get(i)[0], r.get(i)[1], assignment[i]});
            }
        }
        return out;
    }

    /** A hash keyspace's bucket -> shard array (a copy). */
    public int[] buckets(String keyspace) {
        return assignments.get(keyspace).clone();
    }

    /** Where a row of a table found on a shard stands. */
    public enum Where {
        /** On the shard its rule puts it (for a reference table: every shard). */
        OWNER,
        /** Elsewhere, as a move's copy or leftover that statements leave out. */
        GHOST,
        /** Elsewhere, with no move to explain it. */
        MISPLACED
    }

    /** Where a row with sharding key {@code key} (ignored for unsharded and reference tables) found on {@code shard} stands. */
    public Where where(String table, long key, int shard) {
        TableRule rule = rule(table);
        boolean home = rule instanceof TableRule.Sharded s ? owner(s.keyspace(), key) == shard
            : !(rule instanceof TableRule.Unsharded u) || u.shard() == shard;
        if (home) {
            return Where.OWNER;
        }
        if (copying(table) || rule instanceof TableRule.Sharded s && ghost(s.keyspace(), key, shard)) {
            return Where.GHOST;
        }
        return Where.MISPLACED;
    }

    /** Whether any keyspace has ghosts now (a move of keys is under way or cleaning up). */
    public boolean hasGhosts() {
        return !ghosts.isEmpty();
    }
}
