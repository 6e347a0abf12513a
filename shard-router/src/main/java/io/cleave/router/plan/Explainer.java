package io.cleave.router.plan;

import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.digest.SlotKind;
import io.cleave.router.sql.lex.SqlMode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;
import io.cleave.router.unique.UniqueKeysView;

/**
 * What the router does with one statement, told for people: its plan (as {@link PlanPrinter}
 * prints it) and the shards it reaches with the statement's own values under the current shard
 * map. Behind {@code cleave explain} and the proxy's {@code EXPLAIN CLEAVE <statement>}.
 */
public final class Explainer {

    /** The plan and the shards, each one line. */
    public record Explanation(String plan, String shards) {
    }

    private final Router router;
    private final TargetResolver resolver;

    public Explainer(Router router) {
        this.router = router;
        this.resolver = new TargetResolver(router.topology());
    }

    /** The routing model it explains by. */
    public io.cleave.router.topology.Topology topology() {
        return router.topology();
    }

    public Explanation explain(byte[] sql, SqlMode mode, ShardMap map) {
        return explain(sql, mode, map, UniqueKeysView.NONE, null);
    }

    /**
     * As {@link #explain(byte[], SqlMode, ShardMap)}, telling also where the table's global unique
     * keys ({@code keys}, in {@code schema} when the statement names none) send a lookup first.
     */
    public Explanation explain(byte[] sql, SqlMode mode, ShardMap map, UniqueKeysView keys, String schema) {
        Analysis analysis = router.analyze(sql, mode, new Analysis());
        String shards = shards(analysis, map);
        String lookups = lookups(analysis, keys, schema);
        return new Explanation(PlanPrinter.print(analysis), lookups == null ? shards : lookups + ": " + shards);
    }

    /** Which lookups of global unique keys the statement reads or writes first, or null. */
    private String lookups(Analysis analysis, UniqueKeysView keys, String schema) {
        Plan plan = analysis.plan() instanceof Plan.MultiStatement m ? m.plan() : analysis.plan();
        ParameterValues values = new LiteralParameters().bind(analysis, StandardCharsets.UTF_8)
                .forPlaceholders(PlanPrinter.UNBOUND);
        if (plan instanceof Plan.InsertSplit split) {
            List<UniqueIndex> indexes = keys.of(split.schema() != null ? split.schema() : schema, split.table());
            if (indexes.isEmpty()) {
                return null;
            }
            List<String> names = new ArrayList<>();
            indexes.forEach(i -> names.add(i.name() + " (" + i.shownLookup() + ", on shards 0-" + (i.lookupShards() - 1) + ")"));
            return "each row's value of unique key " + String.join(", ", names) + " is claimed in its lookup first"
                    + " (one shard per value), then the rows go to";
        }
        if (!(plan instanceof Plan.Route route) || route.probe() == null) {
            return null;
        }
        UniqueProbe p = route.probe();
        for (UniqueIndex index : keys.of(p.schema() != null ? p.schema() : schema, p.table())) {
            for (String c : index.columns()) {
                if (p.assigned().containsKey(c.toLowerCase(java.util.Locale.ROOT))) {
                    return "the new value of unique key " + index.name() + " is claimed in " + index.shownLookup()
                            + " first, then the row's shard";
                }
            }
            if (index.columns().size() == 1 && p.equalities().containsKey(index.columns().get(0).toLowerCase(java.util.Locale.ROOT))) {
                StringJoiner shards = new StringJoiner(", ");
                for (KeyValue v : p.equalities().get(index.columns().get(0).toLowerCase(java.util.Locale.ROOT))) {
                    io.cleave.router.keyspace.ShardKey key = v instanceof KeyValue.SlotValue s && index.types().get(0) != null
                            ? values.key(s.slot(), index.types().get(0)) : null;
                    shards.add(key == null ? "?" : Integer.toString(LookupPlacement.shardOf(index, List.of(key))));
                }
                return "lookup by unique key " + index.name() + " in " + index.shownLookup() + " on shard(s) " + shards
                        + " first, then only the shards of the keys it finds; without it";
            }
        }
        return null;
    }

    private String shards(Analysis analysis, ShardMap map) {
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement m) {
            plan = m.plan();
        }
        if (plan instanceof Plan.Refuse r) {
            return "none: refused with error " + r.code();
        }
        if (plan instanceof Plan.Session s && s.action() instanceof SessionAction.UnlockedTables) {
            return "none: accepted by the proxy, locks nothing (the tables' rows are on several shards)";
        }
        if (plan instanceof Plan.Session) {
            return "none: a session statement, kept by the proxy and replayed on the shards the session uses";
        }
        if (plan instanceof Plan.Local) {
            return "none: answered by the proxy";
        }
        boolean placeholders = analysis.digest().placeholderCount() > 0;
        ParameterValues values = new LiteralParameters().bind(analysis, StandardCharsets.UTF_8)
                .forPlaceholders(PlanPrinter.UNBOUND);
        if (plan instanceof Plan.InsertSplit split) {
            return insertShards(split, analysis, values, map);
        }
        Plan.Route route = (Plan.Route) plan;
        if (placeholders && keyedOnPlaceholder(route.target(), analysis)) {
            return "depends on the values bound to its parameters (?)";
        }
        if (route.target() instanceof Target.Routine) {
            return "the default shard when the procedure (and what it calls) names only what lives there; its key's"
                    + " shard when sharding.routines declares its key parameter";
        }
        Resolution resolution = resolver.resolve(route.target(), values, map);
        if (resolution.isError() && route.several() instanceof Plan.Evaluate e) {
            return evaluated(e);
        }
        if (resolution.isError()) {
            return "none: " + resolution.error();
        }
        if (resolution.isAny()) {
            return "any one shard (the one the session already uses, else the next in turn)";
        }
        if (resolution.isSingle()) {
            return "shard " + resolution.shard();
        }
        String shards = "shards " + join(resolution.shards())
                + (resolution.shards().length == map.shardCount() ? " (all)" : "");
        if (route.several() instanceof Plan.Refuse refused) {
            return "none: it would need " + shards + ", and " + refused.message();
        }
        if (route.several() instanceof Plan.Evaluate e) {
            return evaluated(e);
        }
        return shards;
    }

    private static String evaluated(Plan.Evaluate e) {
        return "evaluated on shard " + e.shard() + " over the rows of " + e.tables() + " gathered from the shards";
    }

    private String insertShards(Plan.InsertSplit split, Analysis analysis, ParameterValues values, ShardMap map) {
        if (split.missingKeyColumn() != null) {
            return "each row's, from the " + split.missingKeyColumn() + " the proxy draws from its sequence";
        }
        Map<Integer, List<Integer>> rowsByShard = new TreeMap<>();
        for (int i = 0; i < split.rows().size(); i++) {
            KeyValue key = split.rows().get(i).key();
            if (key == null) {
                return "each row's by its sharding key, found by the table's column order (the INSERT has no column list)";
            }
            if (key instanceof KeyValue.SlotValue s && analysis.digest().slotKind(s.slot()) == SlotKind.PLACEHOLDER) {
                return "depends on the values bound to its parameters (?)";
            }
            int shard = resolver.shardOf(split.keyspace(), key, values, map);
            if (shard < 0) {
                return "none: row " + (i + 1) + " has a sharding key no shard holds";
            }
            rowsByShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(i + 1);
        }
        StringJoiner out = new StringJoiner(", ");
        rowsByShard.forEach((shard, rows) -> out.add("shard " + shard + " (row" + (rows.size() > 1 ? "s " : " ")
                + join(rows.stream().mapToInt(Integer::intValue).toArray()) + ")"));
        return out.toString();
    }

    /** Whether a key of the target comes from a {@code ?} (so only an execute's values decide). */
    private static boolean keyedOnPlaceholder(Target target, Analysis analysis) {
        if (!(target instanceof Target.Keyed keyed)) {
            return false;
        }
        for (KeyClass c : keyed.classes()) {
            for (KeyValue v : c.values()) {
                if (v instanceof KeyValue.SlotValue s && analysis.digest().slotKind(s.slot()) == SlotKind.PLACEHOLDER) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String join(int[] values) {
        StringJoiner j = new StringJoiner(", ");
        for (int v : values) {
            j.add(Integer.toString(v));
        }
        return j.toString();
    }
}
