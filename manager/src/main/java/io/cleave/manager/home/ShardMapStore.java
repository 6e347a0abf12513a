package io.cleave.manager.home;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cleave.manager.config.ShardingConfig;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
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
 * The shard map persisted in {@code state/shard-map.json} (version + bucket assignments, split
 * ranges, ghosts). It is written at first start from the config and read back afterwards: once
 * data sits on shards, the file, not the config, says where each bucket lives. Every version is
 * written durably (fsynced, then renamed into place) before it is published.
 */
public final class ShardMapStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public ShardMapStore(Path file) {
        this.file = file;
    }

    /**
     * The persisted map, or version 1 built from the config (and persisted) when none exists.
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
        if (stored.shardCount() != topology.shardCount()) {
            problems.add("it was written for " + stored.shardCount() + " shards, the config has " + topology.shardCount());
        }
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
            JsonNode root = JSON.readTree(file.toFile());
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
            return new ShardMap(root.path("version").asLong(), root.path("shard_count").asInt(), assignments, split,
                    ghosts);
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new ShardMapMismatchException("cannot read the shard map " + file + ": " + e.getMessage());
        }
    }

    public void save(ShardMap map, Topology topology) {
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
        try {
            Files.createDirectories(file.getParent());
            DurableFiles.write(file, JSON.writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the shard map " + file + ": " + e.getMessage(), e);
        }
    }

    /** The persisted map and the config disagree, or the file is unreadable. */
    public static final class ShardMapMismatchException extends RuntimeException {
        public ShardMapMismatchException(String message) {
            super(message);
        }
    }
}
