package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Plan;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Queries about the session that the proxy answers itself (a shard connection would not know). */
final class LocalAnswers {

    private static final int UNSIGNED_NOT_NULL = ColumnDefinition41.FLAG_UNSIGNED | ColumnDefinition41.FLAG_NOT_NULL
            | ColumnDefinition41.FLAG_BINARY | ColumnDefinition41.FLAG_NUM;

    private LocalAnswers() {
    }

    static void answer(ClientSession session, Plan.Local local, Analysis analysis) {
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
