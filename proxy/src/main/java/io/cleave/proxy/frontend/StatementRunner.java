package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.merge.MergeNotSupportedException;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.ResultMerger;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Pin;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.plan.Target;
import io.cleave.router.shardmap.ShardMap;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Executes a statement's plan for a session: relays single-shard statements, fans out and merges
 * multi-shard reads, sends writes to every shard they concern, splits multi-row inserts by key,
 * and refuses, with the plan's reason, what cannot be done correctly.
 */
final class StatementRunner {

    private static final int NOT_SUPPORTED = 1235;
    private static final String NOT_SUPPORTED_STATE = "42000";

    private final ClientSession session;
    private final SessionStatements sessionStatements;
    private final InsertSplitter inserts;

    StatementRunner(ClientSession session) {
        this.session = session;
        this.sessionStatements = new SessionStatements(session);
        this.inserts = new InsertSplitter(session, this);
    }

    /** What is running: a text statement, or a prepared statement's execute. */
    record Execution(Analysis analysis, ParameterValues values, ClientStatement statement, boolean boundTypes) {
        boolean binary() {
            return statement != null;
        }
    }

    // ---- COM_QUERY ---------------------------------------------------------------------------

    void query(ByteBuf payload) {
        int length = payload.readableBytes() - 1;
        byte[] sql = session.loop().sqlBuffer(length);
        payload.getBytes(payload.readerIndex() + 1, sql, 0, length);
        Analysis analysis = session.runtime().router().analyze(sql, 0, length, session.sqlMode(),
                session.loop().analysis());
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement multi) {
            if (!session.multiStatements()) {
                // Multi-statements are off (capability or COM_SET_OPTION): a server reads one statement.
                session.currentPlan(plan);
                refuse(1064, "42000", "You have an error in your SQL syntax; check the manual that corresponds to"
                        + " your server version for the right syntax to use near '"
                        + analysis.tokens().text(multi.secondStatement(), analysis.tokens().size() - 1) + "' at line 1");
                return;
            }
            plan = multi.plan();
        }
        session.currentPlan(plan);
        LiteralParameters values = session.literals(analysis);
        if (plan instanceof Plan.Route r) {
            if (r.effects().pin().pin() != Pin.NONE) {
                session.currentPins(r.effects().pin().names(analysis.tokens(), values));
            }
            session.assignedVariables(r.effects().assignedVariables());
        }
        if (!(plan instanceof Plan.Route r && r.effects().previousConnection())) {
            session.releaseWarningsConnection();
        }
        run(plan, new Execution(analysis, values, null, false));
    }

    void run(Plan plan, Execution exec) {
        if (plan instanceof Plan.Route r) {
            route(r, exec);
        } else if (plan instanceof Plan.InsertSplit split) {
            inserts.run(split, exec);
        } else if (plan instanceof Plan.Session s) {
            session.metrics().command(session.currentCommand(), RouteKind.LOCAL);
            sessionStatements.handle(s, exec);
        } else if (plan instanceof Plan.Local l) {
            session.metrics().command(session.currentCommand(), RouteKind.LOCAL);
            LocalAnswers.answer(session, l, exec.analysis(), exec.binary());
        } else {
            Plan.Refuse refuse = (Plan.Refuse) plan;
            refuse(refuse.code(), refuse.sqlState(), refuse.message());
        }
    }

    void refuse(int code, String state, String message) {
        session.metrics().command(session.currentCommand(), RouteKind.REFUSED);
        session.error(code, state, message);
    }

    void refuse(String message) {
        refuse(NOT_SUPPORTED, NOT_SUPPORTED_STATE, message);
    }

    // ---- routed statements -------------------------------------------------------------------

    private void route(Plan.Route r, Execution exec) {
        ShardMap map = session.runtime().shardMaps().current();
        Resolution resolution;
        try {
            resolution = session.runtime().resolver().resolve(r.target(), exec.values(), map);
        } catch (IllegalArgumentException e) {
            refuse(e.getMessage());
            return;
        }
        if (resolution.isError()) {
            refuse(resolution.error());
            return;
        }
        if (resolution.isAny()) {
            if (r.effects().previousConnection() && !session.hasWarningsConnection() && r.kind().name().equals("SHOW")) {
                LocalAnswers.noWarnings(session);
                return;
            }
            single(r, anyShard(r), exec);
        } else if (resolution.isSingle()) {
            single(r, resolution.shard(), exec);
        } else {
            multi(r, resolution.shards(), exec);
        }
    }

    private int anyShard(Plan.Route r) {
        if (r.effects().previousConnection() && session.hasWarningsConnection()) {
            return session.warningsShard();
        }
        int inUse = session.shardInUse();
        return inUse >= 0 ? inUse : session.loop().nextAnyShard();
    }

    /** Relays the client's own statement to one shard (the hot path). */
    void single(Plan.Route r, int shard, Execution exec) {
        TransactionState tx = session.transaction();
        boolean readAnywhere = r.target() instanceof Target.AnyShard && !r.write() && !r.lockingRead();
        // A read any shard could answer stays out of a transaction that has not reached a shard yet.
        boolean joins = session.inTransaction() && !(readAnywhere && tx.held(shard) == null);
        boolean forceInTransaction = tx.active() && !joins && tx.held(shard) == null;
        if (joins && (r.write() || r.lockingRead())) {
            tx.markWritten(shard);
        }
        session.metrics().command(session.currentCommand(), RouteKind.SINGLE_SHARD);
        if (exec.binary()) {
            session.exchange().run(shard, session.currentFrame(), ResponseKind.RESULT, ShardExchange.Mode.EXECUTE,
                    exec.statement(), exec.boundTypes(), joins, forceInTransaction);
        } else {
            session.exchange().run(shard, session.currentFrame(), ResponseKind.RESULT, ShardExchange.Mode.RELAY, null,
                    false, joins, forceInTransaction);
        }
    }

    private void multi(Plan.Route r, int[] shards, Execution exec) {
        Plan.Spread policy = r.several();
        if (policy == null) {
            refuse("statement resolved to several shards but has no way to combine them");
            return;
        }
        if (policy instanceof Plan.Refuse f) {
            refuse(f.code(), f.sqlState(), f.message());
            return;
        }
        boolean inTransaction = session.inTransaction();
        if (policy instanceof Plan.Merge merge) {
            session.metrics().command(session.currentCommand(), RouteKind.MULTI_SHARD);
            byte[] sql = SqlRenderer.render(merge.sql(), exec.analysis(), exec.values());
            if (inTransaction && r.lockingRead()) {
                markWritten(shards);
            }
            MultiExchange multi = new MultiExchange(session, inTransaction, results -> merged(results, merge.spec(), exec));
            for (int shard : shards) {
                multi.leg(shard, sql);
            }
            clearLongData(exec);
            multi.start();
            return;
        }
        Plan.FanOutWrite writeAll = (Plan.FanOutWrite) policy;
        session.metrics().command(session.currentCommand(), RouteKind.BROADCAST);
        byte[] sql = SqlRenderer.render(new SqlTemplate.Original(), exec.analysis(), exec.values());
        List<byte[]> perShard = new ArrayList<>();
        for (int i = 0; i < shards.length; i++) {
            perShard.add(sql);
        }
        clearLongData(exec);
        // DDL is not transactional on any server: it simply goes to every shard.
        boolean transactional = !r.kind().isDdl() && r.write();
        String what = r.kind().name().replace('_', ' ');
        Runnable send = () -> writeToShards(shards, perShard, transactional, writeAll.replicated(), what, 0);
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
    void writeToShards(int[] shards, List<byte[]> sql, boolean transactional, boolean replicated, String what,
                       long firstGeneratedId) {
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
        MultiExchange multi = new MultiExchange(session, inTransaction || implicit, results -> {
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
                        undoStatement(results);
                    } else {
                        session.error(firstError(results));
                    }
                    return;
                }
                afterTransactionalLegs(results, () -> written(results, replicated, what));
                return;
            }
            DistributedCommit end = new DistributedCommit(session);
            if (results.stream().allMatch(LegResult::ok)) {
                end.commit(error -> {
                    if (error != null) {
                        session.error(error);
                    } else {
                        written(results, replicated, what);
                    }
                });
            } else {
                // Rolled back everywhere: the statement failed as a whole, as on one server.
                end.rollback(ignored -> session.error(firstError(results)));
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
    private void undoStatement(List<LegResult> results) {
        ErrPacket error = firstError(results);
        MultiExchange undo = new MultiExchange(session, true, undone -> {
            if (undone.stream().allMatch(LegResult::ok)) {
                session.error(error);
                return;
            }
            session.rollbackDistributed(() -> session.error(error.errorCode(), error.sqlState(), error.message()
                    + "; undoing the statement on the shards where it had succeeded failed, so the transaction was"
                    + " rolled back"));
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
            if (leg.error != null && session.abortsDistributedTransaction(leg.error.errorCode())) {
                session.rollbackDistributed(then);
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

    private static void clearLongData(Execution exec) {
        if (exec.binary()) {
            exec.statement().clearLongData();
        }
    }

    /** Merges the shards' rows and writes the one result a single server would have given. */
    private void merged(List<LegResult> results, MergeSpec spec, Execution exec) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                afterTransactionalLegs(results, () -> session.error(leg.errorPacket()));
                return;
            }
        }
        LegResult first = results.get(0);
        if (!first.resultSet) {
            written(results, true, "statement");
            return;
        }
        List<TextRow> rows = new ArrayList<>();
        int warnings = 0;
        for (LegResult leg : results) {
            if (leg.columns.size() != first.columns.size()) {
                session.error(1105, "HY000", "shards " + first.shard + " and " + leg.shard
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
                PredicateEvaluator evaluator = new PredicateEvaluator(first.columns, exec.values());
                having = row -> evaluator.test(spec.grouping().having(), row);
            }
            long offset = spec.offset() == null ? 0 : SqlRenderer.value(spec.offset(), exec.values());
            long count = spec.count() == null ? Long.MAX_VALUE : SqlRenderer.value(spec.count(), exec.values());
            List<TextRow> out = merger.merge(rows, offset, count, having);
            List<ResultColumn> columns = merger.outputColumns();
            ResultWriter.write(session.output(), columns, out, exec.binary(), session.status(), warnings);
            session.finishCommand();
        } catch (MergeNotSupportedException | IllegalArgumentException | ArithmeticException e) {
            refuse(e.getMessage());
        }
    }

    /**
     * Combines the OKs of a statement every shard ran. Replicated writes (DDL, reference tables)
     * did the same thing everywhere, so one shard's count answers; otherwise counts add up. A
     * failure on some shards is reported with which shards applied the statement and which not.
     */
    void written(List<LegResult> results, boolean replicated, String what) {
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
            session.error(firstError.errorCode(), firstError.sqlState(), message);
            return;
        }
        if (insertId != 0) {
            session.lastInsertId(insertId);
        }
        if (ServerStatus.has(results.get(0).status, ServerStatus.DB_DROPPED)) {
            session.databaseDropped();
        }
        session.output().ok(OkPacket.of(affected, insertId, session.status(), warnings));
        session.finishCommand();
    }

    void initDb(ByteBuf payload) {
        session.metrics().command(session.currentCommand(), RouteKind.LOCAL);
        sessionStatements.initDb(payload);
    }

    // ---- COM_FIELD_LIST, COM_STATISTICS ---------------------------------------------------------

    void relayToAnyShard(ResponseKind kind) {
        int shard = session.shardInUse();
        session.metrics().command(session.currentCommand(), RouteKind.SINGLE_SHARD);
        session.exchange().run(shard >= 0 ? shard : session.loop().nextAnyShard(), session.currentFrame(), kind,
                ShardExchange.Mode.RELAY, null, false, false, session.transaction().active());
    }

    // ---- prepared statements ---------------------------------------------------------------

    void prepare(ByteBuf payload) {
        byte[] sql = new byte[payload.readableBytes() - 1];
        payload.getBytes(payload.readerIndex() + 1, sql);
        Analysis analysis = session.runtime().router().analyze(sql, session.sqlMode(), new Analysis());
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        if (plan instanceof Plan.Session || plan instanceof Plan.Local) {
            prepareLocally(sql, analysis, plan instanceof Plan.Local l ? LocalAnswers.columns(l, analysis) : List.of());
            return;
        }
        if (plan instanceof Plan.Refuse r) {
            refuse(r.code(), r.sqlState(), r.message());
            return;
        }
        ClientStatement statement = session.newStatement(new PreparedSql(sql), analysis);
        // The statement's metadata is the same on every shard: prepare where it will most likely run.
        int shard = plan instanceof Plan.Route r && r.target() instanceof Target.Shard s ? s.shard()
                : session.shardInUse() >= 0 ? session.shardInUse()
                : session.runtime().topology().defaultShard();
        session.metrics().command(session.currentCommand(), RouteKind.SINGLE_SHARD);
        session.exchange().run(shard, session.currentFrame(), ResponseKind.PREPARE, ShardExchange.Mode.PREPARE,
                statement, false, false, session.transaction().active());
    }

    /**
     * Prepares a statement the proxy runs itself (transaction control, SET, USE, local answers):
     * no shard is asked, the PREPARE_OK comes from here, and each execute runs the statement's
     * plan with the bound values as a text statement would.
     */
    private void prepareLocally(byte[] sql, Analysis analysis, List<ResultColumn> columns) {
        ClientStatement statement = session.newStatement(new PreparedSql(sql), analysis);
        int params = 0;
        for (int slot = 0; slot < analysis.slots().count(); slot++) {
            params = Math.max(params, analysis.slots().parameterIndex(slot) + 1);
        }
        statement.prepared(params, columns.size());
        session.metrics().command(session.currentCommand(), RouteKind.LOCAL);
        ClientOutput out = session.output();
        int parameters = params;
        out.packet(12, b -> new StmtPrepareOk(statement.id(), columns.size(), parameters, 0).write(b));
        if (params > 0) {
            ResultColumn param = ResultWriter.column("?", ColumnType.VAR_STRING.code(), 0, 0);
            for (int p = 0; p < params; p++) {
                out.packet(32, b -> param.definition().write(b));
            }
            out.endOfColumns(session.status());
        }
        if (!columns.isEmpty()) {
            for (ResultColumn c : columns) {
                out.packet(64, b -> c.definition().write(b));
            }
            out.endOfColumns(session.status());
        }
        session.finishCommand();
    }

    void execute(ByteBuf payload) {
        long id = ComStmtExecute.statementId(payload);
        ClientStatement statement = session.statement(id == 0xffffffffL ? session.lastStatementId() : id);
        if (statement == null) {
            session.error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_execute");
            return;
        }
        ComStmtExecute execute = ComStmtExecute.parse(payload, statement.paramCount(), statement.boundTypes(),
                statement.longDataFlags());
        if (execute.newParamsBound()) {
            statement.boundTypes(execute.types().clone());
        }
        if (statement.cursorShard() >= 0) {
            // The statement's earlier cursor may sit on another shard's connection than this
            // execute goes to: close it first, as a server does on re-execute.
            // (The command's frame stays alive until the command finishes.)
            session.cursors().close(statement, () -> execute(statement, execute, payload));
            return;
        }
        execute(statement, execute, payload);
    }

    private void execute(ClientStatement statement, ComStmtExecute execute, ByteBuf payload) {
        Plan plan = statement.analysis().plan();
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        session.currentPlan(plan);
        ParameterValues values = session.executeParameters(execute, payload, statement);
        if (plan instanceof Plan.Route r) {
            if (r.effects().pin().pin() != Pin.NONE) {
                session.currentPins(r.effects().pin().names(statement.analysis().tokens(), values));
            }
            session.assignedVariables(r.effects().assignedVariables());
        }
        if (execute.opensCursor()) {
            // Only a single-shard relay opens the cursor on a shard; a merged result comes whole,
            // without CURSOR_EXISTS, which tells the client to read it without fetching.
            session.cursors().requested(statement);
        }
        run(plan, new Execution(statement.analysis(), values, statement, execute.newParamsBound()));
    }
}
