package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyCollations;
import io.cleave.router.plan.QueryParts.Binding;
import io.cleave.router.plan.QueryParts.Block;
import io.cleave.router.plan.QueryParts.DerivedSource;
import io.cleave.router.plan.QueryParts.Edge;
import io.cleave.router.plan.QueryParts.Role;
import io.cleave.router.plan.QueryParts.Unit;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds what decides a statement's shards: every table it reads or writes (subqueries, derived
 * tables and CTEs included), the equalities between sharding columns and the key values its
 * conditions hold tables to. What it records is only what holds for every row the answer depends
 * on, so that routing by it is exact:
 * <ul>
 * <li>an equality of two sharding columns co-locates their tables when it is a condition of their
 *     own block (WHERE, an inner join, or an outer join's ON between its two sides), or when it ties
 *     a subquery's table to an outer table (the subquery then reads only rows on the outer row's
 *     shard); a subquery's equality between two outer tables co-locates nothing (NOT EXISTS keeps
 *     the outer rows it does not match);</li>
 * <li>a key value restricts a table only from a condition of the table's own block that its rows
 *     must meet, and passes along equalities only in the direction that forces a match (the
 *     preserved side of an outer join, or an outer row of a NOT EXISTS, is not restricted by the
 *     other side).</li>
 * </ul>
 * {@link ScatterCheck} then decides whether a statement over several shards merges exactly.
 */
final class KeyAnalyzer {

    static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "mysql", "performance_schema", "sys");

    private final Topology topology;
    private final List<Binding> bindings = new ArrayList<>();
    private final List<Binding> sharded = new ArrayList<>();
    private final List<Block> blocks = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final List<Map<String, Unit>> cteScopes = new ArrayList<>();
    private Unit top;
    private KeyClasses keyClasses;

    KeyAnalyzer(Topology topology) {
        this.topology = topology;
    }

    Topology topology() {
        return topology;
    }

    // ---- walking ---------------------------------------------------------------------------

    /** A block that is not a SELECT: the tables an UPDATE, DELETE or LOCK TABLES names. */
    Block newBlock() {
        Block b = new Block(null, Role.TOP, false, null);
        blocks.add(b);
        return b;
    }

    /** Analyzes the statement's query; returns its unit. */
    Unit query(Query q) {
        top = query(q, null, Role.TOP, false);
        return top;
    }

    Unit top() {
        return top;
    }

    private Unit query(Query q, Block parentBlock, Role role, boolean positive) {
        Unit u = new Unit(q, null, false);
        unit(q, u, parentBlock, role, positive);
        return u;
    }

    private void unit(Query q, Unit u, Block parentBlock, Role role, boolean positive) {
        Query.With with = q.with();
        if (with != null) {
            Map<String, Unit> scope = new HashMap<>();
            cteScopes.add(scope);
            List<Unit> ctes = new ArrayList<>();
            for (Query.Cte cte : with.ctes()) {
                Unit cu = new Unit(cte.query(), cte.name().value().toLowerCase(Locale.ROOT), with.recursive());
                ctes.add(cu);
                if (with.recursive()) {
                    scope.put(cu.cteName, cu);
                }
            }
            for (Unit cu : ctes) {
                unit(cu.query, cu, parentBlock, Role.CTE, false);
                scope.put(cu.cteName, cu);
            }
        }
        if (q instanceof Select s) {
            u.branches.add(select(s, parentBlock, role, positive));
        } else if (q instanceof Query.SetOperation op) {
            u.setOperation = true;
            u.unionAll &= op.operator() == Query.SetOperator.UNION && op.all();
            u.limited |= op.limit() != null;
            u.ordered |= !op.orderBy().isEmpty();
            unit(op.left(), u, parentBlock, role, positive);
            unit(op.right(), u, parentBlock, role, positive);
        } else if (q instanceof Query.Parenthesized p) {
            u.limited |= p.limit() != null;
            u.ordered |= !p.orderBy().isEmpty();
            unit(p.query(), u, parentBlock, role, positive);
        }
        if (with != null) {
            cteScopes.remove(cteScopes.size() - 1);
        }
    }

    private Block select(Select s, Block parentBlock, Role role, boolean positive) {
        Block b = new Block(parentBlock, role, positive, s);
        blocks.add(b);
        for (TableRef ref : s.from()) {
            ref(ref, b);
        }
        where(s.where(), b);
        for (SelectItem item : s.items()) {
            if (item instanceof SelectItem.Column c) {
                subqueries(c.expr(), b);
            }
        }
        subqueries(s.having(), b);
        for (OrderItem o : s.orderBy()) {
            subqueries(o.expr(), b);
        }
        for (OrderItem o : s.groupBy()) {
            subqueries(o.expr(), b);
        }
        return b;
    }

    void ref(TableRef ref, Block b) {
        ref(ref, b, false);
    }

    private void ref(TableRef ref, Block b, boolean nullable) {
        if (ref instanceof TableRef.Table t) {
            table(t.name(), t.exposedName(), b, nullable);
        } else if (ref instanceof TableRef.Derived d) {
            Unit u = query(d.query(), b, Role.DERIVED, false);
            u.references++;
            b.derived.add(new DerivedSource(u, d.alias(), nullable, d.lateral()));
        } else if (ref instanceof TableRef.Join j) {
            boolean leftOuter = j.kind() == TableRef.JoinKind.LEFT || j.kind() == TableRef.JoinKind.NATURAL_LEFT;
            boolean rightOuter = j.kind() == TableRef.JoinKind.RIGHT || j.kind() == TableRef.JoinKind.NATURAL_RIGHT;
            int first = b.tables.size();
            ref(j.left(), b, nullable || rightOuter);
            int middle = b.tables.size();
            ref(j.right(), b, nullable || leftOuter);
            List<Binding> left = List.copyOf(b.tables.subList(first, middle));
            List<Binding> right = List.copyOf(b.tables.subList(middle, b.tables.size()));
            Set<Binding> nullableSide = leftOuter ? new HashSet<>(right) : rightOuter ? new HashSet<>(left) : null;
            conditions(j.on(), b, nullableSide);
            for (Name column : j.using()) {
                usingColumn(column.value(), left, right, b, nullableSide);
            }
        }
    }

    /** Adds a table of a block (LOCK TABLES); returns its binding (null for a CTE reference). */
    Binding table(TableName name, String exposed, Block b) {
        return table(name, exposed, b, false);
    }

    private Binding table(TableName name, String exposed, Block b, boolean nullable) {
        String lower = name.name().toLowerCase(Locale.ROOT);
        if (name.schema() == null) {
            for (int i = cteScopes.size() - 1; i >= 0; i--) {
                Unit cte = cteScopes.get(i).get(lower);
                if (cte != null) {
                    cte.references++;
                    b.derived.add(new DerivedSource(cte, exposed, nullable, false));
                    return null;
                }
            }
        }
        boolean system = name.schema() != null && SYSTEM_SCHEMAS.contains(name.schema().toLowerCase(Locale.ROOT));
        TableRule rule = system || lower.equals("dual") ? null : topology.ruleFor(name.name());
        Binding binding = new Binding(exposed.toLowerCase(Locale.ROOT), name.name(), rule, b, system || rule == null,
                nullable);
        binding.schema = name.schema();
        b.tables.add(binding);
        bindings.add(binding);
        if (binding.sharded() != null) {
            binding.id = sharded.size();
            sharded.add(binding);
        }
        return binding;
    }

    /** Whether the statement reads a table of information_schema, mysql, performance_schema or sys. */
    boolean readsSystemTables() {
        for (Binding b : bindings) {
            if (b.schema != null && SYSTEM_SCHEMAS.contains(b.schema.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** A WHERE clause of block {@code b}: every conjunct is a condition its rows meet. */
    void where(Expr condition, Block b) {
        conditions(condition, b, null);
    }

    /**
     * Conditions of a WHERE or ON clause. {@code nullableSide}: for an outer join's ON, the tables
     * on its nullable side (the ON only restricts those); null for WHERE and inner joins.
     */
    private void conditions(Expr condition, Block b, Set<Binding> nullableSide) {
        if (condition == null) {
            return;
        }
        for (Expr e : Exprs.conjuncts(condition)) {
            condition(e, b, nullableSide);
        }
        for (Expr e : Exprs.conjuncts(condition)) {
            boolean semiJoin = nullableSide == null
                    && (e instanceof Expr.Exists || e instanceof Expr.InSubquery in && !in.negated());
            Exprs.walk(e, x -> {
                for (Query q : x.subqueries()) {
                    Unit u = query(q, b, Role.SUBQUERY, semiJoin && x == e);
                    b.subqueries.add(u);
                    if (x == e && e instanceof Expr.InSubquery in && !in.negated()) {
                        semiJoinOnKey(in, u, b, semiJoin);
                    }
                }
            });
        }
    }

    private void condition(Expr e, Block b, Set<Binding> nullableSide) {
        if (e instanceof Expr.Binary bin
                && (bin.op() == Expr.BinaryOp.EQ || bin.op() == Expr.BinaryOp.NULL_SAFE_EQ)) {
            Binding l = shardingColumn(bin.left(), b);
            Binding r = shardingColumn(bin.right(), b);
            if (l != null && r != null) {
                edge(l, r, b, nullableSide);
                return;
            }
            if (l != null) {
                restrict(l, value(bin.right()), b, nullableSide);
            } else if (r != null) {
                restrict(r, value(bin.left()), b, nullableSide);
            }
        } else if (e instanceof Expr.InList in && !in.negated()) {
            Binding target = shardingColumn(in.operand(), b);
            if (target == null) {
                return;
            }
            List<KeyValue> values = new ArrayList<>();
            for (Expr v : in.values()) {
                KeyValue kv = value(v);
                if (kv == null) {
                    return;
                }
                values.add(kv);
            }
            restrict(target, values, b, nullableSide);
        }
    }

    private void restrict(Binding x, KeyValue value, Block b, Set<Binding> nullableSide) {
        if (value != null) {
            restrict(x, List.of(value), b, nullableSide);
        }
    }

    /** A key condition holds a table's rows only in the table's own block, and not on the preserved side of an outer join. */
    private static void restrict(Binding x, List<KeyValue> values, Block b, Set<Binding> nullableSide) {
        if (x.block != b || nullableSide != null && !nullableSide.contains(x)) {
            return;
        }
        if (!x.restrictions.contains(values)) {
            x.restrictions.add(values);
        }
    }

    private void edge(Binding l, Binding r, Block b, Set<Binding> nullableSide) {
        if (!l.sharded().keyspace().equals(r.sharded().keyspace())) {
            return;
        }
        if (l.block == b && r.block == b) {
            if (nullableSide == null) {
                edges.add(new Edge(l, r, true, true, false));
                return;
            }
            boolean ln = nullableSide.contains(l);
            boolean rn = nullableSide.contains(r);
            if (ln || rn) {
                // Rows of the nullable side match the preserved side's key; not the other way round.
                edges.add(new Edge(l, r, !ln || rn, ln || !rn, false));
            }
            return;
        }
        Binding inner = l.block == b ? l : r.block == b ? r : null;
        Binding outer = inner == l ? r : l;
        if (inner == null || !outer.block.isAncestorOf(b)) {
            // Both tables are outside this block: the equality holds only where the subquery matches.
            return;
        }
        if (nullableSide != null && !nullableSide.contains(inner)) {
            return;
        }
        correlation(outer, inner, b.positive && nullableSide == null);
    }

    private void correlation(Binding outer, Binding inner, boolean positive) {
        edges.add(new Edge(outer, inner, true, positive, true));
    }

    /** {@code k IN (SELECT k2 FROM ...)}: the subquery's rows that matter have the outer key. */
    private void semiJoinOnKey(Expr.InSubquery in, Unit u, Block b, boolean positive) {
        Binding outer = shardingColumn(in.operand(), b);
        if (outer == null || u.setOperation || u.branches.size() != 1) {
            return;
        }
        Block q = u.branches.get(0);
        if (q.select == null || q.select.items().size() != 1
                || !(q.select.items().get(0) instanceof SelectItem.Column c)) {
            return;
        }
        Select s = q.select;
        // The membership test comes after the subquery: its rows must not depend on other keys' rows.
        if (s.limit() != null || !s.groupBy().isEmpty() || s.having() != null || Exprs.containsAggregate(c.expr())
                || Exprs.anyMatch(c.expr(), x -> x instanceof Expr.FunctionCall f && f.isWindow())) {
            return;
        }
        Binding inner = shardingColumn(c.expr(), q);
        if (inner != null && inner.block == q && !inner.nullable
                && inner.sharded().keyspace().equals(outer.sharded().keyspace())) {
            correlation(outer, inner, positive && outer.block == b);
        }
    }

    private void usingColumn(String column, List<Binding> left, List<Binding> right, Block b, Set<Binding> nullableSide) {
        Binding l = onlyWithKey(left, column);
        Binding r = onlyWithKey(right, column);
        if (l != null && r != null) {
            edge(l, r, b, nullableSide);
        }
    }

    private static Binding onlyWithKey(List<Binding> side, String column) {
        Binding found = null;
        for (Binding t : side) {
            if (t.sharded() != null && t.sharded().column().equalsIgnoreCase(column)) {
                if (found != null) {
                    return null;
                }
                found = t;
            }
        }
        return found;
    }

    /** Subqueries of a select item, HAVING, ORDER BY or GROUP BY: they filter no outer row. */
    void subqueries(Expr e, Block b) {
        if (e == null) {
            return;
        }
        Exprs.walk(e, x -> {
            for (Query q : x.subqueries()) {
                b.subqueries.add(query(q, b, Role.SUBQUERY, false));
            }
        });
    }

    /**
     * A key value: a slot, a negated slot, or one with a COLLATE under which equal strings fold
     * alike. Anything else cannot narrow the shard.
     */
    static KeyValue value(Expr e) {
        e = withoutCollate(e);
        if (e instanceof Expr.Slot s) {
            return new KeyValue.SlotValue(s.slot(), false);
        }
        if (e instanceof Expr.Unary u && u.operand() instanceof Expr.Slot s) {
            if (u.op() == Expr.UnaryOp.MINUS) {
                return new KeyValue.SlotValue(s.slot(), true);
            }
            if (u.op() == Expr.UnaryOp.PLUS) {
                return new KeyValue.SlotValue(s.slot(), false);
            }
        }
        return null;
    }

    /**
     * {@code x COLLATE c} as {@code x} where {@code c} decides no equality between strings of
     * different folded keys ({@link KeyCollations}): the rows it matches are on the shards the
     * value's key points to. Numbers read from a string alike under every collation.
     */
    private static Expr withoutCollate(Expr e) {
        while (e instanceof Expr.Binary bin && bin.op() == Expr.BinaryOp.COLLATE
                && bin.right() instanceof Expr.Literal name && name.kind() == Expr.LiteralKind.WORD
                && KeyCollations.foldCovers(name.text())) {
            e = bin.left();
        }
        return e;
    }

    /**
     * The sharded table whose sharding column {@code e} is, looking outwards for correlated
     * references; null when it is not one, or cannot be told (a derived table's column, an
     * ambiguous name).
     */
    Binding shardingColumn(Expr e, Block b) {
        if (!(withoutCollate(e) instanceof Expr.ColumnRef c)) {
            return null;
        }
        for (Block block = b; block != null; block = block.parent) {
            if (c.table() != null) {
                for (Binding t : block.tables) {
                    if (t.exposed.equalsIgnoreCase(c.table())) {
                        return t.sharded() != null && t.sharded().column().equalsIgnoreCase(c.column()) ? t : null;
                    }
                }
                for (DerivedSource d : block.derived) {
                    if (d.alias() != null && d.alias().equalsIgnoreCase(c.table())) {
                        return null;
                    }
                }
                continue;
            }
            Binding found = null;
            for (Binding t : block.tables) {
                if (t.sharded() != null && t.sharded().column().equalsIgnoreCase(c.column())) {
                    if (found != null) {
                        return null;
                    }
                    found = t;
                }
            }
            if (found != null) {
                return block.derived.isEmpty() ? found : null;
            }
            if (!block.tables.isEmpty() || !block.derived.isEmpty()) {
                return null;
            }
        }
        return null;
    }

    // ---- results ----------------------------------------------------------------------------

    List<Edge> edges() {
        return edges;
    }

    List<Binding> bindings() {
        return bindings;
    }

    List<Block> blocks() {
        return blocks;
    }

    /** The sharded tables, in the order the statement names them. */
    List<Binding> sharded() {
        return sharded;
    }

    boolean hasNestedBlocks() {
        for (Block b : blocks) {
            if (b.role != Role.TOP) {
                return true;
            }
        }
        return false;
    }

    /** Which sharded tables meet on one shard, and the key values that hold them (made once). */
    KeyClasses keyClasses() {
        if (keyClasses == null) {
            keyClasses = new KeyClasses(this);
        }
        return keyClasses;
    }

    /** The root of a sharded table's group within its block. */
    int blockGroup(Binding b) {
        return keyClasses().blockGroup(b);
    }

    /**
     * The target: a fixed shard, keyed classes, or any shard; or a refusal message when unsharded
     * tables live on different shards.
     */
    Object target() {
        return keyClasses().target();
    }
}
