package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.proxy.protocol.packet.client.ComStmtSendLongData;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Target;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * The prepared-statement commands: COM_STMT_PREPARE (on the shard the statement will most likely
 * run on, or by the proxy itself for what it answers alone), COM_STMT_EXECUTE (the statement's
 * cached plan with the values bound), COM_STMT_FETCH, COM_STMT_SEND_LONG_DATA, COM_STMT_RESET and
 * COM_STMT_CLOSE. Shards prepare a statement lazily, when an execute first reaches them.
 */
final class PreparedStatements {

    private final Session session;
    private final PlanExecutor executor;
    private final ShardExchange relay;
    private final Cursors cursors;

    PreparedStatements(Session session, PlanExecutor executor, ShardExchange relay, Cursors cursors) {
        this.session = session;
        this.executor = executor;
        this.relay = relay;
        this.cursors = cursors;
    }

    void prepare(Command command) {
        ByteBuf payload = command.payload();
        byte[] sql = new byte[payload.readableBytes() - 1];
        payload.getBytes(payload.readerIndex() + 1, sql);
        Analysis analysis = session.runtime().router().analyze(sql, session.sqlMode(), new Analysis());
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        if (plan instanceof Plan.Local l && l.query() == io.cleave.router.plan.LocalQuery.SESSION_VALUES) {
            command.refuse(SessionValues.PREPARED_REFUSAL);
            return;
        }
        if (plan instanceof Plan.Session || plan instanceof Plan.Local) {
            prepareLocally(command, sql, analysis,
                    plan instanceof Plan.Local l ? LocalAnswers.columns(l, analysis) : List.of());
            return;
        }
        if (plan instanceof Plan.Refuse r) {
            command.refuse(r.code(), r.sqlState(), r.message());
            return;
        }
        ClientStatement statement = session.statements().add(new PreparedSql(sql), analysis);
        command.preparing(statement);
        // The statement's metadata is the same on every shard: prepare where it will most likely run.
        int shard = plan instanceof Plan.Route r && r.target() instanceof Target.Shard s ? s.shard()
                : session.connections().shardInUse() >= 0 ? session.connections().shardInUse()
                : session.runtime().topology().defaultShard();
        command.served(RouteKind.SINGLE_SHARD);
        relay.run(command, shard, ResponseKind.PREPARE, ShardExchange.Mode.PREPARE, statement, false,
                session.transaction().active());
    }

    /**
     * Prepares a statement the proxy runs itself (transaction control, SET, USE, local answers):
     * no shard is asked, the PREPARE_OK comes from here, and each execute runs the statement's
     * plan with the bound values as a text statement would.
     */
    private void prepareLocally(Command command, byte[] sql, Analysis analysis, List<ResultColumn> columns) {
        ClientStatement statement = session.statements().add(new PreparedSql(sql), analysis);
        int params = 0;
        for (int slot = 0; slot < analysis.slots().count(); slot++) {
            params = Math.max(params, analysis.slots().parameterIndex(slot) + 1);
        }
        statement.prepared(params, columns.size());
        command.served(RouteKind.LOCAL);
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
        command.finish();
    }

    void execute(Command command) {
        ByteBuf payload = command.payload();
        long id = ComStmtExecute.statementId(payload);
        ClientStatement statement = session.statements().toExecute(id);
        if (statement == null) {
            command.error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_execute");
            return;
        }
        if (statement.longDataTooLong()) {
            command.error(1105, "HY000", "Parameter of prepared statement which is set through mysql_send_long_data()"
                    + " is longer than 'max_allowed_packet' bytes");
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
            cursors.close(statement, () -> execute(command, statement, execute));
            return;
        }
        execute(command, statement, execute);
    }

    private void execute(Command command, ClientStatement statement, ComStmtExecute execute) {
        BoundParameters bound = new BoundParameters(execute, command.payload(), statement, session.javaCharset(),
                session.sqlMode().noBackslashEscapes());
        // Planned again when the table rules changed since it was prepared (a rerun after a cutover too).
        Analysis analysis = statement.analysis(session.runtime().router(), session.sqlMode());
        ParameterValues values = new LiteralParameters().bind(analysis, session.javaCharset()).forPlaceholders(bound);
        command.planned(analysis.plan(), analysis, values, statement, execute.newParamsBound());
        if (execute.opensCursor()) {
            // Only a single-shard relay opens the cursor on a shard; a merged result comes whole,
            // without CURSOR_EXISTS, which tells the client to read it without fetching.
            command.cursor(statement);
        }
        executor.run(command, () -> execute(command));
    }

    /** COM_STMT_FETCH: rows from the cursor, relayed from the connection that holds it. */
    void fetch(Command command) {
        long id = command.payload().getUnsignedIntLE(command.payload().readerIndex() + 1);
        ClientStatement statement = session.statements().get(id);
        if (statement == null) {
            command.error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_fetch");
            return;
        }
        if (cursors.holding(statement) == null) {
            command.error(1421, "HY000", "The statement (" + id + ") has no open cursor.");
            return;
        }
        int shard = statement.cursorShard();
        command.cursor(statement);
        command.served(RouteKind.SINGLE_SHARD);
        relay.run(command, shard, ResponseKind.FETCH, ShardExchange.Mode.FETCH, statement, false,
                session.transaction().active() && session.transaction().held(shard) == null);
    }

    void sendLongData(Command command) {
        ByteBuf payload = command.payload();
        ComStmtSendLongData header = ComStmtSendLongData.decode(payload.duplicate());
        ClientStatement statement = session.statements().get(header.statementId());
        if (statement != null) {
            ByteBuf data = payload.retainedSlice(payload.readerIndex() + ComStmtSendLongData.DATA_OFFSET,
                    payload.readableBytes() - ComStmtSendLongData.DATA_OFFSET);
            statement.appendLongData(session.output().channel().alloc(), header.paramId(), data,
                    session.runtime().config().maxAllowedPacket());
        }
        // COM_STMT_SEND_LONG_DATA has no response.
        command.finishSilently();
    }

    void reset(Command command) {
        long id = command.payload().getUnsignedIntLE(command.payload().readerIndex() + 1);
        ClientStatement statement = session.statements().get(id);
        if (statement == null) {
            command.error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_reset");
            return;
        }
        statement.reset();
        if (statement.cursorShard() >= 0) {
            cursors.close(statement, command::ok);
            return;
        }
        command.ok();
    }

    void close(Command command) {
        long id = command.payload().getUnsignedIntLE(command.payload().readerIndex() + 1);
        ClientStatement statement = session.statements().forget(id);
        if (statement != null && statement.cursorShard() >= 0) {
            // COM_STMT_CLOSE has no response: the next command waits for the cursor to close.
            cursors.close(statement, command::finishSilently);
            return;
        }
        command.finishSilently();
    }
}
