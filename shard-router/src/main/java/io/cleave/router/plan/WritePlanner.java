package io.cleave.router.plan;

import io.cleave.router.sql.ast.Assignment;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Insert;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.topology.TableRule;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans INSERT, REPLACE, UPDATE and DELETE. Rows of a multi-row INSERT go to their keys' shards;
 * UPDATE and DELETE go where their key conditions point, to every shard without one; writes to
 * reference tables go everywhere; a write that would move a row between shards is refused.
 */
final class WritePlanner {

    private final PlanContext ctx;

    WritePlanner(PlanContext ctx) {
        this.ctx = ctx;
    }

    Plan insert(Insert insert) {
        if (Planner.isSystemTable(insert.table())) {
            return Planner.refuse(insert, "writing to " + insert.table() + " through the proxy is not supported");
        }
        TableRule rule = ctx.topology.ruleFor(insert.table().name());
        boolean lastInsertId = Planner.usesLastInsertId(insert);
        if (insert.source() instanceof Insert.FromQuery fq) {
            return insertSelect(insert, rule, fq, lastInsertId);
        }
        if (rule instanceof TableRule.Unsharded u) {
            return route(insert, new Target.Shard(u.homeShard()), null, lastInsertId);
        }
        if (rule instanceof TableRule.Reference) {
            if (readsSubqueries(insert)) {
                return Planner.refuse(insert, "an INSERT into the reference table " + insert.table().name()
                        + " with subqueries is not supported across shards");
            }
            return route(insert, new Target.AllShards(), Plan.FanOutWrite.allAlike(), lastInsertId);
        }
        TableRule.Sharded sharded = (TableRule.Sharded) rule;
        for (Assignment a : insert.onDuplicateKeyUpdate()) {
            if (a.column().column().equalsIgnoreCase(sharded.column())) {
                return Planner.refuse(insert, "ON DUPLICATE KEY UPDATE of the sharding key " + sharded.column()
                        + " would move the row to another shard: not supported across shards");
            }
        }
        if (readsSubqueries(insert)) {
            return Planner.refuse(insert, "an INSERT into the sharded table " + insert.table().name()
                    + " with subqueries is not supported across shards");
        }
        if (insert.source() instanceof Insert.SetList set) {
            for (Assignment a : set.assignments()) {
                if (a.column().column().equalsIgnoreCase(sharded.column())) {
                    KeyValue key = KeyAnalyzer.value(a.value());
                    if (key == null) {
                        return keyNotConstant(insert, sharded);
                    }
                    return route(insert, keyed(ctx, sharded, insert.table().name(), key), null, lastInsertId);
                }
            }
            return Planner.refuse(insert, "INSERT ... SET into the sharded table " + insert.table().name()
                    + " must set its sharding key " + sharded.column());
        }
        Insert.Values values = (Insert.Values) insert.source();
        if (insert.columns().isEmpty()) {
            return withoutColumnList(insert, sharded, values);
        }
        int keyIndex = -1;
        for (int i = 0; i < insert.columns().size(); i++) {
            if (insert.columns().get(i).value().equalsIgnoreCase(sharded.column())) {
                keyIndex = i;
            }
        }
        List<Plan.InsertRow> rows = new ArrayList<>();
        for (Insert.Row row : values.rows()) {
            if (row.values().size() != insert.columns().size()) {
                return new Plan.Refuse(insert.kind(), 1136, "21S01", "Column count doesn't match value count at row "
                        + (rows.size() + 1));
            }
            KeyValue key = null;
            if (keyIndex >= 0) {
                key = KeyAnalyzer.value(row.values().get(keyIndex));
                if (key == null) {
                    return keyNotConstant(insert, sharded);
                }
            }
            rows.add(row(row, key));
        }
        int first = rows.get(0).first();
        int last = rows.get(rows.size() - 1).end();
        List<Name> columns = insert.columns();
        int columnListEnd = columns.get(columns.size() - 1).span().end();
        return new Plan.InsertSplit(insert.kind(), insert.table().schema(), insert.table().name(),
                ctx.topology.keyspace(sharded.keyspace()),
                new SqlTemplate.Tokens(0, first), rows, new SqlTemplate.Tokens(last, ctx.tokenCount()),
                keyIndex < 0 ? sharded.column() : null, columnListEnd, columns.stream().map(Name::value).toList(),
                conflicts(insert));
    }

    /** A row with every value that could be a key (of the table's sharding or a global unique key). */
    private static Plan.InsertRow row(Insert.Row row, KeyValue key) {
        List<KeyValue> values = new ArrayList<>(row.values().size());
        java.util.Set<Integer> nulls = new java.util.HashSet<>();
        for (int i = 0; i < row.values().size(); i++) {
            var value = row.values().get(i);
            values.add(KeyAnalyzer.value(value));
            if (value instanceof io.cleave.router.sql.ast.Expr.Literal l
                    && l.kind() == io.cleave.router.sql.ast.Expr.LiteralKind.NULL) {
                nulls.add(i);
            }
        }
        return new Plan.InsertRow(row.span().first(), row.span().end(), key, values, nulls);
    }

    private static Plan.Conflicts conflicts(Insert insert) {
        boolean ignore = insert.modifiers().stream().anyMatch(m -> m.equalsIgnoreCase("IGNORE"));
        List<String> updates = insert.onDuplicateKeyUpdate().stream().map(a -> a.column().column()).toList();
        return ignore || !updates.isEmpty() ? new Plan.Conflicts(ignore, updates) : Plan.Conflicts.FAIL;
    }

    /**
     * INSERT without a column list (as loaders and dumps write it): which value is the key depends
     * on the table's column order, which the proxy learns from the shards; each row keeps every
     * value that could be its key.
     */
    private Plan withoutColumnList(Insert insert, TableRule.Sharded sharded, Insert.Values values) {
        List<Plan.InsertRow> rows = new ArrayList<>();
        for (Insert.Row row : values.rows()) {
            rows.add(row(row, null));
        }
        int first = rows.get(0).first();
        int last = rows.get(rows.size() - 1).end();
        return new Plan.InsertSplit(insert.kind(), insert.table().schema(), insert.table().name(),
                ctx.topology.keyspace(sharded.keyspace()), new SqlTemplate.Tokens(0, first), rows,
                new SqlTemplate.Tokens(last, ctx.tokenCount()), null, first, List.of(), conflicts(insert));
    }

    private Plan insertSelect(Insert insert, TableRule rule, Insert.FromQuery fq, boolean lastInsertId) {
        KeyAnalyzer analyzer = new KeyAnalyzer(ctx.topology);
        analyzer.query(fq.query());
        Object source = analyzer.target();
        if (source instanceof String refusal) {
            return Planner.refuse(insert, refusal);
        }
        if (rule instanceof TableRule.Unsharded u) {
            if (source instanceof Target.AnyShard
                    || source instanceof Target.Shard s && s.shard() == u.homeShard()) {
                return route(insert, new Target.Shard(u.homeShard()), null, lastInsertId);
            }
            if (source instanceof Target.Keyed k) {
                List<Integer> homes = new ArrayList<>(k.homeShards());
                homes.add(u.homeShard());
                return route(insert, new Target.Keyed(k.classes(), homes, "INSERT ... SELECT into "
                        + insert.table().name() + " (shard " + u.homeShard() + ") reads rows of other shards: "
                        + k.notColocatedMessage()), refusedMulti(insert, "INSERT ... SELECT into " + insert.table().name()
                        + " reads rows of several shards: not supported across shards"), lastInsertId);
            }
        }
        if (rule instanceof TableRule.Reference && source instanceof Target.AnyShard) {
            return route(insert, new Target.AllShards(), Plan.FanOutWrite.allAlike(), lastInsertId);
        }
        return Planner.refuse(insert, "INSERT ... SELECT into the " + (rule instanceof TableRule.Sharded ? "sharded"
                : rule instanceof TableRule.Reference ? "reference" : "unsharded") + " table " + insert.table().name()
                + " from " + describe(source) + " is not supported across shards");
    }

    Plan update(Update update) {
        KeyAnalyzer analyzer = new KeyAnalyzer(ctx.topology);
        QueryParts.Block block = analyzer.newBlock();
        for (TableRef ref : update.tables()) {
            analyzer.ref(ref, block);
        }
        analyzer.where(update.where(), block);
        for (Assignment a : update.assignments()) {
            analyzer.subqueries(a.value(), block);
        }
        for (Assignment a : update.assignments()) {
            QueryParts.Binding target = assignedBinding(a, block);
            if (target != null && target.sharded() != null
                    && target.sharded().column().equalsIgnoreCase(a.column().column())) {
                return Planner.refuse(update, "UPDATE of the sharding key " + target.table + "." + a.column().column()
                        + " would move the row to another shard: not supported across shards (delete and insert it)");
            }
        }
        boolean limited = !update.orderBy().isEmpty() || update.limit() != null;
        return write(update, analyzer, block, limited);
    }

    Plan delete(Delete delete) {
        KeyAnalyzer analyzer = new KeyAnalyzer(ctx.topology);
        QueryParts.Block block = analyzer.newBlock();
        for (TableRef ref : delete.from()) {
            analyzer.ref(ref, block);
        }
        analyzer.where(delete.where(), block);
        boolean limited = !delete.orderBy().isEmpty() || delete.limit() != null;
        return write(delete, analyzer, block, limited);
    }

    /** UPDATE/DELETE: where the key conditions point; reference tables everywhere. */
    private Plan write(Statement s, KeyAnalyzer analyzer, QueryParts.Block block, boolean limited) {
        boolean lastInsertId = Planner.usesLastInsertId(s);
        boolean references = false;
        boolean shardedOrUnsharded = false;
        for (QueryParts.Binding b : analyzer.bindings()) {
            if (b.system) {
                return Planner.refuse(s, "writing to " + b.table + " through the proxy is not supported");
            }
            references |= b.rule instanceof TableRule.Reference;
            shardedOrUnsharded |= !(b.rule instanceof TableRule.Reference);
        }
        if (references) {
            if (shardedOrUnsharded || analyzer.hasNestedBlocks()) {
                return Planner.refuse(s, "a write that changes a reference table and reads sharded or unsharded rows"
                        + " would leave the copies different: not supported across shards");
            }
            return route(s, new Target.AllShards(), Plan.FanOutWrite.allAlike(), lastInsertId);
        }
        Object target = analyzer.target();
        if (target instanceof String refusal) {
            return Planner.refuse(s, refusal);
        }
        Plan.Spread multi = null;
        if (target instanceof Target.Keyed keyed) {
            String tables = String.join(", ", keyed.classes().get(0).tables());
            if (keyed.classes().size() > 1 || !keyed.homeShards().isEmpty()) {
                multi = refusedMulti(s, keyed.notColocatedMessage());
            } else if (limited) {
                multi = refusedMulti(s, s.kind() + " with ORDER BY or LIMIT on " + tables + " without one sharding key"
                        + " cannot pick the same rows one server would: not supported across shards");
            } else {
                try {
                    multi = Plan.FanOutWrite.sumOfShards(ScatterCheck.write(analyzer, block));
                } catch (PlanningException e) {
                    multi = new Plan.Refuse(s.kind(), e.code, e.sqlState, e.getMessage());
                }
            }
        }
        return route(s, (Target) target, multi, lastInsertId);
    }

    private static QueryParts.Binding assignedBinding(Assignment a, QueryParts.Block block) {
        String qualifier = a.column().table();
        QueryParts.Binding only = null;
        for (QueryParts.Binding b : block.tables) {
            if (qualifier != null ? b.exposed.equalsIgnoreCase(qualifier) : block.tables.size() == 1
                    || b.sharded() != null && b.sharded().column().equalsIgnoreCase(a.column().column())) {
                only = b;
                if (qualifier != null) {
                    return b;
                }
            }
        }
        return only;
    }

    private static Target keyed(PlanContext ctx, TableRule.Sharded sharded, String table, KeyValue key) {
        return new Target.Keyed(List.of(KeyClass.of(ctx.topology.keyspace(sharded.keyspace()), table, List.of(key))),
                List.of(),
                table + " rows on more than one shard cannot be combined here: not supported across shards");
    }

    private Plan route(Statement s, Target target, Plan.Spread several, boolean lastInsertId) {
        return new Plan.Route(s.kind(), target, Plan.Access.WRITE, Effects.of(Planner.pinOf(s), lastInsertId, false),
                several);
    }

    private static Plan keyNotConstant(Insert insert, TableRule.Sharded sharded) {
        return Planner.refuse(insert, "the sharding key " + sharded.column() + " of " + insert.table().name()
                + " must be given as a value in every row (not NULL, DEFAULT or an expression) so the row's shard is known");
    }

    private static boolean readsSubqueries(Insert insert) {
        boolean[] found = {false};
        Planner.visitExprs(insert, e -> found[0] |= io.cleave.router.sql.ast.Exprs.containsSubquery(e));
        return found[0];
    }

    private static Plan.Refuse refusedMulti(Statement s, String message) {
        return Plan.Refuse.notSupported(s.kind(), message);
    }

    private static String describe(Object source) {
        if (source instanceof Target.Keyed k) {
            List<String> tables = new ArrayList<>();
            for (KeyClass c : k.classes()) {
                tables.addAll(c.tables());
            }
            return "sharded tables " + tables;
        }
        return String.valueOf(source);
    }
}
