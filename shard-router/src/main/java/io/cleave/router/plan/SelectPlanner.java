package io.cleave.router.plan;

import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;

/**
 * Plans SELECT: the shards its tables and key conditions allow, and, when that can be several,
 * how their answers merge (or why they cannot).
 */
final class SelectPlanner {

    private final PlanContext ctx;

    SelectPlanner(PlanContext ctx) {
        this.ctx = ctx;
    }

    Plan plan(Query q) {
        KeyAnalyzer analyzer = new KeyAnalyzer(ctx.topology);
        analyzer.query(q, null, false);
        Object target = analyzer.target();
        if (target instanceof String refusal) {
            return Plan.Refuse.notSupported(q.kind(), refusal);
        }
        boolean locking = q instanceof Select s && s.locking() != null;
        Pin pin = Planner.pinOf(q);
        if (pin == Pin.NAMED_LOCK || pin == Pin.RELEASE_NAMED_LOCK) {
            // Named locks only exclude each other on one server: every session takes them on the default shard.
            if (!(target instanceof Target.AnyShard)) {
                return Planner.refuse(q, "GET_LOCK() and RELEASE_LOCK() in a statement that reads tables are not"
                        + " supported: call them on their own");
            }
            target = new Target.Shard(ctx.topology.defaultShard());
        }
        Plan.Spread several = target instanceof Target.Keyed keyed ? multiShard(q, analyzer, keyed) : null;
        return new Plan.Route(q.kind(), (Target) target, Planner.access(false, locking),
                Effects.of(pin, Planner.usesLastInsertId(q), Planner.previousConnection(q)), several);
    }

    private Plan.Spread multiShard(Query q, KeyAnalyzer analyzer, Target.Keyed keyed) {
        if (keyed.classes().size() > 1 || !keyed.homeShards().isEmpty()) {
            // Only one shard can answer: the resolver refuses if the keys land on different shards.
            return refused(q, keyed.notColocatedMessage());
        }
        String tables = String.join(", ", keyed.classes().get(0).tables());
        if (analyzer.hasSetOperation() || !(q instanceof Select select)) {
            return refused(q, "UNION, INTERSECT and EXCEPT over " + tables + " on several shards are not supported"
                    + " across shards");
        }
        if (!analyzer.nestedBlocksShardLocal()) {
            return refused(q, "a subquery or derived table over " + tables + " needs rows of other shards (it aggregates,"
                    + " is DISTINCT or LIMITed without being tied to the outer rows by the sharding key): not supported"
                    + " across shards");
        }
        try {
            return new ScatterRewriter(ctx, select).rewrite();
        } catch (PlanningException e) {
            return new Plan.Refuse(q.kind(), e.code, e.sqlState, e.getMessage());
        }
    }

    private static Plan.Refuse refused(Query q, String message) {
        return Plan.Refuse.notSupported(q.kind(), message);
    }
}
