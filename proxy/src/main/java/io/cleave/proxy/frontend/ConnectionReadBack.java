package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Asks a backend connection, right after a client statement ran there, about state that
 * statement left on it (user variables it assigned, named locks it took): one SELECT, whose
 * single row comes back as text. The client's own result is relayed untouched; this costs one
 * round trip, for the rare statements that need it.
 */
final class ConnectionReadBack implements ResponseSink {

    private final BiConsumer<List<ResultColumn>, TextRow> then;
    private final List<ResultColumn> columns = new ArrayList<>();
    private TextRow row;
    private boolean failed;

    private ConnectionReadBack(BiConsumer<List<ResultColumn>, TextRow> then) {
        this.then = then;
    }

    /**
     * Runs {@code select} on {@code conn}; calls {@code then} with its columns and first row, or
     * with a null row when it failed or returned none.
     */
    static void run(BackendConnection conn, String select, BiConsumer<List<ResultColumn>, TextRow> then) {
        conn.send(conn.queryFrame(select), ResponseKind.RESULT, new ConnectionReadBack(then));
        conn.flush();
    }

    /** SELECT @`a`, @`b`: reads user variables back. */
    static String selectVariables(List<String> names) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            sql.append(i == 0 ? "@`" : ", @`").append(names.get(i).replace("`", "``")).append('`');
        }
        return sql.toString();
    }

    @Override
    public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
        try {
            if (kind == FrameKind.COLUMN_DEFINITION) {
                ByteBuf p = Frames.payload(frame);
                columns.add(new ResultColumn(ColumnDefinition41.decode(p.duplicate()), null));
            } else if (kind == FrameKind.ROW && row == null) {
                row = TextRow.decode(Frames.payload(frame), columns.size());
            } else if (kind == FrameKind.ERR) {
                failed = true;
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void complete(BackendConnection c, ResponseTracker tracker) {
        then.accept(columns, failed ? null : row);
    }

    @Override
    public void failed(BackendConnection c, Throwable cause) {
        then.accept(columns, null);
    }
}
