package io.cleave.router.topology;

import io.cleave.router.keyspace.Keyspace;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The static part of the routing model: shard count, keyspaces, table rules and the stored
 * procedures declared to take a key. Tables that no rule names are unsharded on {@code defaultShard}.
 * Table and routine names compare case-insensitively, as they do in MySQL on
 * lower_case_table_names=1 and in practice for applications.
 */
public record Topology(int shardCount, Map<String, Keyspace> keyspaces, Map<String, TableRule> tables,
                       int defaultShard, Map<String, RoutineRule> routines) {

    public Topology(int shardCount, Map<String, Keyspace> keyspaces, Map<String, TableRule> tables, int defaultShard) {
        this(shardCount, keyspaces, tables, defaultShard, Map.of());
    }

    public Topology {
        if (shardCount < 1) {
            throw new IllegalArgumentException("shard count must be at least 1, was " + shardCount);
        }
        if (defaultShard < 0 || defaultShard >= shardCount) {
            throw new IllegalArgumentException(
                    "default shard " + defaultShard + " is not one of 0.." + (shardCount - 1));
        }
        keyspaces = Map.copyOf(keyspaces);
        Map<String, TableRule> byLowerName = new TreeMap<>();
        for (Map.Entry<String, TableRule> e : tables.entrySet()) {
            TableRule rule = e.getValue();
            if (rule instanceof TableRule.Sharded s && !keyspaces.containsKey(s.keyspace())) {
                throw new IllegalArgumentException(
                        "table " + s.table() + " names keyspace " + s.keyspace() + ", which is not defined");
            }
            if (rule instanceof TableRule.Unsharded u && (u.homeShard() < 0 || u.homeShard() >= shardCount)) {
                throw new IllegalArgumentException(
                        "table " + u.table() + " has home shard " + u.homeShard() + ", not one of 0.." + (shardCount - 1));
            }
            byLowerName.put(e.getKey().toLowerCase(Locale.ROOT), rule);
        }
        tables = Map.copyOf(byLowerName);
        Map<String, RoutineRule> routinesByLowerName = new TreeMap<>();
        for (RoutineRule r : routines.values()) {
            if (!keyspaces.containsKey(r.keyspace())) {
                throw new IllegalArgumentException(
                        "routine " + r.routine() + " names keyspace " + r.keyspace() + ", which is not defined");
            }
            routinesByLowerName.put(r.routine().toLowerCase(Locale.ROOT), r);
        }
        routines = Map.copyOf(routinesByLowerName);
    }

    /** The key a stored procedure is declared to take, or null. */
    public RoutineRule routineRule(String routine) {
        return routines.get(routine.toLowerCase(Locale.ROOT));
    }

    /** Every table on one shard: what a single-shard config means. */
    public static Topology singleShard() {
        return new Topology(1, Map.of(), Map.of(), 0);
    }

    public TableRule ruleFor(String table) {
        TableRule rule = tables.get(table.toLowerCase(Locale.ROOT));
        return rule != null ? rule : new TableRule.Unsharded(table, defaultShard);
    }

    public Keyspace keyspace(String name) {
        Keyspace keyspace = keyspaces.get(name);
        if (keyspace == null) {
            throw new IllegalArgumentException("no keyspace named " + name);
        }
        return keyspace;
    }
}
