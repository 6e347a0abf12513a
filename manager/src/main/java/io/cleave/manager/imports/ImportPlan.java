package io.cleave.manager.imports;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.RuleSpec;
import io.cleave.manager.unique.MovedKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What importing a database will do, and everything that stands in its way, found before anything
 * happens: each table with the rule its rows move by (the sharding rules: a table a rule shards,
 * a reference table, else its home shard), each view with where it can be answered, the routines
 * created on every shard, and the problems: the binlog, a table without a primary key, a unique key
 * leaving out the sharding column over a column prefix or that the rows break, foreign keys, triggers, another engine than InnoDB, a name the
 * shards use already, a view or routine over tables that will be spread over several shards.
 */
final class ImportPlan {

    private static final Pattern WORD = Pattern.compile("`((?:[^`]|``)+)`|([A-Za-z0-9_$]+)");

    final Map<String, RuleSpec> tables = new LinkedHashMap<>();
    final Map<String, RuleSpec> views = new LinkedHashMap<>();
    /** "PROCEDURE name" / "FUNCTION name". */
    final List<String> routines = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    /**
     * @param routing the rules the database's tables move by
     * @param local   a connection to each local shard (for names already in use)
     */
    static ImportPlan of(Connection source, String db, Topology routing, ShardMap map, List<Connection> local)
            throws SQLException {
        ImportPlan plan = new ImportPlan();
        String binlog = BinlogSettings.problem(source);
        if (binlog != null) {
            plan.problems.add(binlog);
        }
        Map<String, String> engines = new LinkedHashMap<>();
        Map<String, String> viewDefinitions = new LinkedHashMap<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT t.TABLE_NAME, t.TABLE_TYPE, t.ENGINE, v.VIEW_DEFINITION"
                + " FROM information_schema.TABLES t LEFT JOIN information_schema.VIEWS v ON v.TABLE_SCHEMA = t.TABLE_SCHEMA"
                + " AND v.TABLE_NAME = t.TABLE_NAME WHERE t.TABLE_SCHEMA = ? ORDER BY t.TABLE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(2).equals("VIEW")) {
                        viewDefinitions.put(rs.getString(1), rs.getString(4) == null ? "" : rs.getString(4));
                    } else {
                        engines.put(rs.getString(1), rs.getString(3));
                    }
                }
            }
        }
        if (engines.isEmpty()) {
            plan.problems.add("database " + db + " has no tables on the source (or the account cannot see them)");
        }
        for (Map.Entry<String, String> t : engines.entrySet()) {
            plan.table(source, db, t.getKey(), t.getValue(), routing, map.shardCount());
        }
        for (Map.Entry<String, String> v : viewDefinitions.entrySet()) {
            plan.view(v.getKey(), v.getValue(), routing);
        }
        plan.routines(source, db);
        plan.triggersAndForeignKeys(source, db);
        plan.namesInUse(db, local);
        if (!map.attached().isEmpty()) {
            plan.problems.add(map.attached().get(0).label() + " is attached for an import already: one import at a time");
        }
        return plan;
    }

    /**
     * Unique keys without the sharding column become global unique keys, their lookups filled at the
     * import's cutover: a problem when one cannot be (a column prefix) or the rows already break it.
     */
    private void globalKeys(Connection source, String db, String table, String column, int shards) throws SQLException {
        try {
            for (MovedKey key : MovedKey.of(source, db, table, column, shards)) {
                List<String> duplicates = key.duplicates(source, 10);
                if (!duplicates.isEmpty()) {
                    problems.add(key.duplicatesRefusal(duplicates));
                }
            }
        } catch (MovedKey.Unsupported e) {
            problems.add(e.getMessage());
        }
    }

    private void table(Connection source, String db, String table, String engine, Topology routing, int shards)
            throws SQLException {
        String name = db + "." + table;
        if (engine == null || !engine.equalsIgnoreCase("InnoDB")) {
            problems.add("table " + name + " uses " + engine + ", not InnoDB: its rows cannot be read in a consistent"
                    + " snapshot while they change; convert it (ALTER TABLE " + table + " ENGINE = InnoDB)");
        }
        Map<String, List<String>> unique = Catalog.uniqueKeys(source, db, table);
        if (!unique.containsKey("PRIMARY")) {
            problems.add("table " + name + " has no primary key: its rows are copied, checked and kept apart by it; add one");
        }
        TableRule rule = routing.ruleFor(table);
        if (rule instanceof TableRule.Sharded s) {
            String column = Catalog.column(Catalog.columns(source, db, table), s.column());
            if (column == null) {
                problems.add("table " + name + " is sharded on " + s.keyspace() + " by column " + s.column()
                        + " (the sharding rules say so), but it has no such column");
            } else {
                globalKeys(source, db, table, column, shards);
                rule = new TableRule.Sharded(table, s.keyspace(), column);
            }
        }
        tables.put(table, RuleSpec.of(rule));
    }

    /** A view can be answered where all its tables live: one home, or any shard when they are all reference tables. */
    private void view(String view, String definition, Topology routing) {
        List<String> named = new ArrayList<>();
        for (String word : words(definition)) {
            if (tables.containsKey(word) || tables.keySet().stream().anyMatch(t -> t.equalsIgnoreCase(word))) {
                named.add(word);
            }
        }
        Integer home = null;
        boolean reference = !named.isEmpty();
        for (String t : named) {
            TableRule rule = ruleOf(t);
            if (rule instanceof TableRule.Sharded) {
                problems.add("view " + view + " reads " + t + ", which will be sharded: a view is answered by one shard;"
                        + " drop it, or query the table itself (the proxy answers across shards)");
                return;
            }
            if (rule instanceof TableRule.Unsharded u) {
                reference = false;
                if (home != null && home != u.homeShard()) {
                    problems.add("view " + view + " reads tables that will live on shards " + home + " and "
                            + u.homeShard() + ": give them one home first");
                    return;
                }
                home = u.homeShard();
            }
        }
        TableRule rule = reference ? new TableRule.Reference(view)
                : new TableRule.Unsharded(view, home != null ? home : routing.defaultShard());
        views.put(view, RuleSpec.of(rule));
    }

    private TableRule ruleOf(String table) {
        for (Map.Entry<String, RuleSpec> e : tables.entrySet()) {
            if (e.getKey().equalsIgnoreCase(table)) {
                return e.getValue().toRule(e.getKey());
            }
        }
        throw new IllegalArgumentException(table);
    }

    private void routines(Connection source, String db) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT ROUTINE_TYPE, ROUTINE_NAME, ROUTINE_DEFINITION FROM"
                + " information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY ROUTINE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1) + " " + rs.getString(2);
                    for (String word : words(rs.getString(3) == null ? "" : rs.getString(3))) {
                        for (Map.Entry<String, RuleSpec> t : tables.entrySet()) {
                            if (t.getKey().equalsIgnoreCase(word) && !t.getValue().rule.equals("unsharded")) {
                                problems.add(name.toLowerCase(Locale.ROOT) + " uses table " + t.getKey() + ", which will"
                                        + " be " + t.getValue() + ": a routine runs on one shard and would see part of it");
                            }
                        }
                    }
                    routines.add(name);
                }
            }
        }
    }

    private void triggersAndForeignKeys(Connection source, String db) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE FROM"
                + " information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    problems.add("table " + db + "." + rs.getString(2) + " has trigger " + rs.getString(1) + ": triggers"
                            + " would fire again on the shards as rows are copied; drop it before importing");
                }
            }
        }
        try (PreparedStatement ps = source.prepareStatement("SELECT CONSTRAINT_NAME, TABLE_NAME, REFERENCED_TABLE_NAME FROM"
                + " information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    problems.add("table " + db + "." + rs.getString(2) + " has foreign key " + rs.getString(1) + " to "
                            + rs.getString(3) + ": a shard checks it against its own rows only; drop it before importing");
                }
            }
        }
    }

    /** Sharding rules name tables, not databases: a name the shards use elsewhere would change routing there too. */
    private void namesInUse(String db, List<Connection> local) throws SQLException {
        List<String> names = new ArrayList<>(tables.keySet());
        names.addAll(views.keySet());
        for (int shard = 0; shard < local.size(); shard++) {
            for (String name : names) {
                try (PreparedStatement ps = local.get(shard).prepareStatement("SELECT TABLE_SCHEMA, TABLE_ROWS FROM"
                        + " information_schema.TABLES WHERE LOWER(TABLE_NAME) = LOWER(?) AND TABLE_SCHEMA NOT IN"
                        + " ('mysql', 'sys', 'performance_schema', 'information_schema', 'cleave')")) {
                    ps.setString(1, name);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (!rs.getString(1).equals(db)) {
                                problems.add("a table named " + name + " exists in database " + rs.getString(1) + " on shard "
                                        + shard + ": sharding rules apply to a table name in every database; rename one");
                            }
                        }
                    }
                }
                if (tables.containsKey(name) && Catalog.find(local.get(shard), name).stream().anyMatch(f -> f[0].equals(db))
                        && Catalog.hasRows(local.get(shard), db, name)) {
                    problems.add("table " + db + "." + name + " already holds rows on shard " + shard + ": empty or drop"
                            + " it there first");
                }
            }
        }
    }

    /** Identifiers in SQL text (quoted or bare), for finding the tables a view or routine names. */
    private static List<String> words(String sql) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(sql);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1).replace("``", "`") : m.group(2));
        }
        return out;
    }
}
