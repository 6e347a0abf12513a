package io.cleave.manager.config;

import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardFunctionRegistry;
import io.cleave.router.topology.RoutineRule;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.yaml.snakeyaml.nodes.Node;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The {@code sharding:} section: keyspaces and table rules, mapped onto the router's types. */
final class ShardingLoader {

    private static final List<String> TABLE_TYPES = List.of("sharded", "reference", "unsharded");

    private final YamlMapping section;
    private final Problems problems;
    private final int shards;
    private final ShardFunctionRegistry registry = ShardFunctionRegistry.standard();

    ShardingLoader(YamlMapping section, int shards) {
        this.section = section;
        this.problems = section.problems();
        this.shards = shards;
    }

    ShardingConfig load() {
        int defaultShard = section.integer("default_shard", 0, 0, Integer.MAX_VALUE);
        if (defaultShard >= shards) {
            problems.add(section.lineOf("default_shard"), section.field("default_shard"),
                    "shard " + defaultShard + " does not exist: expected one of 0.." + (shards - 1));
            defaultShard = 0;
        }
        Map<String, Keyspace> keyspaces = new LinkedHashMap<>();
        Map<String, int[]> explicit = new LinkedHashMap<>();
        List<Node> keyspaceNodes = section.list("keyspaces");
        for (int i = 0; i < keyspaceNodes.size(); i++) {
            keyspace(new YamlMapping(keyspaceNodes.get(i), section.field("keyspaces") + "[" + i + "]", problems),
                    keyspaces, explicit);
        }
        Map<String, TableRule> tables = new LinkedHashMap<>();
        List<Node> tableNodes = section.list("tables");
        for (int i = 0; i < tableNodes.size(); i++) {
            table(new YamlMapping(tableNodes.get(i), section.field("tables") + "[" + i + "]", problems),
                    keyspaces, defaultShard, tables);
        }
        Map<String, RoutineRule> routines = new LinkedHashMap<>();
        List<Node> routineNodes = section.list("routines");
        for (int i = 0; i < routineNodes.size(); i++) {
            routine(new YamlMapping(routineNodes.get(i), section.field("routines") + "[" + i + "]", problems),
                    keyspaces, routines);
        }
        section.rejectUnknownKeys();
        if (!problems.isEmpty()) {
            return new ShardingConfig(new Topology(shards, Map.of(), Map.of(), 0), Map.of());
        }
        return new ShardingConfig(new Topology(shards, keyspaces, tables, defaultShard, routines), explicit);
    }

    /** {@code - { name: new_order, keyspace: warehouse, parameter: w_id }}: a procedure that works on one key's rows. */
    private void routine(YamlMapping r, Map<String, Keyspace> keyspaces, Map<String, RoutineRule> routines) {
        Optional<String> name = r.string("name");
        Optional<String> keyspace = r.string("keyspace");
        Optional<String> parameter = r.string("parameter");
        r.rejectUnknownKeys();
        if (name.isEmpty() || keyspace.isEmpty() || parameter.isEmpty()) {
            String missing = name.isEmpty() ? "name" : keyspace.isEmpty() ? "keyspace" : "parameter";
            problems.add(r.line(), r.field(missing), "missing: a routine rule names the procedure, its keyspace and the"
                    + " parameter that holds the key");
        } else if (routines.containsKey(name.get().toLowerCase(Locale.ROOT))) {
            problems.add(r.lineOf("name"), r.field("name"), "routine '" + name.get() + "' has two rules");
        } else if (!keyspaces.containsKey(keyspace.get())) {
            problems.add(r.lineOf("keyspace"), r.field("keyspace"), "keyspace '" + keyspace.get()
                    + "' is not defined: expected one of " + (keyspaces.isEmpty() ? "(no keyspaces defined)"
                    : String.join(", ", keyspaces.keySet())));
        } else {
            routines.put(name.get().toLowerCase(Locale.ROOT), new RoutineRule(name.get(), keyspace.get(), parameter.get()));
        }
    }

    private void keyspace(YamlMapping ks, Map<String, Keyspace> keyspaces, Map<String, int[]> explicit) {
        Optional<String> name = ks.string("name");
        Optional<String> kind = ks.string("function");
        if (name.isEmpty()) {
            problems.add(ks.line(), ks.field("name"), "missing: every keyspace needs a name");
        } else if (keyspaces.containsKey(name.get())) {
            problems.add(ks.lineOf("name"), ks.field("name"), "keyspace '" + name.get() + "' is defined twice");
        }
        if (kind.isEmpty() || !registry.knows(kind.get())) {
            problems.add(ks.lineOf("function"), ks.field("function"), (kind.isEmpty() ? "missing" : "'" + kind.get() + "' is unknown")
                    + ": expected one of " + String.join(", ", registry.kinds()));
            ks.rejectUnknownKeys();
            return;
        }
        Optional<String> keyType = ks.string("key_type");
        if (keyType.isPresent() && Arrays.stream(KeyType.values()).noneMatch(t -> t.name().equalsIgnoreCase(keyType.get()))) {
            problems.add(ks.lineOf("key_type"), ks.field("key_type"), "'" + keyType.get() + "' is unknown: expected integer or string");
            return;
        }
        int before = problems.size();
        Parameters parameters = new Parameters(ks);
        ShardFunction function;
        try {
            function = registry.create(kind.get(), parameters);
        } catch (IllegalArgumentException e) {
            if (problems.size() == before) {
                problems.add(ks.line(), ks.field("function"), e.getMessage());
            }
            ks.rejectUnknownKeys();
            return;
        }
        ks.rejectUnknownKeys();
        if (name.isPresent() && problems.size() == before) {
            keyspaces.put(name.get(), new Keyspace(name.get(), function));
            if (parameters.assignment != null) {
                explicit.put(name.get(), parameters.assignment);
            }
        }
    }

    private void table(YamlMapping t, Map<String, Keyspace> keyspaces, int defaultShard, Map<String, TableRule> tables) {
        Optional<String> name = t.string("name");
        Optional<String> type = t.string("type");
        Optional<String> keyspace = t.string("keyspace");
        Optional<String> column = t.string("column");
        Optional<Long> shard = t.longValue("shard");
        t.rejectUnknownKeys();
        if (name.isEmpty()) {
            problems.add(t.line(), t.field("name"), "missing: every table rule needs a name");
            return;
        }
        if (tables.containsKey(name.get().toLowerCase(Locale.ROOT))) {
            problems.add(t.lineOf("name"), t.field("name"), "table '" + name.get() + "' has two rules");
            return;
        }
        String kind = type.orElse(keyspace.isPresent() || column.isPresent() ? "sharded" : "");
        if (!TABLE_TYPES.contains(kind)) {
            problems.add(t.lineOf(type.isPresent() ? "type" : "name"), t.field("type"), (type.isPresent() ? "'" + kind + "' is unknown" : "missing")
                    + ": expected one of " + String.join(", ", TABLE_TYPES) + " (sharded needs keyspace and column)");
            return;
        }
        switch (kind) {
            case "sharded" -> {
                if (keyspace.isEmpty() || column.isEmpty()) {
                    problems.add(t.line(), t.field(keyspace.isEmpty() ? "keyspace" : "column"),
                            "missing: a sharded table needs both keyspace and column");
                } else if (!keyspaces.containsKey(keyspace.get())) {
                    problems.add(t.lineOf("keyspace"), t.field("keyspace"), "keyspace '" + keyspace.get()
                            + "' is not defined: expected one of " + (keyspaces.isEmpty() ? "(no keyspaces defined)" : String.join(", ", keyspaces.keySet())));
                } else {
                    tables.put(name.get().toLowerCase(Locale.ROOT), new TableRule.Sharded(name.get(), keyspace.get(), column.get()));
                }
                rejectFor(t, shard.isPresent(), "shard", "sharded");
            }
            case "reference" -> {
                rejectFor(t, keyspace.isPresent() || column.isPresent(), keyspace.isPresent() ? "keyspace" : "column", "reference");
                rejectFor(t, shard.isPresent(), "shard", "reference");
                tables.put(name.get().toLowerCase(Locale.ROOT), new TableRule.Reference(name.get()));
            }
            default -> {
                rejectFor(t, keyspace.isPresent() || column.isPresent(), keyspace.isPresent() ? "keyspace" : "column", "unsharded");
                long home = shard.orElse((long) defaultShard);
                if (home < 0 || home >= shards) {
                    problems.add(t.lineOf("shard"), t.field("shard"), "shard " + home + " does not exist: expected one of 0.." + (shards - 1));
                } else {
                    tables.put(name.get().toLowerCase(Locale.ROOT), new TableRule.Unsharded(name.get(), (int) home));
                }
            }
        }
    }

    private void rejectFor(YamlMapping t, boolean present, String key, String kind) {
        if (present) {
            problems.add(t.lineOf(key), t.field(key), "does not apply to a " + kind + " table");
        }
    }

    /** A keyspace's function parameters, read from its YAML mapping so errors keep their line. */
    private final class Parameters implements ShardFunctionRegistry.FunctionParameters {

        private final YamlMapping ks;
        private int[] assignment;

        Parameters(YamlMapping ks) {
            this.ks = ks;
        }

        @Override
        public int intValue(String name, int defaultValue) {
            return ks.integer(name, defaultValue, 1, 1 << 20);
        }

        @Override
        public String stringValue(String name, String defaultValue) {
            return ks.string(name, defaultValue);
        }

        @Override
        public List<KeyRange> ranges(String name) {
            List<Node> items = ks.list(name);
            if (items.isEmpty()) {
                problems.add(ks.lineOf(name), ks.field(name), "missing: a range keyspace needs at least one range, e.g. - {from: 1, to: 25, shard: 0}");
                throw new IllegalArgumentException("no ranges");
            }
            List<KeyRange> ranges = new ArrayList<>();
            List<Integer> lines = new ArrayList<>();
            int[] shardOf = new int[items.size()];
            int withShard = 0;
            for (int i = 0; i < items.size(); i++) {
                YamlMapping r = new YamlMapping(items.get(i), ks.field(name) + "[" + i + "]", problems);
                Optional<Long> from = r.longValue("from");
                Optional<Long> to = r.longValue("to");
                Optional<Long> shard = r.longValue("shard");
                r.rejectUnknownKeys();
                if (from.isEmpty()) {
                    problems.add(r.line(), r.field("from"), "missing: every range needs its first key");
                    continue;
                }
                long end = to.orElse(Long.MAX_VALUE);
                if (end < from.get()) {
                    problems.add(r.lineOf("to"), r.field("to"), end + " is below from " + from.get() + ": expected to >= from (omit to for an open end)");
                    continue;
                }
                if (shard.isPresent()) {
                    withShard++;
                    if (shard.get() < 0 || shard.get() >= shards) {
                        problems.add(r.lineOf("shard"), r.field("shard"), "shard " + shard.get() + " does not exist: expected one of 0.." + (shards - 1));
                    } else {
                        shardOf[i] = shard.get().intValue();
                    }
                }
                KeyRange range = new KeyRange(from.get(), end);
                for (int j = 0; j < ranges.size(); j++) {
                    KeyRange other = ranges.get(j);
                    if (range.from() <= other.to() && other.from() <= range.to()) {
                        problems.add(r.line(), r.path(), "range " + range + " overlaps range " + other + " (line " + lines.get(j) + ")");
                    }
                }
                ranges.add(range);
                lines.add(r.line());
            }
            if (withShard != 0 && withShard != items.size()) {
                problems.add(ks.lineOf(name), ks.field(name), "either every range names its shard or none does (then they are spread evenly)");
            }
            if (ranges.size() != items.size()) {
                throw new IllegalArgumentException("invalid ranges");
            }
            if (withShard == items.size()) {
                assignment = shardOf;
            }
            return ranges;
        }
    }
}
