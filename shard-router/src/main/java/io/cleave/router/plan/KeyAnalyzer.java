package io.cleave.router.plan;

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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds what decides a statement's shard: every table it reads or writes (subqueries included),
 * which sharded tables are joined on their sharding columns (co-located classes), and the key
 * values the WHERE and inner-join conditions pin them to ({@code = v} or {@code IN (...)}).
 */
final class KeyAnalyzer {

    static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "mysql", "performance_schema", "sys");

    /** One table in a query block. */
    static final class Binding {
        final String exposed;
        final String table;
        final TableRule rule;
        final Block block;
        final boolean system;
        int id = -1;
        KeyValue equality;
        List<KeyValue> in;

        Binding(String exposed, String table, TableRule rule, Block block, boolean system) {
            this.exposed = exposed;
            this.table = table;
            this.rule = rule;
            this.block = block;
            this.system = system;
        }

        TableRule.Sharded sharded() {
            return rule instanceof TableRule.Sharded s ? s : null;
        }
    }

    /** A SELECT block (or the statement itself for INSERT/UPDATE/DELETE targets). */
    static final class Block {
        final Block parent;
        final boolean nested;
        final List<Binding> tables = new ArrayList<>();
        boolean summarizes;
        boolean linkedByKey;

        Block(Block parent, boolean nested) {
            this.parent = parent;
            this.nested = nested;
        }
    }

    private final Topology topology;
    private final List<Binding> bindings = new ArrayList<>();
    private final List<Binding> sharded = new ArrayList<>();
    private final List<Block> blocks = new ArrayList<>();
    private final List<Set<String>> cteScopes = new ArrayList<>();
    private int[] parent = new int[8];
    private boolean setOperation;

    KeyAnalyzer(Topology topology) {
        this.topology = topology;
    }

    // ---- walking ---------------------------------------------------------------------------

    Block newBlock(Block parentBlock, boolean nested) {
        Block b = new Block(parentBlock, nested);
        blocks.add(b);
        return b;
    }

    void query(Query q, Block parentBlock, boolean nested) {
        Query.With with = q.with();
        if (with != null) {
            Set<String> names = new java.util.HashSet<>();
            for (Query.Cte cte : with.ctes()) {
                names.add(cte.name().value().toLowerCase(Locale.ROOT));
            }
            cteScopes.add(names);
            for (Query.Cte cte : with.ctes()) {
                query(cte.query(), parentBlock, true);
            }
        }
        if (q instanceof Select s) {
            select(s, parentBlock, nested);
        } else if (q instanceof Query.SetOperation op) {
            setOperation = true;
            query(op.left(), parentBlock, nested);
            query(op.right(), parentBlock, nested);
        } else if (q instanceof Query.Parenthesized p) {
            query(p.query(), parentBlock, nested);
        }
        if (with != null) {
            cteScopes.remove(cteScopes.size() - 1);
        }
    }

    private void select(Select s, Block parentBlock, boolean nested) {
        Block b = newBlock(parentBlock, nested);
        for (TableRef ref : s.from()) {
            ref(ref, b);
        }
        conditions(s.where(), b, true);
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
        if (nested) {
            boolean aggregates = false;
            for (SelectItem item : s.items()) {
                aggregates |= item instanceof SelectItem.Column c && Exprs.containsAggregate(c.expr());
            }
            b.summarizes = aggregates || !s.groupBy().isEmpty() || s.options().distinct() || s.limit() != null;
        }
    }

    void ref(TableRef ref, Block b) {
        if (ref instanceof TableRef.Table t) {
            table(t.name(), t.exposedName(), b);
        } else if (ref instanceof TableRef.Derived d) {
            query(d.query(), b, true);
        } else if (ref instanceof TableRef.Join j) {
            ref(j.left(), b);
            ref(j.right(), b);
            boolean inner = j.kind() == TableRef.JoinKind.INNER || j.kind() == TableRef.JoinKind.CROSS
                    || j.kind() == TableRef.JoinKind.COMMA || j.kind() == TableRef.JoinKind.STRAIGHT;
            conditions(j.on(), b, inner);
            for (Name column : j.using()) {
                usingColumn(column.value(), b);
            }
        }
    }

    /** Adds a table of a block; returns its binding (null for CTE references). */
    Binding table(TableName name, String exposed, Block b) {
        String lower = name.name().toLowerCase(Locale.ROOT);
        if (name.schema() == null) {
            for (Set<String> names : cteScopes) {
                if (names.contains(lower)) {
                    return null;
                }
            }
        }
        boolean system = name.schema() != null && SYSTEM_SCHEMAS.contains(name.schema().toLowerCase(Locale.ROOT));
        TableRule rule = system || lower.equals("dual") ? null : topology.ruleFor(name.name());
        Binding binding = new Binding(exposed.toLowerCase(Locale.ROOT), name.name(), rule, b, system || rule == null);
        b.tables.add(binding);
        bindings.add(binding);
        if (binding.sharded() != null) {
            binding.id = sharded.size();
            sharded.add(binding);
            if (parent.length <= binding.id) {
                parent = java.util.Arrays.copyOf(parent, parent.length * 2);
            }
            parent[binding.id] = binding.id;
        }
        return binding;
    }

    void conditions(Expr condition, Block b, boolean filter) {
        if (condition == null) {
            return;
        }
        for (Expr e : Exprs.conjuncts(condition)) {
            condition(e, b, filter);
        }
        subqueries(condition, b);
    }

    private void condition(Expr e, Block b, boolean filter) {
        if (e instanceof Expr.Binary bin
                && (bin.op() == Expr.BinaryOp.EQ || bin.op() == Expr.BinaryOp.NULL_SAFE_EQ)) {
            Binding l = shardingColumn(bin.left(), b);
            Binding r = shardingColumn(bin.right(), b);
            if (l != null && r != null) {
                if (l.sharded().keyspace().equals(r.sharded().keyspace())) {
                    union(l, r);
                    if (l.block != r.block) {
                        l.block.linkedByKey = true;
                        r.block.linkedByKey = true;
                    }
                }
                return;
            }
            if (filter && l != null) {
                equality(l, value(bin.right()));
            } else if (filter && r != null) {
                equality(r, value(bin.left()));
            }
        } else if (filter && e instanceof Expr.InList in && !in.negated()) {
            Binding target = shardingColumn(in.operand(), b);
            if (target == null || target.in != null) {
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
            target.in = values;
        }
    }

    private void equality(Binding b, KeyValue value) {
        if (value != null && b.equality == null) {
            b.equality = value;
        }
    }

    private void usingColumn(String column, Block b) {
        Binding first = null;
        for (Binding t : b.tables) {
            if (t.sharded() != null && t.sharded().column().equalsIgnoreCase(column)) {
                if (first == null) {
                    first = t;
                } else if (first.sharded().keyspace().equals(t.sharded().keyspace())) {
                    union(first, t);
                }
            }
        }
    }

    void subqueries(Expr e, Block b) {
        if (e == null) {
            return;
        }
        Exprs.walk(e, x -> {
            for (Query q : x.subqueries()) {
                query(q, b, true);
            }
        });
    }

    /** A key value: a slot, a negated slot. Anything else cannot narrow the shard. */
    static KeyValue value(Expr e) {
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

    /** The sharded table whose sharding column {@code e} is, looking outwards for correlated references. */
    Binding shardingColumn(Expr e, Block b) {
        if (!(e instanceof Expr.ColumnRef c)) {
            return null;
        }
        for (Block block = b; block != null; block = block.parent) {
            if (c.table() != null) {
                for (Binding t : block.tables) {
                    if (t.exposed.equalsIgnoreCase(c.table())) {
                        return t.sharded() != null && t.sharded().column().equalsIgnoreCase(c.column()) ? t : null;
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
            if (found != null || !block.tables.isEmpty()) {
                return found;
            }
        }
        return null;
    }

    private int find(int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private void union(Binding a, Binding b) {
        parent[find(a.id)] = find(b.id);
    }

    // ---- results ---------------------------------------------------------------------------

    List<Binding> bindings() {
        return bindings;
    }

    boolean hasSetOperation() {
        return setOperation;
    }

    boolean hasNestedBlocks() {
        for (Block b : blocks) {
            if (b.nested) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the statement can run on several shards and be merged: every nested block that reads
     * sharded tables either is tied to the outer rows by the key (so each shard has all it needs)
     * or is a plain filter (no aggregate, DISTINCT, GROUP BY or LIMIT whose answer needs all shards).
     */
    boolean nestedBlocksShardLocal() {
        for (Block b : blocks) {
            if (!b.nested) {
                continue;
            }
            boolean readsSharded = false;
            for (Binding t : b.tables) {
                readsSharded |= t.sharded() != null;
            }
            if (readsSharded && b.summarizes && !b.linkedByKey) {
                return false;
            }
        }
        return true;
    }

    List<KeyClass> classes() {
        Map<Integer, List<Binding>> byRoot = new LinkedHashMap<>();
        for (Binding b : sharded) {
            byRoot.computeIfAbsent(find(b.id), k -> new ArrayList<>()).add(b);
        }
        List<KeyClass> out = new ArrayList<>();
        for (List<Binding> members : byRoot.values()) {
            Set<String> tables = new LinkedHashSet<>();
            KeyValue equality = null;
            List<KeyValue> in = null;
            for (Binding m : members) {
                tables.add(m.table);
                if (equality == null && m.equality != null) {
                    equality = m.equality;
                }
                if (in == null && m.in != null) {
                    in = m.in;
                }
            }
            List<KeyValue> values = equality != null ? List.of(equality) : in != null ? in : List.of();
            out.add(new KeyClass(topology.keyspace(members.get(0).sharded().keyspace()), new ArrayList<>(tables), values));
        }
        return out;
    }

    /** Homes of the unsharded tables, and the names of those tables per home. */
    Map<Integer, Set<String>> homes() {
        Map<Integer, Set<String>> homes = new LinkedHashMap<>();
        for (Binding b : bindings) {
            if (b.rule instanceof TableRule.Unsharded u) {
                homes.computeIfAbsent(u.homeShard(), k -> new LinkedHashSet<>()).add(b.table);
            }
        }
        return homes;
    }

    /**
     * The target: a fixed shard, keyed classes, or any shard; or a refusal message when unsharded
     * tables live on different shards.
     */
    Object target() {
        List<KeyClass> classes = classes();
        Map<Integer, Set<String>> homes = homes();
        if (classes.isEmpty()) {
            if (homes.isEmpty()) {
                return new Target.AnyShard();
            }
            if (homes.size() == 1) {
                return new Target.Shard(homes.keySet().iterator().next());
            }
            List<String> parts = new ArrayList<>();
            homes.forEach((shard, tables) -> parts.add(String.join(", ", tables) + " (shard " + shard + ")"));
            return "join between " + String.join(" and ", parts)
                    + " is not possible: these unsharded tables live on different shards";
        }
        return new Target.Keyed(classes, new ArrayList<>(homes.keySet()), notColocatedMessage(classes, homes));
    }

    /** Why the classes (and homes) cannot meet on one shard: the error when their keys disagree. */
    private String notColocatedMessage(List<KeyClass> classes, Map<Integer, Set<String>> homes) {
        List<String> parts = new ArrayList<>();
        Set<String> keyspaces = new LinkedHashSet<>();
        for (KeyClass c : classes) {
            parts.add(String.join(", ", c.tables()));
            keyspaces.add(c.keyspace().name());
        }
        homes.forEach((shard, tables) -> parts.add(String.join(", ", tables) + " (unsharded, shard " + shard + ")"));
        if (parts.size() == 1) {
            return String.join(", ", classes.get(0).tables()) + " rows on more than one shard cannot be combined here:"
                    + " not supported across shards";
        }
        if (setOperation) {
            return "UNION, INTERSECT and EXCEPT of " + String.join(" and ", parts) + " on different shards are not"
                    + " supported across shards";
        }
        String nested = nestedOnlyTables();
        if (nested != null) {
            return "a subquery over " + nested + " is not tied to the outer rows by the sharding key, so it needs rows"
                    + " of other shards: not supported across shards";
        }
        return "join between " + String.join(" and ", parts) + " is not co-located on "
                + String.join("/", keyspaces) + ": not supported across shards";
    }

    /** The tables of a key class that lives only in subqueries or derived tables, or null. */
    private String nestedOnlyTables() {
        Map<Integer, Boolean> nestedOnly = new LinkedHashMap<>();
        Map<Integer, Set<String>> tables = new LinkedHashMap<>();
        for (Binding b : sharded) {
            int root = find(b.id);
            nestedOnly.merge(root, b.block.nested, Boolean::logicalAnd);
            tables.computeIfAbsent(root, k -> new LinkedHashSet<>()).add(b.table);
        }
        for (Map.Entry<Integer, Boolean> e : nestedOnly.entrySet()) {
            if (e.getValue()) {
                return String.join(", ", tables.get(e.getKey()));
            }
        }
        return null;
    }
}
