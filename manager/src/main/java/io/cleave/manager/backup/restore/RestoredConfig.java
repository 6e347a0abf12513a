package io.cleave.manager.backup.restore;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The config a restored home runs: the backed-up home's, with the restored shard count, its datadirs
 * and logs inside the new home (never in the directories of the home it came from, which may still
 * run), and the listen ports it had; binlog archiving off (it archived into the backed-up home's
 * location). While rows are loaded the new home's shards run on free ports
 * with no proxy ({@link #forLoading}), so a restore can run beside the home it came from.
 */
final class RestoredConfig {

    private RestoredConfig() {
    }

    /** The restored home's config, {@code shards} shards; refused when a table rule or range names a shard past them. */
    static String of(String backedUp, int shards, boolean samePair) {
        Map<String, Object> root = load(backedUp);
        if (!samePair) {
            // Another database: taking part in the pair of the home it came from would let it claim that
            // pair's primary in etcd.
            root.remove("coordination");
        }
        root.put("shards", shards);
        root.put("datadir_roots", new ArrayList<>());
        root.put("log_dir", null);
        // The restored home is another database: archiving its binlogs into the location (and the
        // cut ids) of the home it came from would mix two histories. Archiving is turned on again
        // by hand, to a location of its own.
        Map<String, Object> backup = mapping(root, "backup");
        if (Boolean.TRUE.equals(backup.get("archive_binlogs"))) {
            backup.put("archive_binlogs", false);
        }
        Map<String, Object> sharding = mapping(root, "sharding");
        Object defaultShard = sharding.get("default_shard");
        if (defaultShard instanceof Number n && n.intValue() >= shards) {
            throw new IllegalArgumentException("sharding.default_shard is " + n + ": restore into at least " + (n.intValue() + 1)
                    + " shards, or change it in the backed-up config first");
        }
        for (Object t : list(sharding, "tables")) {
            if (t instanceof Map<?, ?> table && table.get("shard") instanceof Number n && n.intValue() >= shards) {
                throw new IllegalArgumentException("the config puts table " + table.get("name") + " on shard " + n
                        + ": restore into at least " + (n.intValue() + 1) + " shards");
            }
        }
        for (Object k : list(sharding, "keyspaces")) {
            if (k instanceof Map<?, ?> keyspace) {
                for (Object r : keyspace.get("ranges") instanceof List<?> l ? l : List.of()) {
                    if (r instanceof Map<?, ?> range && range.get("shard") instanceof Number n) {
                        // The restored shard map, not the config, places the ranges; keep the config valid.
                        @SuppressWarnings("unchecked")
                        Map<String, Object> m = (Map<String, Object>) range;
                        m.put("shard", n.intValue() % shards);
                    }
                }
                if (keyspace.containsKey("assignment")) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = (Map<String, Object>) keyspace;
                    m.remove("assignment");
                }
            }
        }
        return dump(root);
    }

    /**
     * {@code restored} with shards on {@code basePort}.. of loopback, the admin API on any free port of loopback and
     * the proxy's own addresses unused.
     */
    static String forLoading(String restored, int basePort) {
        Map<String, Object> root = load(restored);
        // The loading daemon serves nothing and claims nothing: no part in any pair, no address but loopback (the
        // backup's config may name another host's).
        root.remove("coordination");
        Map<String, Object> server = mapping(root, "server");
        server.put("base_port", basePort);
        server.remove("bind_address");
        server.remove("advertise_host");
        Map<String, Object> admin = mapping(root, "admin");
        admin.remove("listen");
        admin.put("port", 0);
        return dump(root);
    }

    private static Map<String, Object> load(String text) {
        Object o = new Yaml().load(text);
        @SuppressWarnings("unchecked")
        Map<String, Object> root = o instanceof Map<?, ?> ? (Map<String, Object>) o : new LinkedHashMap<>();
        return root;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapping(Map<String, Object> root, String key) {
        Object o = root.get(key);
        if (o instanceof Map<?, ?>) {
            return (Map<String, Object>) o;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        root.put(key, m);
        return m;
    }

    private static List<?> list(Map<String, Object> m, String key) {
        return m.get(key) instanceof List<?> l ? l : List.of();
    }

    private static String dump(Map<String, Object> root) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return "# Restored by 'cleave restore'; the home it came from had the same settings but for shards and datadirs.\n"
                + new Yaml(options).dump(root);
    }
}
