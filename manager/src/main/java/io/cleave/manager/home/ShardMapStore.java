package io.cleave.manager.home;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cleave.manager.config.ShardingConfig;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.shardmap.AttachedShard;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The shard map persisted in {@code state/shard-map.json} (version, shard count, bucket
 * assignments, split ranges, ghosts, table rules set at run time, attached servers, tables being
 * copied, databases refused by name). It is written at first start from the config and read back afterwards: once data sits
 * on shards, the file, not the config, says how many shards there are, where each bucket lives and
 * how the tables it names are sharded. Every version is written durably (fsynced, then renamed
 * into place) before it is published.
 */
public final class ShardMapStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public ShardMapStore(Path file) {
        this.file = file;
    }

    /**
     * The persisted map, or version 1 built from the config (and persisted) when none exists. A
     * shard count other than the config's is no mismatch: {@code cleave scale} changed it, and the
     * config's count was the initial one.
     *
     * @throws ShardMapMismatchException when the persisted map no longer fits the config
     */
    public ShardMap loadOrCreate(ShardingConfig sharding, Path configFile) {
        Topology topology = sharding.topology();
        if (!Files.exists(file)) {
            ShardMap initial = ShardMap.initial(topology, sharding.explicitAssignments());
            save(initial, topology);
            return initial;
        }
        ShardMap stored = read();
        List<String> problems = new ArrayList<>();
        TreeSet<String> configured = new TreeSet<>(topology.keyspaces().keySet());
        TreeSet<String> persisted = new TreeSet<>(stored.keyspaces());
        if (!configured.equals(persisted)) {
            problems.add("it holds keyspaces " + persisted + ", the config defines " + configured);
        }
        for (Keyspace keyspace : topology.keyspaces().values()) {
            // Once a move split a range keyspace's ranges, the map holds them: the config's count no longer applies.
            if (persisted.contains(keyspace.name()) && !stored.splitRanges().containsKey(keyspace.name())) {
                int buckets = stored.buckets(keyspace.name()).length;
                if (buckets != keyspace.function().bucketCount()) {
                    problems.add("keyspace " + keyspace.name() + " has " + buckets + " buckets there, the config gives "
                            + keyspace.function().bucketCount());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ShardMapMismatchException("the shard map " + file + " (version " + stored.version()
                    + ") no longer matches " + configFile + ": " + String.join("; ", problems)
                    + ". Restore the config that created it, or, if no data lives on the shards yet, delete the file to start over");
        }
        return stored;
    }

    /**
     * Reads the file. A keyspace may carry {@code "ranges"} (its split ranges, in bucket order) and
     * the map {@code "ghosts"}; files written before moves existed have neither and load as they are.
     */
    public ShardMap read() {
        try {
            return parse(Files.readAllBytes(file));
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new ShardMapMismatchException("cannot read the shard map " + file + ": " + e.getMessage());
        }
    }

    /** A map from the JSON {@link #render} writes (a backup keeps it so). */
    public static ShardMap parse(byte[] json) throws IOException {
        JsonNode root = JSON.readTree(json);
        Map<String, int[]> assignments = new LinkedHashMap<>();
        Map<String, RangeShardFunction> split = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = root.path("keyspaces").fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            JsonNode array = e.getValue().path("assignment");
            int[] shards = new int[array.size()];
            for (int i = 0; i < shards.length; i++) {
                shards[i] = array.get(i).asInt();
            }
            assignments.put(e.getKey(), shards);
            JsonNode ranges = e.getValue().get("ranges");
            if (ranges != null && ranges.isArray()) {
                List<KeyRange> list = new ArrayList<>();
                for (JsonNode r : ranges) {
                    list.add(new KeyRange(r.get(0).asLong(), r.get(1).asLong()));
                }
                split.put(e.getKey(), new RangeShardFunction(list));
            }
        }
        List<Ghost> ghosts = new ArrayList<>();
        for (JsonNode g : root.path("ghosts")) {
            String keys = g.path("keys").asText();
            KeySet set = keys.startsWith("bucket:")
                    ? new KeySet.Buckets(g.path("from").asInt(), g.path("to").asInt())
                    : new KeySet.Keys(g.path("from").asLong(), g.path("to").asLong());
            ghosts.add(new Ghost(g.path("keyspace").asText(), set, g.path("shard").asInt(), g.path("move").asLong()));
        }
        Map<String, TableRule> rules = new LinkedHashMap<>();
        for (JsonNode r : root.path("rules")) {
            TableRule rule = rule(r);
            rules.put(rule.table(), rule);
        }
        List<AttachedShard> attached = new ArrayList<>();
        for (JsonNode a : root.path("attached")) {
            attached.add(new AttachedShard(a.path("index").asInt(), a.path("label").asText()));
        }
        Map<String, Long> moving = new LinkedHashMap<>();
        root.path("moving_tables").fields().forEachRemaining(e -> moving.put(e.getKey(), e.getValue().asLong()));
        Map<String, String> refused = new LinkedHashMap<>();
        root.path("refused_databases").fields().forEachRemaining(e -> refused.put(e.getKey(), e.getValue().asText()));
        return new ShardMap(root.path("version").asLong(), root.path("shard_count").asInt(), assignments, split,
                ghosts, rules, attached, moving, refused);
    }

    /** The shard count the state holds, when a map was written. */
    public java.util.OptionalInt storedShardCount() {
        return Files.exists(file) ? java.util.OptionalInt.of(read().shardCount()) : java.util.OptionalInt.empty();
    }

    private static TableRule rule(JsonNode r) {
        String table = r.path("table").asText();
        return switch (r.path("rule").asText()) {
            case "sharded" -> new TableRule.Sharded(table, r.path("keyspace").asText(), r.path("column").asText());
            case "reference" -> new TableRule.Reference(table);
            case "unsharded" -> new TableRule.Unsharded(table, r.path("shard").asInt());
            default -> throw new IllegalArgumentException("table " + table + " has an unknown rule " + r.path("rule"));
        };
    }

    private static void rule(ObjectNode node, TableRule rule) {
        node.put("table", rule.table());
        if (rule instanceof TableRule.Sharded s) {
            node.put("rule", "sharded").put("keyspace", s.keyspace()).put("column", s.column());
        } else if (rule instanceof TableRule.Reference) {
            node.put("rule", "reference");
        } else {
            node.put("rule", "unsharded").put("shard", ((TableRule.Unsharded) rule).homeShard());
        }
    }

    public void save(ShardMap map, Topology topology) {
        try {
            Files.createDirectories(file.getParent());
            DurableFiles.write(file, render(map, topology));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the shard map " + file + ": " + e.getMessage(), e);
        }
    }

    /** The JSON the file holds for {@code map}. */
    public static byte[] render(ShardMap map, Topology topology) {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", map.version());
        root.put("shard_count", map.shardCount());
        ObjectNode keyspaces = root.putObject("keyspaces");
        for (String name : new TreeSet<>(map.keyspaces())) {
            ObjectNode ks = keyspaces.putObject(name);
            Keyspace keyspace = topology.keyspaces().get(name);
            if (keyspace != null) {
                ks.put("function", keyspace.function().kind());
            }
            int[] buckets = map.buckets(name);
            ks.put("buckets", buckets.length);
            ArrayNode assignment = ks.putArray("assignment");
            for (int shard : buckets) {
                assignment.add(shard);
            }
            RangeShardFunction split = map.splitRanges().get(name);
            if (split != null) {
                ArrayNode ranges = ks.putArray("ranges");
                for (KeyRange r : split.ranges()) {
                    ranges.addArray().add(r.from()).add(r.to());
                }
            }
        }
        if (!map.ghosts().isEmpty()) {
            ArrayNode ghosts = root.putArray("ghosts");
            for (Ghost g : map.ghosts()) {
                ObjectNode node = ghosts.addObject();
                node.put("keyspace", g.keyspace());
                node.put("keys", g.keys().toString());
                if (g.keys() instanceof KeySet.Buckets b) {
                    node.put("from", b.from()).put("to", b.to());
                } else {
                    KeySet.Keys k = (KeySet.Keys) g.keys();
                    node.put("from", k.from()).put("to", k.to());
                }
                node.put("shard", g.shard());
                node.put("move", g.moveId());
            }
        }
        if (!map.rules().isEmpty()) {
            ArrayNode rules = root.putArray("rules");
            for (TableRule r : new java.util.TreeMap<>(map.rules()).values()) {
                rule(rules.addObject(), r);
            }
        }
        if (!map.attached().isEmpty()) {
            ArrayNode attached = root.putArray("attached");
            for (AttachedShard a : map.attached()) {
                attached.addObject().put("index", a.index()).put("label", a.label());
            }
        }
        if (!map.movingTables().isEmpty()) {
            ObjectNode moving = root.putObject("moving_tables");
            new java.util.TreeMap<>(map.movingTables()).forEach(moving::put);
        }
        if (!map.refusedDatabases().isEmpty()) {
            ObjectNode refused = root.putObject("refused_databases");
            new java.util.TreeMap<>(map.refusedDatabases()).forEach(refused::put);
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The persisted map and the config disagree, or the file is unreadable. */
    public static final class ShardMapMismatchException extends RuntimeException {
        public ShardMapMismatchException(String message) {
            super(message);
        }
    }
}
