package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.cut.Cut;
import io.cleave.proxy.cut.ShardSnapshot;
import io.cleave.proxy.server.CommitFence;
import io.cleave.proxy.session.SessionSettings;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * A command's statements on several shards outside a transaction, read at a cut of their own:
 * each shard's statements run on the connection holding that shard's snapshot, and when the
 * command ends the snapshots end (COMMIT) and the connections go back to their pools.
 */
final class ReadAtCut extends SessionLegs implements ResponseSink {

    private final Cut<BackendConnection> cut;
    private final SessionSettings settings;
    private boolean ended;

    /** {@code settings}: those the statements run with (the command's, or an evaluation's own). */
    ReadAtCut(Session session, Cut<BackendConnection> cut, SessionSettings settings) {
        super(session);
        this.cut = cut;
        this.settings = settings;
    }

    Cut<BackendConnection> cut() {
        return cut;
    }

    @Override
    public SessionSettings settings() {
        return settings;
    }

    @Override
    public BackendConnection connectionFor(int shard) {
        ShardSnapshot<BackendConnection> s = cut.on(shard);
        // A shard the cut does not cover (one a scale added since the command began) is read on a
        // connection of its own.
        return s == null ? null : s.connection();
    }

    @Override
    public List<String> preamble(int shard, boolean startsTransaction) {
        return null;
    }

    /** A snapshot reads what it saw when it opened: no branch commit to wait for. */
    @Override
    public CommitFence commitFence() {
        return null;
    }

    @Override
    public ConnectionWaiter waiter() {
        return session.tracked();
    }

    /** A snapshot's connection is kept until the command ends: its next step may read there again. */
    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        ShardSnapshot<BackendConnection> s = cut.on(shard);
        if (s == null || s.connection() != conn) {
            session.connections().keepOrGiveBack(shard, conn, false);
        }
    }

    /** Ends every snapshot and gives its connection back (once). */
    void end() {
        if (ended) {
            return;
        }
        ended = true;
        SessionConnections connections = session.connections();
        for (ShardSnapshot<BackendConnection> s : cut.shards()) {
            BackendConnection c = s.connection();
            if (!connections.has(c)) {
                // Given back already (its client left, and the session gave back all it had).
                continue;
            }
            if (c.isUsable() && !c.hasPendingResponses()) {
                c.send(c.queryFrame("COMMIT"), ResponseKind.RESULT, this);
                c.flush();
            } else {
                // Lost, or a statement still running on it (the command failed part way): it cannot
                // go back with its snapshot open, so it is closed.
                connections.discard(c);
            }
        }
    }

    // ---- the COMMITs' answers: each connection goes back once its snapshot ended ---------------

    @Override
    public void frame(BackendConnection connection, ByteBuf frame, FrameKind kind) {
        frame.release();
    }

    @Override
    public void complete(BackendConnection connection, ResponseTracker tracker) {
        session.connections().keepOrGiveBack(connection.shard(), connection, false);
    }

    @Override
    public void failed(BackendConnection connection, Throwable cause) {
        session.connections().keepOrGiveBack(connection.shard(), connection, false);
    }
}
