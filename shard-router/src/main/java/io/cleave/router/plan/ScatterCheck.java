package io.cleave.router.plan;

import io.cleave.router.plan.QueryParts.Binding;
import io.cleave.router.plan.QueryParts.Block;
import io.cleave.router.plan.QueryParts.DerivedSource;
import io.cleave.router.plan.QueryParts.Unit;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.topology.TableRule;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Proves that a statement over several shards gives one server's rows, before any merge: its row
 * source is partitioned (each answer row comes from a row that lives on exactly one shard) and
 * everything else it reads is either the same on every shard or on that row's shard. Returns the
 * {@link ScatterRule}s the proof used, or throws a {@link PlanningException} naming the table, its
 * key and why the shape cannot be answered exactly.
 */
final class ScatterCheck {

    private final KeyAnalyzer analyzer;
    private final Set<ScatterRule> rules = EnumSet.noneOf(ScatterRule.class);
    private final Map<Unit, Boolean> readsSharded = new IdentityHashMap<>();

    private ScatterCheck(KeyAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** The rules that make the rows of the analyzed query exact across shards. */
    static Set<ScatterRule> query(KeyAnalyzer analyzer) {
        ScatterCheck check = new ScatterCheck(analyzer);
        check.top(analyzer.top());
        return check.rules;
    }

    /** The rules that make an UPDATE or DELETE over several shards change what one server would. */
    static Set<ScatterRule> write(KeyAnalyzer analyzer, Block block) {
        ScatterCheck check = new ScatterCheck(analyzer);
        check.partitioned(block, List.of());
        check.rules.add(ScatterRule.FAN_OUT_WRITE);
        return check.rules;
    }

    private void top(Unit u) {
        if (u.setOperation) {
            if (!u.unionAll) {
                throw new PlanningException("UNION without ALL, INTERSECT and EXCEPT over " + tables(u) + " on several"
                        + " shards would have to compare rows of different shards: not supported across shards (use"
                        + " UNION ALL, or a sharding key)");
            }
            if (u.limited || u.ordered) {
                throw new PlanningException("UNION ALL with ORDER BY or LIMIT over " + tables(u) + " on several shards"
                        + " is not supported across shards");
            }
            for (Block b : u.branches) {
                partitioned(b, List.of());
            }
            rules.add(ScatterRule.UNION_ALL_CONCATENATION);
            return;
        }
        if (u.limited || u.ordered) {
            // (SELECT ...) ORDER BY/LIMIT: the outer clauses apply to the inner SELECT's rows.
            throw new PlanningException("a parenthesized query with its own ORDER BY or LIMIT over " + tables(u)
                    + " on several shards is not supported across shards");
        }
        partitioned(u.branches.get(0), List.of());
    }

    /**
     * Checks that the rows of block {@code b} are partitioned; returns its sharded tables that no
     * outer join can null (empty when a derived table is the partitioned source).
     *
     * @param outer sharded tables of the enclosing partitioned blocks, which subqueries may be tied to
     */
    private List<Binding> partitioned(Block b, List<Binding> outer) {
        Map<Integer, List<Binding>> groups = new LinkedHashMap<>();
        List<String> copies = new ArrayList<>();
        for (Binding t : b.tables) {
            if (t.sharded() != null) {
                groups.computeIfAbsent(analyzer.blockGroup(t), k -> new ArrayList<>()).add(t);
            } else if (t.rule instanceof TableRule.Reference) {
                copies.add(t.describe());
            }
        }
        List<DerivedSource> derived = new ArrayList<>();
        for (DerivedSource d : b.derived) {
            if (readsSharded(d.unit())) {
                derived(d);
                derived.add(d);
            } else {
                copies.add(name(d));
            }
        }
        if (groups.size() + derived.size() == 0) {
            throw new PlanningException(drivenByCopies(b, copies));
        }
        if (groups.size() + derived.size() > 1) {
            throw new PlanningException(notJoinedOnKey(groups, derived));
        }
        List<Binding> members = groups.isEmpty() ? List.of() : groups.values().iterator().next();
        List<Binding> preserved = new ArrayList<>();
        for (Binding m : members) {
            if (!m.nullable) {
                preserved.add(m);
            }
        }
        if (members.isEmpty() ? derived.get(0).nullable() : preserved.isEmpty()) {
            throw new PlanningException((members.isEmpty() ? name(derived.get(0)) : describe(members))
                    + " is only on the nullable side of an outer join with " + String.join(", ", copies) + ": every"
                    + " shard would add the rows that match nothing on that shard, so they would repeat; not supported"
                    + " across shards");
        }
        rules.add(ScatterRule.PARTITIONED_ROWS);
        if (members.size() > 1) {
            rules.add(ScatterRule.JOIN_ON_KEY);
        }
        if (!copies.isEmpty()) {
            rules.add(ScatterRule.REFERENCE_COPY);
        }
        windows(b, preserved);
        List<Binding> partition = new ArrayList<>(outer);
        partition.addAll(members);
        for (Unit s : b.subqueries) {
            subquery(s, partition);
        }
        return preserved;
    }

    /** A subquery reads the same everywhere, or only rows on the outer row's shard. */
    private void subquery(Unit u, List<Binding> partition) {
        if (!readsSharded(u)) {
            rules.add(ScatterRule.REPLICATED_SUBQUERY);
            return;
        }
        for (Block q : u.branches) {
            for (DerivedSource d : q.derived) {
                if (readsSharded(d.unit())) {
                    throw new PlanningException("a derived table or CTE over " + tables(d.unit()) + " inside a subquery"
                            + " cannot be tied to the outer rows by the sharding key: not supported across shards");
                }
            }
            List<Binding> mine = new ArrayList<>();
            Set<Integer> groups = new LinkedHashSet<>();
            for (Binding t : q.tables) {
                if (t.sharded() != null) {
                    mine.add(t);
                    groups.add(analyzer.blockGroup(t));
                }
            }
            if (groups.size() > 1) {
                throw new PlanningException("a subquery joins " + describe(mine) + " not on equal sharding keys, so"
                        + " its rows can sit on different shards: not co-located, not supported across shards");
            }
            if (!mine.isEmpty()) {
                if (!tied(partition, mine)) {
                    throw new PlanningException("a subquery over " + describe(mine) + " is not tied to the outer rows by"
                            + " the sharding key (" + mine.get(0).table + "." + mine.get(0).sharded().column()
                            + " = an outer sharding key), so it needs rows of other shards: not supported across shards");
                }
                rules.add(ScatterRule.CORRELATED_BY_KEY);
            }
            List<Binding> deeper = new ArrayList<>(partition);
            deeper.addAll(mine);
            for (Unit s : q.subqueries) {
                subquery(s, deeper);
            }
        }
    }

    private boolean tied(List<Binding> partition, List<Binding> mine) {
        for (QueryParts.Edge e : analyzer.edges()) {
            if (e.correlation() && partition.contains(e.a()) && mine.contains(e.b())) {
                return true;
            }
        }
        return false;
    }

    /** A derived table or CTE over sharded tables: partitioned itself, and not summarizing rows of several shards. */
    private void derived(DerivedSource d) {
        Unit u = d.unit();
        String over = tables(u);
        if (d.lateral()) {
            throw new PlanningException("a LATERAL derived table over " + over + " on several shards is not supported"
                    + " across shards");
        }
        if (u.recursive) {
            throw new PlanningException("a recursive CTE over " + over + " on several shards is not supported across"
                    + " shards");
        }
        if (u.setOperation || u.limited || u.ordered && u.branches.size() > 1) {
            throw new PlanningException("UNION, INTERSECT, EXCEPT or LIMIT in a derived table or CTE over " + over
                    + " would combine rows of several shards: not supported across shards");
        }
        Block q = u.branches.get(0);
        List<Binding> preserved = partitioned(q, List.of());
        Select s = q.select;
        String key = preserved.isEmpty() ? "its sharding key" : "its sharding key " + preserved.get(0).table + "."
                + preserved.get(0).sharded().column();
        if (s.limit() != null) {
            throw new PlanningException("LIMIT in a derived table or CTE over " + over + " picks rows among every"
                    + " shard's: not supported across shards");
        }
        boolean aggregated = !s.groupBy().isEmpty() || s.having() != null;
        for (SelectItem item : s.items()) {
            aggregated |= item instanceof SelectItem.Column c && Exprs.containsAggregate(c.expr());
        }
        if (aggregated) {
            if (!groupedByKey(s, q, preserved)) {
                throw new PlanningException("a derived table or CTE over " + over + " aggregates without GROUP BY "
                        + key + ", so its groups span shards: not supported across shards");
            }
            rules.add(ScatterRule.GROUPED_BY_KEY);
        }
        if (s.options().distinct()) {
            if (!selectsKey(s, q, preserved)) {
                throw new PlanningException("DISTINCT in a derived table or CTE over " + over + " without " + key
                        + " among its columns compares rows of several shards: not supported across shards");
            }
            rules.add(ScatterRule.DISTINCT_WITH_KEY);
        }
        rules.add(ScatterRule.DERIVED_PARTITIONED);
    }

    private boolean groupedByKey(Select s, Block q, List<Binding> preserved) {
        for (OrderItem g : s.groupBy()) {
            Expr e = g.isOrdinal() && g.ordinal() <= s.items().size()
                    && s.items().get(g.ordinal() - 1) instanceof SelectItem.Column c ? c.expr() : g.expr();
            if (isKey(aliased(s, e), q, preserved)) {
                return true;
            }
        }
        return false;
    }

    private boolean selectsKey(Select s, Block q, List<Binding> preserved) {
        for (SelectItem item : s.items()) {
            if (item instanceof SelectItem.Star && !preserved.isEmpty()
                    || item instanceof SelectItem.Column c && isKey(c.expr(), q, preserved)) {
                return true;
            }
        }
        return false;
    }

    /** A GROUP BY name that is a select item's alias stands for that item's expression. */
    private static Expr aliased(Select s, Expr e) {
        if (e instanceof Expr.ColumnRef c && c.table() == null) {
            for (SelectItem item : s.items()) {
                if (item instanceof SelectItem.Column col && col.alias() != null && col.alias().equalsIgnoreCase(c.column())) {
                    return col.expr();
                }
            }
        }
        return e;
    }

    private boolean isKey(Expr e, Block q, List<Binding> preserved) {
        Binding b = analyzer.shardingColumn(e, q);
        return b != null && preserved.contains(b);
    }

    /** Window functions are exact only over windows that hold one shard's rows. */
    private void windows(Block b, List<Binding> preserved) {
        if (b.select == null) {
            return;
        }
        List<Expr.FunctionCall> windows = new ArrayList<>();
        for (SelectItem item : b.select.items()) {
            if (item instanceof SelectItem.Column c) {
                collectWindows(c.expr(), windows);
            }
        }
        for (OrderItem o : b.select.orderBy()) {
            collectWindows(o.expr(), windows);
        }
        for (Expr.FunctionCall f : windows) {
            boolean byKey = false;
            for (Expr p : f.over().partitionBy()) {
                byKey |= isKey(p, b, preserved);
            }
            if (!byKey) {
                throw new PlanningException("the window function " + f.upperName() + "() over " + tablesOf(b)
                        + " is not partitioned by the sharding key" + keyName(preserved) + ", so its window spans"
                        + " shards: not supported across shards (PARTITION BY the sharding key, or give the key)");
            }
            rules.add(ScatterRule.WINDOW_PARTITIONED_BY_KEY);
        }
    }

    private static void collectWindows(Expr e, List<Expr.FunctionCall> out) {
        Exprs.walk(e, x -> {
            if (x instanceof Expr.FunctionCall f && f.isWindow()) {
                out.add(f);
            }
        });
    }

    private boolean readsSharded(Unit u) {
        Boolean known = readsSharded.get(u);
        if (known != null) {
            return known;
        }
        readsSharded.put(u, false);
        boolean reads = false;
        for (Block b : u.branches) {
            for (Binding t : b.tables) {
                reads |= t.sharded() != null;
            }
            for (DerivedSource d : b.derived) {
                reads |= readsSharded(d.unit());
            }
            for (Unit s : b.subqueries) {
                reads |= readsSharded(s);
            }
        }
        readsSharded.put(u, reads);
        return reads;
    }

    // ---- messages ------------------------------------------------------------------------------

    private String drivenByCopies(Block b, List<String> copies) {
        String sharded = shardedBelow(b);
        if (copies.isEmpty()) {
            return "a query without a sharded table in its FROM reads " + sharded + " in a subquery: every shard would"
                    + " answer it, so its rows would repeat; not supported across shards";
        }
        return String.join(", ", copies) + " drives this query while " + sharded + " is read only in a subquery: every"
                + " shard would answer with its own full copy, so rows would repeat or be judged on one shard's rows"
                + " only; not supported across shards (give the sharding key, or join the sharded table in the FROM)";
    }

    private String shardedBelow(Block b) {
        Set<String> names = new LinkedHashSet<>();
        for (Unit u : b.subqueries) {
            collectSharded(u, names, new LinkedHashSet<>());
        }
        return names.isEmpty() ? "a sharded table" : String.join(", ", names);
    }

    private void collectSharded(Unit u, Set<String> names, Set<Unit> seen) {
        if (!seen.add(u)) {
            return;
        }
        for (Block q : u.branches) {
            for (Binding t : q.tables) {
                if (t.sharded() != null) {
                    names.add(t.describe());
                }
            }
            for (DerivedSource d : q.derived) {
                collectSharded(d.unit(), names, seen);
            }
            for (Unit s : q.subqueries) {
                collectSharded(s, names, seen);
            }
        }
    }

    private String notJoinedOnKey(Map<Integer, List<Binding>> groups, List<DerivedSource> derived) {
        List<String> parts = new ArrayList<>();
        Set<String> keyspaces = new LinkedHashSet<>();
        for (List<Binding> g : groups.values()) {
            parts.add(describe(g));
            keyspaces.add(g.get(0).sharded().keyspace());
        }
        for (DerivedSource d : derived) {
            parts.add(name(d));
        }
        return "join between " + String.join(" and ", parts) + " is not co-located" + (keyspaces.isEmpty() ? ""
                : " on " + String.join("/", keyspaces)) + ": they are not joined on equal sharding keys, so matching rows"
                + " can sit on different shards; not supported across shards";
    }

    private static String describe(List<Binding> tables) {
        Set<String> out = new LinkedHashSet<>();
        for (Binding t : tables) {
            out.add(t.describe());
        }
        return String.join(", ", out);
    }

    private static String keyName(List<Binding> preserved) {
        return preserved.isEmpty() ? "" : " " + preserved.get(0).table + "." + preserved.get(0).sharded().column();
    }

    private String name(DerivedSource d) {
        return (d.unit().cteName != null ? "the CTE " : "the derived table ") + (d.alias() != null ? d.alias() : "")
                + " over " + tables(d.unit());
    }

    private static String tablesOf(Block b) {
        Set<String> out = new LinkedHashSet<>();
        for (Binding t : b.tables) {
            out.add(t.describe());
        }
        return out.isEmpty() ? "a derived table" : String.join(", ", out);
    }

    private String tables(Unit u) {
        Set<String> names = new LinkedHashSet<>();
        collectSharded(u, names, new LinkedHashSet<>());
        if (names.isEmpty()) {
            for (Block b : u.branches) {
                for (Binding t : b.tables) {
                    if (t.rule instanceof TableRule.Reference) {
                        names.add(t.describe());
                    }
                }
            }
        }
        return names.isEmpty() ? "its tables" : String.join(", ", names);
    }
}
