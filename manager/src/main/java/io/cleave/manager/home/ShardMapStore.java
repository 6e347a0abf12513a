package io.cleave.manager.home;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cleave.manager.config.ShardingConfig;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The shard map persisted in {@code state/shard-map.json} (version + bucket assignments). It is
 * written at first start from the config and read back afterwards: once data sits on shards, the
 * file, not the config, says where each bucket lives.
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
            if (persisted.contains(keyspace.name())) {
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

    public ShardMap read() {
        try {
            JsonNode root = JSON.readTree(file.toFile());
            Map<String, int[]> assignments = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = root.path("keyspaces").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                JsonNode array = e.getValue().path("assignment");
                int[] shards = new int[array.size()];
                for (int i = 0; i < shards.length; i++) {
                    shards[i] = array.get(i).asInt();
                }
                assignments.put(e.getKey(), shards);
            }
            return new ShardMap(root.path("version").asLong(), root.path("shard_count").asInt(), assignments);
        } catch (IOException | IllegalArgumentException e) {
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
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
