package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * After a statement called GET_LOCK(), asks its connection which of the locks it now owns: a
 * GET_LOCK that timed out took nothing, and must not keep the connection pinned. The relayed
 * result is never decoded; this costs one round trip, for named-lock statements only.
 */
final class NamedLockCheck implements ResponseSink {

    private final List<String> names;
    private final Consumer<List<String>> notHeld;
    private int columns;
    private TextRow row;

    private NamedLockCheck(List<String> names, Consumer<List<String>> notHeld) {
        this.names = names;
        this.notHeld = notHeld;
    }

    /** Calls {@code notHeld} with the names among {@code names} that {@code conn} does not own (all, on failure). */
    static void run(BackendConnection conn, List<String> names, Consumer<List<String>> notHeld) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("IS_USED_LOCK('")
                    .append(names.get(i).replace("\\", "\\\\").replace("'", "''")).append("') <=> CONNECTION_ID()");
        }
        conn.send(conn.queryFrame(sql.toString()), ResponseKind.RESULT, new NamedLockCheck(names, notHeld));
        conn.flush();
    }

    @Override
    public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
        try {
            if (kind == FrameKind.COLUMN_COUNT) {
                columns = (int) Wire.readLenencInt(Frames.payload(frame));
            } else if (kind == FrameKind.ROW && row == null) {
                row = TextRow.decode(Frames.payload(frame), columns);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void complete(BackendConnection c, ResponseTracker tracker) {
        List<String> free = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (row == null || !"1".equals(row.string(i))) {
                free.add(names.get(i));
            }
        }
        notHeld.accept(free);
    }

    @Override
    public void failed(BackendConnection c, Throwable cause) {
        notHeld.accept(names);
    }
}
