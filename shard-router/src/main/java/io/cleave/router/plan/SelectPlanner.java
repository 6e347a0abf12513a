package io.cleave.router.plan;

import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;

import java.util.List;
import java.util.Set;

/**
 * Plans SELECT: the shards its tables and key conditions allow, and, when that can be several,
 * how their answers merge, with the rules that prove the merge exact (or why it cannot be).
 */
final class SelectPlanner {

    private final PlanContext ctx;

    SelectPlanner(PlanContext ctx) {
        this.ctx = ctx;
    }

    Plan plan(Query q) {
        KeyAnalyzer analyzer = new KeyAnalyzer(ctx.topology);
        analyzer.query(q);
        Object target = analyzer.target();
        if (target instanceof String refusal) {
            return new Plan.Refuse(q.kind(), PlanningException.NOT_SUPPORTED, PlanningException.NOT_SUPPORTED_STATE,
                    refusal);
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
        if (target instanceof Target.AnyShard && (analyzer.readsSystemTables() || CatalogReads.answersDiffer(q))) {
            target = new Target.DefaultShard(CatalogReads.readsAutoIncrementStep(q));
        }
        Plan.Spread several = null;
        if (target instanceof Target.Keyed keyed) {
            several = multiShard(q, analyzer, keyed);
            if (several instanceof Plan.Refuse refusal && pin == Pin.NONE) {
                several = Evaluation.orRefusal(q, analyzer, ctx.topology, refusal);
            }
        }
        return new Plan.Route(q.kind(), (Target) target, Planner.access(false, locking),
                Effects.of(pin, Planner.usesLastInsertId(q), Planner.previousConnection(q)), several);
    }

    private Plan.Spread multiShard(Query q, KeyAnalyzer analyzer, Target.Keyed keyed) {
        if (keyed.classes().size() > 1 || !keyed.homeShards().isEmpty()) {
            // Only one shard can answer: the resolver refuses if the keys land on different shards.
            return Plan.Refuse.notSupported(q.kind(), keyed.notColocatedMessage());
        }
        try {
            Set<ScatterRule> rows = ScatterCheck.query(analyzer);
            if (!(q instanceof Select select)) {
                // UNION ALL of partitioned branches: the shards' answers concatenated.
                return new Plan.Merge(new SqlTemplate.Original(),
                        new MergeSpec(0, List.of(), null, false, null, null), rows);
            }
            boolean windows = rows.contains(ScatterRule.WINDOW_PARTITIONED_BY_KEY);
            return new ScatterRewriter(ctx, select, windows, rows).rewrite();
        } catch (PlanningException e) {
            return new Plan.Refuse(q.kind(), e.code, e.sqlState, e.getMessage());
        }
    }
}
