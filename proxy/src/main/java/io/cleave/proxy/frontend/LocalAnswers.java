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

    static void answer(Session session, Command command, Plan.Local local) {
        Analysis analysis = command.analysis();
        List<ResultColumn> columns = columns(local, analysis);
        TextRow row;
        if (local.query() == LocalQuery.EXPLAIN_CLEAVE) {
            Explainer.Explanation e = explain(session, local, analysis);
            row = TextRow.of(new byte[][] {e.plan().getBytes(StandardCharsets.UTF_8),
                    e.shards().getBytes(StandardCharsets.UTF_8)});
        } else {
            row = TextRow.of(new byte[][] {value(session, local.query())});
        }
        command.answer(columns, List.of(row), 0);
    }

    /** The columns of the answer, known before it runs (a prepared statement announces them). */
    static List<ResultColumn> columns(Plan.Local local, Analysis analysis) {
        if (local.query() == LocalQuery.EXPLAIN_CLEAVE) {
            return List.of(column("plan", ColumnType.VAR_STRING, 45, 0, 4096),
                    column("shards", ColumnType.VAR_STRING, 45, 0, 1024));
        }
        if (local.query() == LocalQuery.ACCOUNT_STATEMENT || local.query() == LocalQuery.SET_ROLE
                || local.query() == LocalQuery.KILL || local.query() == LocalQuery.FILTERED_READ) {
            // Statements without a result set, or whose columns only the shard knows once it runs them.
            return List.of();
        }
        String name = local.alias() != null ? local.alias()
                : analysis.tokens().text(local.nameFirst(), local.nameEnd() - 1);
        return switch (local.query()) {
            case LAST_INSERT_ID, CONNECTION_ID -> List.of(column(name, ColumnType.LONGLONG, 63, UNSIGNED_NOT_NULL, 21));
            case ROW_COUNT, FOUND_ROWS -> List.of(column(name, ColumnType.LONGLONG, 63, ColumnDefinition41.FLAG_NOT_NULL
                    | ColumnDefinition41.FLAG_BINARY | ColumnDefinition41.FLAG_NUM, 21));
            default -> List.of(column(name, ColumnType.VAR_STRING, 45, 0, 256));
        };
    }

    private static byte[] value(Session session, LocalQuery query) {
        switch (query) {
            case LAST_INSERT_ID:
                return Long.toUnsignedString(session.lastInsertId()).getBytes(StandardCharsets.US_ASCII);
            case ROW_COUNT:
                return Long.toString(session.rowCount()).getBytes(StandardCharsets.US_ASCII);
            case FOUND_ROWS:
                return Long.toString(session.foundRows()).getBytes(StandardCharsets.US_ASCII);
            case CONNECTION_ID:
                return Long.toString(session.connectionId()).getBytes(StandardCharsets.US_ASCII);
            case USER:
                return (session.user() + "@" + session.clientHost()).getBytes(StandardCharsets.UTF_8);
            case CURRENT_USER:
                // The account of the grant tables the login matched.
                io.cleave.proxy.accounts.AccountName account = session.account().account().name();
                return (account.user() + "@" + account.host()).getBytes(StandardCharsets.UTF_8);
            default:
                String schema = session.settings().schema();
                return schema == null ? null : schema.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * EXPLAIN CLEAVE statement: the statement's plan and the shards it reaches with its values,
     * from this proxy's router and shard map (the statement does not run).
     */
    private static Explainer.Explanation explain(Session session, Plan.Local local, Analysis analysis) {
        TokenBuffer tokens = analysis.tokens();
        byte[] statement = Arrays.copyOfRange(tokens.source(), tokens.start(local.nameFirst()),
                tokens.offset() + tokens.length());
        return new Explainer(session.runtime().router()).explain(statement, session.sqlMode(),
                session.runtime().shardMaps().current(), session.runtime().uniqueIndexes()::of,
                session.settings().schema());
    }

    /**
     * SHOW WARNINGS / SHOW ERRORS when no shard connection holds the previous statement's
     * warnings: the proxy's own (code 1235), or an empty list.
     */
    static void warnings(Session session, Command command, List<String> messages) {
        List<ResultColumn> columns = List.of(column("Level", ColumnType.VAR_STRING, 45, 0, 28),
                column("Code", ColumnType.LONG, 63, UNSIGNED_NOT_NULL, 4),
                column("Message", ColumnType.VAR_STRING, 45, 0, 2048));
        List<TextRow> rows = new java.util.ArrayList<>();
        for (String m : messages) {
            rows.add(TextRow.of(new byte[][] {"Warning".getBytes(StandardCharsets.US_ASCII),
                    "1235".getBytes(StandardCharsets.US_ASCII), m.getBytes(StandardCharsets.UTF_8)}));
        }
        ResultWriter.write(session.output(), columns, rows, false, session.status(), 0);
        command.foundRows(rows.size());
        command.finish();
    }

    private static ResultColumn column(String name, ColumnType type, int collation, int flags, long length) {
        return new ResultColumn(new ColumnDefinition41("", "", "", name, "", collation, length, type.code(), flags, 0),
                null);
    }
}
