package io.cleave.router.plan;

import io.cleave.router.plan.QueryParts.Binding;
import io.cleave.router.plan.QueryParts.Block;
import io.cleave.router.plan.QueryParts.Edge;
import io.cleave.router.plan.QueryParts.Role;
import io.cleave.router.plan.QueryParts.Unit;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the analyzed equalities and key conditions of a statement make of its sharded tables: the
 * groups whose rows meet on one shard (key classes), the key values that hold each class, and
 * the target and its error when classes do not meet. Only what holds for every row the answer
 * depends on counts (see {@link KeyAnalyzer}).
 */
final class KeyClasses {

    private final Topology topology;
    private final List<Binding> sharded;
    private final List<Binding> bindings;
    private final List<Edge> edges;
    private final Unit top;
    private int[] parent;
    private int[] intraRoot;
    private Map<Binding, List<List<KeyValue>>> pins;

    KeyClasses(KeyAnalyzer analyzer) {
        this.topology = analyzer.topology();
        this.sharded = analyzer.sharded();
        this.bindings = analyzer.bindings();
        this.edges = analyzer.edges();
        this.top = analyzer.top();
        group();
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

    /**
     * Groups the sharded tables whose rows meet on one shard. Equalities within a block join
     * their tables; a subquery's group then joins the one outer group it is tied to (tying it to a
     * second one would claim two outer tables meet, which the subquery does not make true).
     */
    private void group() {
        parent = new int[sharded.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (Edge e : edges) {
            if (!e.correlation()) {
                union(e.a(), e.b());
            }
        }
        intraRoot = new int[parent.length];
        for (int i = 0; i < parent.length; i++) {
            intraRoot[i] = find(i);
        }
        Map<Integer, Binding> tiedTo = new HashMap<>();
        for (Edge e : edges) {
            if (!e.correlation()) {
                continue;
            }
            Binding earlier = tiedTo.putIfAbsent(intraRoot[e.b().id], e.a());
            if (earlier == null || find(earlier.id) == find(e.a().id)) {
                union(e.a(), e.b());
            }
        }
        if (top != null && top.setOperation && top.unionAll) {
            // UNION ALL concatenates its branches: they need not meet on one shard, only reach the same shards.
            Binding first = null;
            for (Block branch : top.branches) {
                for (Binding t : branch.tables) {
                    if (t.sharded() != null) {
                        if (first == null) {
                            first = t;
                        } else if (first.sharded().keyspace().equals(t.sharded().keyspace())) {
                            union(first, t);
                        }
                        break;
                    }
                }
            }
        }
        pins = pins();
    }

    /** The key restrictions that hold each table's relevant rows: its own, and those passed along equalities. */
    private Map<Binding, List<List<KeyValue>>> pins() {
        Map<Binding, List<List<KeyValue>>> out = new HashMap<>();
        for (Binding b : sharded) {
            out.put(b, new ArrayList<>(b.restrictions));
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Edge e : edges) {
                if (e.aToB()) {
                    changed |= pass(out.get(e.a()), out.get(e.b()));
                }
                if (e.bToA()) {
                    changed |= pass(out.get(e.b()), out.get(e.a()));
                }
            }
        }
        return out;
    }

    private static final int MAX_RESTRICTIONS = 8;

    private static boolean pass(List<List<KeyValue>> from, List<List<KeyValue>> to) {
        boolean changed = false;
        for (List<KeyValue> r : from) {
            if (!to.contains(r) && to.size() < MAX_RESTRICTIONS) {
                to.add(r);
                changed = true;
            }
        }
        return changed;
    }

    /** The root of a sharded table's group within its block. */
    int blockGroup(Binding b) {
        return intraRoot[b.id];
    }

    List<KeyClass> classes() {
        Map<Integer, List<Binding>> byRoot = new LinkedHashMap<>();
        for (Binding b : sharded) {
            byRoot.computeIfAbsent(find(b.id), k -> new ArrayList<>()).add(b);
        }
        List<KeyClass> out = new ArrayList<>();
        for (List<Binding> members : byRoot.values()) {
            Set<String> tables = new LinkedHashSet<>();
            Map<Block, List<List<KeyValue>>> byArm = new LinkedHashMap<>();
            boolean all = true;
            for (Binding m : members) {
                tables.add(m.table);
                List<List<KeyValue>> pinned = pins.get(m);
                all &= !pinned.isEmpty();
                pass(pinned, byArm.computeIfAbsent(unionAllArm(m), k -> new ArrayList<>()));
            }
            out.add(new KeyClass(topology.keyspace(members.get(0).sharded().keyspace()), new ArrayList<>(tables),
                    all ? new ArrayList<>(byArm.values()) : List.of()));
        }
        return out;
    }

    /**
     * The arm of the statement's UNION ALL a table is read in, or null when the statement is no
     * UNION ALL. The arms' rows are concatenated, so a key condition of one arm holds that arm's
     * rows only: each arm is an alternative of its class, never a restriction of the others.
     */
    private Block unionAllArm(Binding b) {
        if (top == null || !top.setOperation || !top.unionAll) {
            return null;
        }
        Block block = b.block;
        while (block.parent != null) {
            block = block.parent;
        }
        return top.branches.contains(block) ? block : null;
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
        Map<Integer, Set<String>> byClass = new LinkedHashMap<>();
        for (Binding b : sharded) {
            byClass.computeIfAbsent(find(b.id), k -> new LinkedHashSet<>()).add(b.describe());
        }
        List<String> parts = new ArrayList<>();
        Set<String> keyspaces = new LinkedHashSet<>();
        for (Set<String> tables : byClass.values()) {
            parts.add(String.join(", ", tables));
        }
        for (KeyClass c : classes) {
            keyspaces.add(c.keyspace().name());
        }
        homes.forEach((shard, tables) -> parts.add(String.join(", ", tables) + " (unsharded, shard " + shard + ")"));
        if (parts.size() == 1) {
            return parts.get(0) + " rows on more than one shard cannot be combined here: not supported across shards";
        }
        if (setOperation()) {
            return "UNION, INTERSECT and EXCEPT of " + String.join(" and ", parts) + " on different shards are not"
                    + " supported across shards";
        }
        String nested = nestedOnlyTables();
        if (nested != null) {
            return "a subquery over " + nested + " is not tied to the outer rows by the sharding key, so it needs rows"
                    + " of other shards: not supported across shards";
        }
        return "join between " + String.join(" and ", parts) + " is not co-located on " + String.join("/", keyspaces)
                + " (not joined on equal sharding keys): not supported across shards";
    }

    private boolean setOperation() {
        return top != null && top.setOperation;
    }

    /** The tables of a key class that lives only in subqueries or derived tables, or null. */
    private String nestedOnlyTables() {
        Map<Integer, Boolean> nestedOnly = new LinkedHashMap<>();
        Map<Integer, Set<String>> tables = new LinkedHashMap<>();
        for (Binding b : sharded) {
            int root = find(b.id);
            nestedOnly.merge(root, b.block.role != Role.TOP, Boolean::logicalAnd);
            tables.computeIfAbsent(root, k -> new LinkedHashSet<>()).add(b.describe());
        }
        for (Map.Entry<Integer, Boolean> e : nestedOnly.entrySet()) {
            if (e.getValue()) {
                return String.join(", ", tables.get(e.getKey()));
            }
        }
        return null;
    }
}
