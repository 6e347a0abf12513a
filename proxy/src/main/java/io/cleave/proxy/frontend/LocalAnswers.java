package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Explainer;
import io.cleave.router.plan.LocalQuery;
import io.cleave.router.plan.Plan;
import io.cleave.router.sql.lex.TokenBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Queries about the session that the proxy answers itself (a shard connection would not know). */
final class LocalAnswers {

    private static final int UNSIGNED_NOT_NULL = ColumnDefinition41.FLAG_UNSIGNED | ColumnDefinition41.FLAG_NOT_NULL
            | ColumnDefinition41.FLAG_BINARY | ColumnDefinition41.FLAG_NUM;

    private LocalAnswers() {
    }

    static void answer(ClientSession session, Plan.Local local, Analysis analysis) {
        if (local.query() == LocalQuery.EXPLAIN_CLEAVE) {
            explain(session, local, analysis);
            return;
        }
        String name = local.alias() != null ? local.alias()
                : analysis.tokens().text(local.nameFirst(), local.nameEnd() - 1);
        ResultColumn column;
        byte[] value;
        switch (local.query()) {
            case LAST_INSERT_ID:
                column = column(name, ColumnType.LONGLONG, 63, UNSIGNED_NOT_NULL, 21);
                value = Long.toUnsignedString(session.lastInsertId()).getBytes(StandardCharsets.US_ASCII);
                break;
            case CONNECTION_ID:
                column = column(name, ColumnType.LONGLONG, 63, UNSIGNED_NOT_NULL, 21);
                value = Long.toString(session.connectionId()).getBytes(StandardCharsets.US_ASCII);
                break;
            default:
                column = column(name, ColumnType.VAR_STRING, 45, 0, 256);
                String schema = session.settings().schema();
                value = schema == null ? null : schema.getBytes(StandardCharsets.UTF_8);
                break;
        }
        ResultWriter.write(session.output(), List.of(column), List.of(TextRow.of(new byte[][] {value})), false,
                session.status(), 0);
        session.finishCommand();
    }

    /**
     * EXPLAIN CLEAVE statement: one row with the statement's plan and the shards it reaches with
     * its values, from this proxy's router and shard map (the statement does not run).
     */
    private static void explain(ClientSession session, Plan.Local local, Analysis analysis) {
        TokenBuffer tokens = analysis.tokens();
        byte[] statement = Arrays.copyOfRange(tokens.source(), tokens.start(local.nameFirst()),
                tokens.offset() + tokens.length());
        Explainer.Explanation e = new Explainer(session.runtime().router()).explain(statement, session.sqlMode(),
                session.runtime().shardMaps().current());
        List<ResultColumn> columns = List.of(column("plan", ColumnType.VAR_STRING, 45, 0, 4096),
                column("shards", ColumnType.VAR_STRING, 45, 0, 1024));
        TextRow row = TextRow.of(new byte[][] {e.plan().getBytes(StandardCharsets.UTF_8),
                e.shards().getBytes(StandardCharsets.UTF_8)});
        ResultWriter.write(session.output(), columns, List.of(row), false, session.status(), 0);
        session.finishCommand();
    }

    /** SHOW WARNINGS / SHOW ERRORS when the previous statement left none: an empty list. */
    static void noWarnings(ClientSession session) {
        List<ResultColumn> columns = List.of(column("Level", ColumnType.VAR_STRING, 45, 0, 28),
                column("Code", ColumnType.LONG, 63, UNSIGNED_NOT_NULL, 4),
                column("Message", ColumnType.VAR_STRING, 45, 0, 2048));
        ResultWriter.write(session.output(), columns, List.of(), false, session.status(), 0);
        session.finishCommand();
    }

    private static ResultColumn column(String name, ColumnType type, int collation, int flags, long length) {
        return new ResultColumn(new ColumnDefinition41("", "", "", name, "", collation, length, type.code(), flags, 0),
                null);
    }
}
