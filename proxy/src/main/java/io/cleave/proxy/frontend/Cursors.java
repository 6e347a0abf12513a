package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.netty.buffer.ByteBuf;

/**
 * Server-side cursors of a session's prepared statements (COM_STMT_EXECUTE with a cursor type,
 * then COM_STMT_FETCH). A cursor lives in the backend connection that ran the execute, so that
 * connection stays pinned to the session while the cursor is open; it is released when the
 * server reports the last row sent, or when the client closes, resets or re-executes the
 * statement (the proxy then closes the cursor with COM_STMT_RESET on the backend).
 */
final class Cursors {

    private final Session session;

    Cursors(Session session) {
        this.session = session;
    }

    /** A command's response on {@code shard} is complete: note a cursor it opened or ended. */
    void afterResponse(Command command, int shard, BackendConnection conn, ResponseTracker tracker) {
        ClientStatement statement = command.cursor();
        if (statement == null) {
            return;
        }
        ConnectionPins pins = session.connections().pins();
        int status = tracker.statusFlags();
        if (command.command() == CommandCode.STMT_EXECUTE) {
            if (!tracker.isError() && ServerStatus.has(status, ServerStatus.CURSOR_EXISTS)) {
                statement.cursorOpened(shard);
                pins.cursorOpened(shard, conn);
            }
        } else if (!tracker.isError() && (ServerStatus.has(status, ServerStatus.LAST_ROW_SENT)
                || !ServerStatus.has(status, ServerStatus.CURSOR_EXISTS))) {
            // The server closes an exhausted cursor by itself.
            statement.cursorClosed();
            pins.cursorClosed(shard);
        }
    }

    /**
     * The connection holding {@code statement}'s open cursor, or null when it has none any more
     * (then the cursor is forgotten).
     */
    BackendConnection holding(ClientStatement statement) {
        int shard = statement.cursorShard();
        ConnectionPins pins = session.connections().pins();
        BackendConnection conn = shard < 0 ? null : pins.connection(shard);
        if (conn == null || conn.statements().get(statement.sql()) == null) {
            if (shard >= 0) {
                statement.cursorClosed();
                pins.cursorClosed(shard);
            }
            return null;
        }
        return conn;
    }

    /**
     * Closes the statement's open cursor on its backend connection (COM_STMT_RESET there, which
     * keeps the statement prepared), unpins the connection if nothing else holds it, then runs
     * {@code then}.
     */
    void close(ClientStatement statement, Runnable then) {
        int shard = statement.cursorShard();
        statement.cursorClosed();
        ConnectionPins pins = session.connections().pins();
        BackendConnection conn = pins.connection(shard);
        BackendStatement backend = conn == null ? null : conn.statements().get(statement.sql());
        if (backend == null) {
            // Evicted from the connection's cache: closing it there closed the cursor too.
            pins.cursorClosed(shard);
            then.run();
            return;
        }
        long backendId = backend.id();
        conn.send(conn.commandFrame(CommandCode.STMT_RESET, new byte[] {(byte) backendId, (byte) (backendId >>> 8),
                (byte) (backendId >>> 16), (byte) (backendId >>> 24)}), ResponseKind.SIMPLE, new ResponseSink() {
            @Override
            public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
                frame.release();
            }

            @Override
            public void complete(BackendConnection c, ResponseTracker tracker) {
                pins.cursorClosed(shard);
                session.connections().settle(shard, c, false);
                then.run();
            }

            @Override
            public void failed(BackendConnection c, Throwable cause) {
                pins.lost(shard, c);
                session.connections().settle(shard, c, false);
                then.run();
            }
        });
        conn.flush();
    }
}
