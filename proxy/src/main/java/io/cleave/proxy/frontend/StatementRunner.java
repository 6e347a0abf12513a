package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.merge.MergeNotSupportedException;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.ResultMerger;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.plan.Target;
import io.cleave.router.shardmap.ShardMap;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes a statement's plan for a session: relays single-shard statements, fans out and merges
 * multi-shard reads, sends writes to every shard they concern, splits multi-row inserts by key,
 * and refuses, with the plan's reason, what cannot be done correctly.
 */
final class StatementRunner {

    private final Session session;
    private final ShardExchange relay;
    private final SessionStatements sessionStatements;
    private final InsertSplitter inserts;

    StatementRunner(Session session, ShardExchange relay) {
        this.session = session;
        this.relay = relay;
        this.sessionStatements = new SessionStatements(session);
        this.inserts = new InsertSplitter(session, this);
    }

    // ---- COM_QUERY ---------------------------------------------------------------------------

    void query(Command command) {
        ByteBuf payload = command.payload();
        int length = payload.readableBytes() - 1;
        byte[] sql = session.loop().sqlBuffer(length);
        payload.getBytes(payload.readerIndex() + 1, sql, 0, length);
        Analysis analysis = session.runtime().router().analyze(sql, 0, length, session.sqlMode(),
                session.loop().analysis());
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement multi && !session.multiStatements()) {
            // Multi-statements are off (capability or COM_SET_OPTION): a server reads one statement.
            command.refuse(1064, "42000", "You have an error in your SQL syntax; check the manual that corresponds to"
                    + " your server version for the right syntax to use near '"
                    + analysis.tokens().text(multi.secondStatement(), analysis.tokens().size() - 1) + "' at line 1");
            return;
        }
        command.planned(plan, analysis, session.literals(analysis), null, false);
        if (!command.effects().previousConnection()) {
            session.connections().releaseWarningsConnection();
        }
        run(command);
    }

    void run(Command command) {
        Plan plan = command.plan();
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        if (plan instanceof Plan.Route r) {
            route(command, r);
        } else if (plan instanceof Plan.InsertSplit split) {
            inserts.run(command, split);
        } else if (plan instanceof Plan.Session s) {
            command.served(RouteKind.LOCAL);
            sessionStatements.handle(command, s);
        } else if (plan instanceof Plan.Local l) {
            command.served(RouteKind.LOCAL);
            LocalAnswers.answer(session, command, l);
        } else {
            Plan.Refuse refuse = (Plan.Refuse) plan;
            command.refuse(refuse.code(), refuse.sqlState(), refuse.message());
        }
    }

    // ---- routed statements -------------------------------------------------------------------

    private void route(Command command, Plan.Route r) {
        ShardMap map = session.runtime().shardMaps().current();
        Resolution resolution;
        try {
            resolution = session.runtime().resolver().resolve(r.target(), command.values(), map);
        } catch (IllegalArgumentException e) {
            command.refuse(e.getMessage());
            return;
        }
        if (resolution.isError()) {
            command.refuse(resolution.error());
            return;
        }
        if (resolution.isAny()) {
            SessionConnections connections = session.connections();
            if (r.effects().previousConnection() && !connections.hasWarningsConnection()
                    && r.kind().name().equals("SHOW")) {
                LocalAnswers.noWarnings(session, command);
                return;
            }
            single(command, r, r.effects().previousConnection() && connections.hasWarningsConnection()
                    ? connections.warningsShard() : session.anyShard());
        } else if (resolution.isSingle()) {
            single(command, r, resolution.shard());
        } else {
            multi(command, r, resolution.shards());
        }
    }

    /** Relays the client's own statement to one shard (the hot path). */
    void single(Command command, Plan.Route r, int shard) {
        TransactionState tx = session.transaction();
        boolean readAnywhere = r.target() instanceof Target.AnyShard && !r.write() && !r.lockingRead();
        // A read any shard could answer stays out of a transaction that has not reached a shard yet.
        boolean joins = session.inTransaction() && !(readAnywhere && tx.held(shard) == null);
        boolean forceInTransaction = tx.active() && !joins && tx.held(shard) == null;
        if (joins && (r.write() || r.lockingRead())) {
            tx.markWritten(shard);
        }
        command.served(RouteKind.SINGLE_SHARD);
        relay.run(command, shard, ResponseKind.RESULT,
                command.binary() ? ShardExchange.Mode.EXECUTE : ShardExchange.Mode.RELAY, command.statement(), joins,
                forceInTransaction);
    }

    private void multi(Command command, Plan.Route r, int[] shards) {
        Plan.Spread policy = r.several();
        if (policy == null) {
            command.refuse("statement resolved to several shards but has no way to combine them");
            return;
        }
        if (policy instanceof Plan.Refuse f) {
            command.refuse(f.code(), f.sqlState(), f.message());
            return;
        }
        boolean inTransaction = session.inTransaction();
        if (policy instanceof Plan.Merge merge) {
            command.served(RouteKind.MULTI_SHARD);
            byte[] sql = SqlRenderer.render(merge.sql(), command.analysis(), command.values());
            if (inTransaction && r.lockingRead()) {
                markWritten(shards);
            }
            MultiExchange multi = new MultiExchange(new CommandLegs(session, command), inTransaction,
                    results -> merged(command, results, merge.spec()));
            for (int shard : shards) {
                multi.leg(shard, sql);
            }
            command.clearLongData();
            multi.start();
            return;
        }
        Plan.FanOutWrite writeAll = (Plan.FanOutWrite) policy;
        command.served(RouteKind.BROADCAST);
        byte[] sql = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        List<byte[]> perShard = new ArrayList<>();
        for (int i = 0; i < shards.length; i++) {
            perShard.add(sql);
        }
        command.clearLongData();
        // DDL is not transactional on any server: it simply goes to every shard.
        boolean transactional = !r.kind().isDdl() && r.write();
        String what = r.kind().name().replace('_', ' ');
        Runnable send = () -> writeToShards(command, shards, perShard, transactional, writeAll.replicated(), what, 0);
        if (SequenceService.resetsSequences(r.kind())) {
            // A table created, dropped, emptied or renamed starts its ids afresh, as on one server.
            session.runtime().sequences().reset(sql, session.sqlMode(), session.settings().schema(), session.loop(),
                    send);
        } else {
            send.run();
        }
    }

    /**
     * Runs a write on several shards. Inside the session's transaction the shards join it, and a
     * statement savepoint on each makes the statement all-or-nothing there too: when it fails on
     * some shards, the others roll back to the savepoint, as one server undoes a failed statement.
     * Outside a transaction, a transactional write gets a transaction of its own, committed
     * atomically across the shards (or rolled back on all of them).
     *
     * @param firstGeneratedId an id the proxy generated for the first row (reported as the insert id), or 0
     */
    void writeToShards(Command command, int[] shards, List<byte[]> sql, boolean transactional, boolean replicated,
                       String what, long firstGeneratedId) {
        TransactionState tx = session.transaction();
        boolean inTransaction = session.inTransaction();
        boolean implicit = !inTransaction && transactional && shards.length > 1;
        boolean savepoint = inTransaction && transactional && shards.length > 1;
        if (implicit) {
            tx.beginImplicit();
        }
        if (inTransaction || implicit) {
            markWritten(shards);
        }
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), inTransaction || implicit,
                results -> {
                    if (firstGeneratedId > 0 && results.stream().allMatch(LegResult::ok)) {
                        // LAST_INSERT_ID() is the first id the statement generated, as on one server.
                        for (LegResult leg : results) {
                            leg.lastInsertId = 0;
                        }
                        results.get(0).lastInsertId = firstGeneratedId;
                    }
                    if (!implicit) {
                        if (savepoint && !results.stream().allMatch(LegResult::ok) && !lostTransaction(results)) {
                            if (partlyApplied(results)) {
                                undoStatement(command, results);
                            } else {
                                command.error(firstError(results));
                            }
                            return;
                        }
                        afterTransactionalLegs(results, () -> written(command, results, replicated, what));
                        return;
                    }
                    DistributedCommit end = new DistributedCommit(session);
                    if (results.stream().allMatch(LegResult::ok)) {
                        end.commit(error -> {
                            if (error != null) {
                                command.error(error);
                            } else {
                                written(command, results, replicated, what);
                            }
                        });
                    } else {
                        // Rolled back everywhere: the statement failed as a whole, as on one server.
                        end.rollback(ignored -> command.error(firstError(results)));
                    }
                });
        for (int i = 0; i < shards.length; i++) {
            multi.leg(shards[i], savepoint ? List.of(STATEMENT_SAVEPOINT, sql.get(i)) : List.of(sql.get(i)));
        }
        multi.start();
    }

    private static final byte[] STATEMENT_SAVEPOINT = "SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNDO_STATEMENT = "ROLLBACK TO SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);

    private static boolean partlyApplied(List<LegResult> results) {
        return results.stream().anyMatch(LegResult::ok) && !results.stream().allMatch(LegResult::ok);
    }

    /** A shard rolled the whole transaction back (deadlock) or its connection is gone: no statement undo helps. */
    private static boolean lostTransaction(List<LegResult> results) {
        for (LegResult leg : results) {
            if (leg.failure != null || leg.error != null && leg.error.errorCode() == DEADLOCK) {
                return true;
            }
        }
        return false;
    }

    private static final int DEADLOCK = 1213;

    /**
     * A statement of the transaction failed on some shards: the shards where it succeeded go back
     * to its savepoint, so the transaction goes on without any of it; the client gets the error.
     * If that fails, the whole transaction is rolled back.
     */
    private void undoStatement(Command command, List<LegResult> results) {
        ErrPacket error = firstError(results);
        MultiExchange undo = new MultiExchange(new CommandLegs(session, command), true, undone -> {
            if (undone.stream().allMatch(LegResult::ok)) {
                command.error(error);
                return;
            }
            DistributedCommit.rollBack(session, () -> command.error(error.errorCode(), error.sqlState(),
                    error.message() + "; undoing the statement on the shards where it had succeeded failed, so the"
                            + " transaction was rolled back"));
        });
        for (LegResult leg : results) {
            if (leg.ok()) {
                undo.leg(leg.shard, UNDO_STATEMENT);
            }
        }
        undo.start();
    }

    private static ErrPacket firstError(List<LegResult> results) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                return leg.errorPacket();
            }
        }
        throw new IllegalStateException("no shard failed");
    }

    /**
     * After legs that ran in the session's transaction: a deadlock, lock wait timeout or duplicate
     * key on one shard of a transaction that spans shards rolls the whole transaction back, so no
     * shard keeps half of it; the client then gets the original error.
     */
    private void afterTransactionalLegs(List<LegResult> results, Runnable then) {
        for (LegResult leg : results) {
            if (leg.error != null && session.transaction().abortedBy(leg.error.errorCode())) {
                DistributedCommit.rollBack(session, then);
                return;
            }
        }
        then.run();
    }

    private void markWritten(int[] shards) {
        for (int s : shards) {
            session.transaction().markWritten(s);
        }
    }

    /** Merges the shards' rows and writes the one result a single server would have given. */
    private void merged(Command command, List<LegResult> results, MergeSpec spec) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                afterTransactionalLegs(results, () -> command.error(leg.errorPacket()));
                return;
            }
        }
        LegResult first = results.get(0);
        if (!first.resultSet) {
            written(command, results, true, "statement");
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
            ResultMerger merger = new ResultMerger(spec, first.columns);
            ResultMerger.RowFilter having = null;
            if (spec.grouping() != null && spec.grouping().having() != null) {
                PredicateEvaluator evaluator = new PredicateEvaluator(first.columns, command.values());
                having = row -> evaluator.test(spec.grouping().having(), row);
            }
            long offset = spec.offset() == null ? 0 : SqlRenderer.value(spec.offset(), command.values());
            long count = spec.count() == null ? Long.MAX_VALUE : SqlRenderer.value(spec.count(), command.values());
            List<TextRow> out = merger.merge(rows, offset, count, having);
            List<ResultColumn> columns = merger.outputColumns();
            ResultWriter.write(session.output(), columns, out, command.binary(), session.status(), warnings);
            command.finish();
        } catch (MergeNotSupportedException | IllegalArgumentException | ArithmeticException e) {
            command.refuse(e.getMessage());
        }
    }

    /**
     * Combines the OKs of a statement every shard ran. Replicated writes (DDL, reference tables)
     * did the same thing everywhere, so one shard's count answers; otherwise counts add up. A
     * failure on some shards is reported with which shards applied the statement and which not.
     */
    void written(Command command, List<LegResult> results, boolean replicated, String what) {
        List<Integer> applied = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        ErrPacket firstError = null;
        long affected = 0;
        long insertId = 0;
        int warnings = 0;
        for (LegResult leg : results) {
            if (leg.ok()) {
                applied.add(leg.shard);
                affected = replicated ? Math.max(affected, leg.affectedRows) : affected + leg.affectedRows;
                if (insertId == 0) {
                    insertId = leg.lastInsertId;
                }
                warnings += leg.warnings;
            } else {
                failed.add(leg.shard);
                if (firstError == null) {
                    firstError = leg.errorPacket();
                }
            }
        }
        if (firstError != null) {
            String message = failed.size() == results.size() ? firstError.message()
                    : what + " applied on shard(s) " + applied + " but failed on shard(s) " + failed + ": "
                    + firstError.message();
            command.error(firstError.errorCode(), firstError.sqlState(), message);
            return;
        }
        if (insertId != 0) {
            session.lastInsertId(insertId);
        }
        if (ServerStatus.has(results.get(0).status, ServerStatus.DB_DROPPED)) {
            session.databaseDropped(command);
        }
        command.ok(OkPacket.of(affected, insertId, session.status(), warnings));
    }

    void initDb(Command command) {
        command.served(RouteKind.LOCAL);
        sessionStatements.initDb(command);
    }
}
