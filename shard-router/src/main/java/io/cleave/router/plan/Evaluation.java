package io.cleave.router.plan;

import io.cleave.router.plan.QueryParts.Binding;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fallback for a read over several shards that no merge rule answers exactly: gather the rows
 * of the tables it names into one shard's session and let that server run the statement itself
 * ({@link Plan.Evaluate}). Chosen only for plain reads: a locking read would lock copies, and a
 * read that leaves state on its connection (INTO, SQL_CALC_FOUND_ROWS, locks, variables) would
 * leave it on the wrong one, so those keep the merge's refusal.
 */
final class Evaluation {

    private Evaluation() {
    }

    /** The evaluation that replaces {@code refusal}, or the refusal when the statement cannot be evaluated. */
    static Plan.Spread orRefusal(Query q, KeyAnalyzer analyzer, Topology topology, Plan.Refuse refusal) {
        if (!plainRead(q)) {
            return refusal;
        }
        Map<String, Plan.GatheredTable> gathered = new LinkedHashMap<>();
        int shard = -1;
        for (Binding b : analyzer.bindings()) {
            if (b.rule instanceof TableRule.Unsharded u && shard < 0) {
                // The first unsharded table's home answers: its rows need not move.
                shard = u.homeShard();
            }
        }
        if (shard < 0) {
            shard = topology.defaultShard();
        }
        for (Binding b : analyzer.bindings()) {
            Plan.GatheredTable t;
            if (b.sharded() != null) {
                t = new Plan.GatheredTable(b.schema, b.table, b.sharded().keyspace(), b.sharded().column(), -1);
            } else if (b.rule instanceof TableRule.Unsharded u && u.homeShard() != shard) {
                t = new Plan.GatheredTable(b.schema, b.table, null, null, u.homeShard());
            } else {
                continue;
            }
            String name = (b.schema == null ? "" : b.schema.toLowerCase(Locale.ROOT) + ".")
                    + b.table.toLowerCase(Locale.ROOT);
            gathered.putIfAbsent(name, t);
        }
        if (gathered.isEmpty()) {
            return refusal;
        }
        return new Plan.Evaluate(shard, new ArrayList<>(gathered.values()), Set.of(ScatterRule.EVALUATED_ON_ONE_SHARD),
                refusal.message(), valuesInSelectList(analyzer.top(), new java.util.HashSet<>()));
    }

    /**
     * True when a select list of the query, or of one nested in it, holds a value slot. Whether a
     * slot is a literal or a parameter marker depends on the text, not the shape the plan is
     * cached for, so the plan only says where slots are.
     */
    private static boolean valuesInSelectList(QueryParts.Unit u, Set<QueryParts.Unit> seen) {
        if (!seen.add(u)) {
            return false;
        }
        for (QueryParts.Block b : u.branches) {
            if (b.select != null) {
                for (SelectItem item : b.select.items()) {
                    boolean[] found = {false};
                    if (item instanceof SelectItem.Column c) {
                        Exprs.walk(c.expr(), e -> found[0] |= e instanceof Expr.Slot);
                    }
                    if (found[0]) {
                        return true;
                    }
                }
            }
            for (QueryParts.DerivedSource d : b.derived) {
                if (valuesInSelectList(d.unit(), seen)) {
                    return true;
                }
            }
            for (QueryParts.Unit s : b.subqueries) {
                if (valuesInSelectList(s, seen)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A read that leaves nothing on its connection and locks nothing. */
    private static boolean plainRead(Query q) {
        if (q instanceof Select s) {
            return s.into() == null && s.locking() == null && !s.options().calcFoundRows();
        }
        if (q instanceof Query.SetOperation op) {
            return plainRead(op.left()) && plainRead(op.right());
        }
        if (q instanceof Query.Parenthesized p) {
            return plainRead(p.query());
        }
        return false;
    }
}
