package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.MergeNotSupportedException;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.ResultMerger;
import io.cleave.proxy.merge.SessionMergeSettings;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SqlRenderer;

import java.util.ArrayList;
import java.util.List;

/**
 * A read over several shards: the plan's rewrite goes to each (inside the session's transaction
 * when it has one), their rows are collected and merged as the plan's {@link MergeSpec} says
 * (order, groups, DISTINCT, HAVING, OFFSET/LIMIT), and the client gets the one result a single
 * server would have given, in the protocol it asked in.
 */
final class MergedRead {

    private final Session session;
    private final FanOutWrites writes;

    MergedRead(Session session, FanOutWrites writes) {
        this.session = session;
        this.writes = writes;
    }

    void run(Command command, Plan.Route route, Plan.Merge merge, int[] shards) {
        command.served(RouteKind.MULTI_SHARD);
        List<byte[]> perShard = ShardTexts.render(session, command, merge.sql(), shards);
        if (perShard == null) {
            return;
        }
        // What the merge needs of the statement's values is taken now: a text statement's values
        // are its event loop's, reused by the next statement analyzed there before the shards answer.
        MergeSpec spec = merge.spec();
        long offset;
        long count;
        ParameterValues having;
        try {
            offset = spec.offset() == null ? 0 : SqlRenderer.value(spec.offset(), command.values());
            count = spec.count() == null ? Long.MAX_VALUE : SqlRenderer.value(spec.count(), command.values());
            having = spec.grouping() == null || spec.grouping().having() == null ? null
                    : new HavingValues(spec.grouping().having(), command.values());
        } catch (IllegalArgumentException | ArithmeticException e) {
            command.refuse(e.getMessage());
            return;
        }
        boolean inTransaction = session.inTransaction(command);
        if (inTransaction && route.lockingRead()) {
            for (int shard : shards) {
                session.transaction().markWritten(shard);
            }
        }
        command.clearLongData();
        SessionCuts cuts = session.cuts();
        if (!inTransaction && !route.lockingRead() && cuts.forRead(shards.length)) {
            // The shards are read at one cut, so no transaction across them is seen half-committed.
            cuts.read(command, shards, session.settingsFor(command), atCut -> read(command, atCut, false, shards,
                    perShard, spec, offset, count, having));
        } else if (inTransaction && cuts.forFirstRead(shards.length, route.lockingRead())) {
            cuts.join(command, shards, () -> read(command, new CommandLegs(session, command), true, shards, perShard,
                    spec, offset, count, having));
        } else {
            read(command, new CommandLegs(session, command), inTransaction, shards, perShard, spec, offset, count,
                    having);
        }
    }

    private void read(Command command, ExchangeContext legs, boolean inTransaction, int[] shards, List<byte[]> perShard,
                      MergeSpec spec, long offset, long count, ParameterValues having) {
        MultiExchange multi = new MultiExchange(legs, inTransaction,
                results -> merged(command, results, spec, offset, count, having));
        for (int i = 0; i < shards.length; i++) {
            multi.leg(shards[i], perShard.get(i));
        }
        multi.start();
    }

    /** Merges the shards' rows and writes the one result a single server would have given. */
    private void merged(Command command, List<LegResult> results, MergeSpec spec, long offset, long count,
                        ParameterValues havingValues) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                writes.afterTransactionalLegs(command, results, () -> command.error(leg.errorPacket()));
                return;
            }
        }
        LegResult first = results.get(0);
        if (!first.resultSet) {
            writes.written(command, results, true, "statement");
            return;
        }
        List<TextRow> rows = new ArrayList<>();
        int warnings = 0;
        for (LegResult leg : results) {
            if (leg.columns.size() != first.columns.size()) {
                command.error(1105, "HY000", "shards " + first.shard + " and " + leg.shard
                        + " returned different columns: their schemas differ");
                return;
            }
            rows.addAll(leg.rows);
            warnings += leg.warnings;
        }
        try {
            ResultMerger merger = new ResultMerger(spec, first.columns,
                    SessionMergeSettings.of(session.settings().systemVariables()));
            ResultMerger.RowFilter having = null;
            if (havingValues != null) {
                PredicateEvaluator evaluator = new PredicateEvaluator(first.columns, havingValues);
                having = row -> evaluator.test(spec.grouping().having(), row);
            }
            List<TextRow> out = merger.merge(rows, offset, count, having);
            List<ResultColumn> columns = merger.outputColumns();
            command.answer(columns, out, warnings);
        } catch (MergeNotSupportedException | IllegalArgumentException | ArithmeticException e) {
            command.refuse(e.getMessage());
        }
    }
}
