package io.cleave.router.plan;

import io.cleave.router.sql.ast.Assignment;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a SELECT, UPDATE or DELETE of one sharded table says about its columns, for the table's
 * global unique keys (known to the proxy, not the planner): the values its WHERE requires of each
 * column ({@code c = v}, {@code c IN (...)}, in the conditions every row must meet), by which a
 * lookup finds the rows' shards; and for an UPDATE what it assigns, which a lookup must follow.
 *
 * @param equalities lower-case column to the values the rows must have in it
 * @param assigned   lower-case column an UPDATE sets to its value (null when computed)
 * @param shardingKeys the values the WHERE requires of the sharding column (empty: none)
 * @param singleTable the statement reads or writes this table alone (no joins, no subqueries in FROM)
 * @param assignedNull lower-case columns an UPDATE sets to NULL
 * @param ignore     UPDATE IGNORE
 * @param insertSet  an INSERT ... SET (whose values the proxy does not split by row)
 */
public record UniqueProbe(String schema, String table, Map<String, List<KeyValue>> equalities,
                          Map<String, KeyValue> assigned, java.util.Set<String> assignedNull, List<KeyValue> shardingKeys,
                          boolean singleTable, boolean ignore, boolean insertSet) {

    public UniqueProbe {
        equalities = Map.copyOf(equalities);
        assigned = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(assigned));
        assignedNull = java.util.Set.copyOf(assignedNull);
        shardingKeys = List.copyOf(shardingKeys);
    }

    /** The probe of a statement over one sharded table, or null. */
    static UniqueProbe of(Statement s, Topology topology) {
        List<TableRef> from;
        Expr where;
        List<Assignment> assignments = List.of();
        boolean ignore = false;
        if (s instanceof io.cleave.router.sql.ast.Insert insert) {
            if (insert.source() instanceof io.cleave.router.sql.ast.Insert.SetList
                    && topology.ruleFor(insert.table().name()) instanceof TableRule.Sharded) {
                return new UniqueProbe(insert.table().schema(), insert.table().name(), Map.of(), Map.of(),
                        java.util.Set.of(), List.of(), true, false, true);
            }
            return null;
        }
        if (s instanceof Select select) {
            if (select.with() != null) {
                return null;
            }
            from = select.from();
            where = select.where();
        } else if (s instanceof Update update) {
            from = update.tables();
            where = update.where();
            assignments = update.assignments();
            ignore = update.modifiers().stream().anyMatch(m -> m.equalsIgnoreCase("IGNORE"));
        } else if (s instanceof Delete delete) {
            if (delete.targets().size() > 1 || !delete.from().isEmpty() && delete.from().size() != 1) {
                return null;
            }
            from = delete.from();
            where = delete.where();
        } else {
            return null;
        }
        if (from.isEmpty()) {
            return null;
        }
        boolean single = from.size() == 1 && from.get(0) instanceof TableRef.Table;
        TableRef.Table table = findTable(from);
        if (table == null || !(topology.ruleFor(table.name().name()) instanceof TableRule.Sharded sharded)) {
            return null;
        }
        Map<String, KeyValue> assigned = new LinkedHashMap<>();
        java.util.Set<String> nulls = new java.util.HashSet<>();
        for (Assignment a : assignments) {
            String column = a.column().column().toLowerCase(Locale.ROOT);
            assigned.put(column, KeyAnalyzer.value(a.value()));
            if (a.value() instanceof Expr.Literal l && l.kind() == Expr.LiteralKind.NULL) {
                nulls.add(column);
            }
        }
        if (!single && assigned.isEmpty()) {
            return null;
        }
        Map<String, List<KeyValue>> equalities = new LinkedHashMap<>();
        if (single) {
            conjuncts(where, equalities);
        }
        List<KeyValue> keys = equalities.getOrDefault(sharded.column().toLowerCase(Locale.ROOT), List.of());
        return new UniqueProbe(table.name().schema(), table.name().name(), equalities, assigned, nulls, keys, single,
                ignore, false);
    }

    /** The first plain table of the FROM list (joins walked left to right). */
    private static TableRef.Table findTable(List<TableRef> from) {
        for (TableRef ref : from) {
            TableRef r = ref;
            while (r instanceof TableRef.Join j) {
                r = j.left();
            }
            if (r instanceof TableRef.Table t) {
                return t;
            }
        }
        return null;
    }

    private static void conjuncts(Expr e, Map<String, List<KeyValue>> out) {
        if (e == null) {
            return;
        }
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            conjuncts(b.left(), out);
            conjuncts(b.right(), out);
            return;
        }
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.EQ) {
            Expr.ColumnRef column = b.left() instanceof Expr.ColumnRef c ? c : b.right() instanceof Expr.ColumnRef c2 ? c2 : null;
            Expr value = column == b.left() ? b.right() : b.left();
            KeyValue v = column == null ? null : KeyAnalyzer.value(value);
            if (v != null) {
                out.putIfAbsent(column.column().toLowerCase(Locale.ROOT), List.of(v));
            }
            return;
        }
        if (e instanceof Expr.InList in && !in.negated() && in.operand() instanceof Expr.ColumnRef c) {
            List<KeyValue> values = new ArrayList<>();
            for (Expr v : in.values()) {
                KeyValue k = KeyAnalyzer.value(v);
                if (k == null) {
                    return;
                }
                values.add(k);
            }
            out.putIfAbsent(c.column().toLowerCase(Locale.ROOT), values);
        }
    }
}
