package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendLogin;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.proxy.session.SessionSync;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Brings a backend connection to a session's settings before it runs the session's statement.
 * The common case (already there) calls back at once; otherwise the schema and SET go out and
 * the callback waits for their answers. A session without a schema on a connection that has one
 * gets the connection logged in afresh first. A connection whose sync failed is closed: its state is
 * unknown, so it must serve no one again.
 */
final class SessionSyncStep implements ResponseSink {

    private final BackendConnection conn;
    private final SessionSettings target;
    private final Consumer<ErrPacket> then;
    private int pending;
    private ErrPacket error;

    private SessionSyncStep(BackendConnection conn, SessionSettings target, Consumer<ErrPacket> then) {
        this.conn = conn;
        this.target = target;
        this.then = then;
    }

    /** Calls {@code then} with null once {@code conn} carries {@code target}, or with the error that prevented it. */
    static void run(BackendConnection conn, SessionSettings target, Consumer<ErrPacket> then) {
        if (target.schema() == null && conn.sessionState().applied().schema() != null) {
            // USE cannot leave a schema: only a new login leaves the connection without one. It
            // also drops the rest of the connection's state, which the sync then rebuilds.
            BackendLogin.again(conn, error -> {
                if (error != null) {
                    then.accept(error);
                } else {
                    sync(conn, target, then);
                }
            });
            return;
        }
        sync(conn, target, then);
    }

    private static void sync(BackendConnection conn, SessionSettings target, Consumer<ErrPacket> then) {
        SessionSync sync = SessionSync.between(conn.sessionState().applied(), target);
        String role = roleStatement(conn, target);
        if (!sync.isNeeded() && role == null) {
            then.accept(null);
            return;
        }
        SessionSyncStep step = new SessionSyncStep(conn, target, then);
        if (role != null) {
            step.pending++;
            conn.send(conn.queryFrame(role), ResponseKind.RESULT, step);
        }
        if (sync.initDb() != null) {
            step.pending++;
            conn.send(conn.commandFrame(CommandCode.INIT_DB, sync.initDb().getBytes(StandardCharsets.UTF_8)),
                    ResponseKind.SIMPLE, step);
        }
        if (sync.setStatement() != null) {
            step.pending++;
            conn.send(conn.queryFrame(sync.setStatement()), ResponseKind.RESULT, step);
        }
        conn.flush();
    }

    /**
     * SET ROLE when the connection's active role is not the session's: the role SET ROLE chose, or
     * the account's default (every connection of the pool is logged in as the same account).
     */
    private static String roleStatement(BackendConnection conn, SessionSettings target) {
        String applied = conn.sessionState().applied().role();
        if (java.util.Objects.equals(applied, target.role())) {
            return null;
        }
        String role = target.role() != null ? target.role() : conn.login().defaultRole();
        return "SET ROLE " + (role == null || role.isEmpty() || role.equalsIgnoreCase("NONE") ? "NONE"
                : "`" + role.replace("`", "``") + "`");
    }

    @Override
    public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
        if (kind == FrameKind.ERR && error == null) {
            error = ErrPacket.decode(Frames.payload(frame));
        }
        frame.release();
    }

    @Override
    public void complete(BackendConnection c, ResponseTracker tracker) {
        if (--pending > 0) {
            return;
        }
        if (error != null) {
            conn.close();
        } else {
            conn.sessionState().applied(target);
        }
        then.accept(error);
    }

    @Override
    public void failed(BackendConnection c, Throwable cause) {
        if (pending > 0) {
            pending = 0;
            then.accept(new ErrPacket(1158, "08S01", "Lost connection to shard " + c.shard() + " while preparing the"
                    + " session: " + cause.getMessage()));
        }
    }
}
