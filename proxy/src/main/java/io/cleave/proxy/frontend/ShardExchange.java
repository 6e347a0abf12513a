package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.AcquireCallback;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSync;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs one client command on one shard and relays the answer: get a connection (the session's own
 * inside a transaction, else one borrowed from the loop's pool), bring it to the session's settings,
 * prepare the statement there if an execute needs it, send (after a deferred START TRANSACTION when
 * one is due), and relay the response frames as they arrive with only sequence ids rewritten.
 * One instance per session, reused for every command.
 */
final class ShardExchange implements AcquireCallback, ResponseSink {

    enum Mode {
        /** Relay the response unchanged. */
        RELAY,
        /** COM_STMT_PREPARE: relay, with the backend's statement id replaced by the client's. */
        PREPARE,
        /** COM_STMT_EXECUTE: prepare on this connection first if needed, put its id in the packet. */
        EXECUTE
    }

    private enum Step { IDLE, ACQUIRE, SYNC, PREPARE, RUN }

    private final ClientSession session;
    private Step step = Step.IDLE;
    private int shard;
    private ByteBuf request;
    private ResponseKind kind;
    private Mode mode;
    private ClientStatement statement;
    private boolean executeBoundTypes;
    private String beginStatement;
    private BackendConnection connection;
    private int syncResponses;
    private ErrPacket swallowedError;
    private boolean beginPending;
    private boolean relayedAny;
    private long startNanos;

    ShardExchange(ClientSession session) {
        this.session = session;
    }

    /**
     * Starts the exchange. {@code request} (the command frame, sequence 0) is retained here and
     * released when done.
     */
    void run(int shard, ByteBuf request, ResponseKind kind, Mode mode, ClientStatement statement,
             boolean executeBoundTypes) {
        this.shard = shard;
        this.request = request.retain();
        this.kind = kind;
        this.mode = mode;
        this.statement = statement;
        this.executeBoundTypes = executeBoundTypes;
        this.swallowedError = null;
        this.relayedAny = false;
        this.beginPending = false;
        BackendConnection held = session.heldConnection(shard);
        if (held != null) {
            onConnection(held);
        } else {
            step = Step.ACQUIRE;
            session.loop().pool(shard).acquire(session.responseProfile(), this);
        }
    }

    @Override
    public void acquired(BackendConnection conn) {
        onConnection(conn);
    }

    @Override
    public void failed(Throwable cause) {
        String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
        finishWithError(null, ClientSession.shardUnavailable(shard, message));
    }

    private void onConnection(BackendConnection conn) {
        connection = conn;
        SessionSync sync = SessionSync.between(conn.sessionState().applied(), session.settings());
        if (!sync.isNeeded()) {
            afterSync();
            return;
        }
        step = Step.SYNC;
        syncResponses = 0;
        if (sync.initDb() != null) {
            conn.send(conn.commandFrame(CommandCode.INIT_DB, sync.initDb().getBytes(StandardCharsets.UTF_8)),
                    ResponseKind.SIMPLE, this);
            syncResponses++;
        }
        if (sync.setStatement() != null) {
            conn.send(conn.queryFrame(sync.setStatement()), ResponseKind.RESULT, this);
            syncResponses++;
        }
        conn.flush();
    }

    private void afterSync() {
        if (mode == Mode.EXECUTE && connection.statements().get(statement.sql()) == null) {
            step = Step.PREPARE;
            connection.send(connection.commandFrame(CommandCode.STMT_PREPARE, statement.sql().bytes()),
                    ResponseKind.PREPARE, this);
            connection.flush();
            return;
        }
        sendRequest();
    }

    private void sendRequest() {
        step = Step.RUN;
        beginStatement = session.transactionToBegin(shard);
        if (beginStatement != null) {
            beginPending = true;
            connection.send(connection.queryFrame(beginStatement), ResponseKind.RESULT, this);
        }
        ByteBuf toSend = request.retain();
        if (mode == Mode.EXECUTE) {
            toSend = executeFrameFor(connection.statements().get(statement.sql()), toSend);
        }
        startNanos = System.nanoTime();
        connection.send(toSend, kind, this);
        connection.flush();
    }

    /** Points an execute at this connection's statement id, adding parameter types it has not seen. */
    private ByteBuf executeFrameFor(BackendStatement backend, ByteBuf frame) {
        session.replayLongData(connection, statement, backend.id());
        short[] types = statement.boundTypes();
        if (!executeBoundTypes && types != null && backend.boundTypes() != types) {
            ByteBuf rebuilt = ExecutePackets.withTypes(frame, statement.paramCount(), types, backend.id());
            frame.release();
            frame = rebuilt;
        } else {
            frame.setIntLE(frame.readerIndex() + Frames.HEADER_SIZE + 1, (int) backend.id());
        }
        backend.boundTypes(types);
        return frame;
    }

    @Override
    public void frame(BackendConnection conn, ByteBuf frame, FrameKind frameKind) {
        if (step == Step.SYNC || beginPending) {
            captureError(frame, frameKind);
            return;
        }
        if (step == Step.PREPARE) {
            if (frameKind == FrameKind.PREPARE_OK) {
                ByteBuf p = Frames.payload(frame);
                long id = p.getUnsignedIntLE(p.readerIndex() + 1);
                int columns = p.getUnsignedShortLE(p.readerIndex() + 5);
                int params = p.getUnsignedShortLE(p.readerIndex() + 7);
                cacheStatement(conn, new BackendStatement(id, params, columns));
            }
            captureError(frame, frameKind);
            return;
        }
        if (swallowedError != null) {
            // The deferred START TRANSACTION failed: the statement's answer must not reach the client.
            frame.release();
            return;
        }
        if (mode == Mode.PREPARE && frameKind == FrameKind.PREPARE_OK) {
            ByteBuf p = Frames.payload(frame);
            long backendId = p.getUnsignedIntLE(p.readerIndex() + 1);
            int columns = p.getUnsignedShortLE(p.readerIndex() + 5);
            int params = p.getUnsignedShortLE(p.readerIndex() + 7);
            statement.prepared(params, columns);
            cacheStatement(conn, new BackendStatement(backendId, params, columns));
            p.setIntLE(p.readerIndex() + 1, (int) statement.id());
        }
        relayedAny = true;
        session.output().relay(frame);
        if (!session.output().channel().isWritable()) {
            session.pauseBackend(conn);
        }
    }

    private void cacheStatement(BackendConnection conn, BackendStatement backend) {
        List<BackendStatement> evicted = conn.statements().put(statement.sql(), backend);
        for (BackendStatement old : evicted) {
            ByteBuf close = conn.commandFrame(CommandCode.STMT_CLOSE, intLe(old.id()));
            conn.sendWithoutResponse(close);
        }
    }

    private static byte[] intLe(long v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    private void captureError(ByteBuf frame, FrameKind frameKind) {
        if (frameKind == FrameKind.ERR && swallowedError == null) {
            swallowedError = ErrPacket.decode(Frames.payload(frame));
        }
        frame.release();
    }

    @Override
    public void complete(BackendConnection conn, ResponseTracker tracker) {
        switch (step) {
            case SYNC:
                if (--syncResponses > 0) {
                    return;
                }
                if (swallowedError != null) {
                    // The connection's state is now unknown: it must not serve anyone again.
                    conn.close();
                    finishWithError(conn, swallowedError);
                    return;
                }
                conn.sessionState().applied(session.settings());
                afterSync();
                return;
            case PREPARE:
                if (swallowedError != null) {
                    finishWithError(conn, swallowedError);
                    return;
                }
                sendRequest();
                return;
            case RUN:
                if (beginPending) {
                    beginPending = false;
                    if (swallowedError == null) {
                        session.transactionBegun(shard, conn);
                    }
                    return;
                }
                session.metrics().shardLatency(shard, System.nanoTime() - startNanos);
                if (swallowedError != null) {
                    finishWithError(conn, swallowedError);
                    return;
                }
                BackendConnection used = connection;
                reset();
                session.afterResponse(shard, used, tracker, relayedAny);
                return;
            default:
                throw new IllegalStateException("response completed in step " + step);
        }
    }

    @Override
    public void failed(BackendConnection conn, Throwable cause) {
        if (step == Step.IDLE) {
            return;
        }
        boolean partial = relayedAny;
        reset();
        session.backendLost(shard, conn, cause, partial);
    }

    @Override
    public void readComplete(BackendConnection conn) {
        session.output().flush();
    }

    private void finishWithError(BackendConnection conn, ErrPacket error) {
        reset();
        session.afterError(shard, conn, error);
    }

    private void reset() {
        step = Step.IDLE;
        connection = null;
        statement = null;
        if (request != null) {
            request.release();
            request = null;
        }
    }

    boolean isIdle() {
        return step == Step.IDLE;
    }
}
