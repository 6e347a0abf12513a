package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.AcquireCallback;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.Consumer;

/**
 * Runs one client command on one shard and relays the answer (the hot path): get a connection
 * (the session's own when its transaction or pinned state is there, else one borrowed from the
 * loop's pool), bring it to the session's settings, prepare the statement there if an execute
 * needs it, send it (after a deferred START TRANSACTION when one is due, in the same round trip),
 * and relay the response frames as they arrive with only sequence ids rewritten. How the command
 * ends is {@link RelayOutcome}'s. One instance per session, reused for every command.
 *
 * <p>A statement that may share its connection ({@link PipelineRule}) first looks for one that
 * another client's statement was written on in this event-loop pass, with the same settings (and
 * for an execute, the statement prepared there): it is written behind it, and the pass ends with
 * one flush for both ({@code PipelineWindow}). Its answer comes in order after the other's, and
 * everything else goes as for a connection of its own.
 */
final class ShardExchange implements AcquireCallback, ResponseSink {

    private static final Logger log = LoggerFactory.getLogger(ShardExchange.class);

    enum Mode {
        /** Relay the response unchanged. */
        RELAY,
        /** COM_STMT_PREPARE: relay, with the backend's statement id replaced by the client's. */
        PREPARE,
        /** COM_STMT_EXECUTE: prepare on this connection first if needed, put its id in the packet. */
        EXECUTE,
        /** COM_STMT_FETCH: on the connection holding the cursor, with that connection's statement id. */
        FETCH
    }

    private enum Step { IDLE, ACQUIRE, SYNC, PREPARE, RUN }

    private final Session session;
    private final RelayOutcome outcome;
    private Step step = Step.IDLE;
    private Command command;
    private int shard;
    private ByteBuf request;
    private ResponseKind kind;
    private Mode mode;
    private ClientStatement statement;
    private boolean startsTransaction;
    private boolean forceInTransaction;
    private BackendConnection connection;
    /** The connection's own statement for an execute, once known (looked up once per execute). */
    private BackendStatement backendStatement;
    private int preambleResponses;
    private ErrPacket swallowedError;
    private boolean relayedAny;
    private long startNanos;
    private PipelineRule sharing = PipelineRule.ALONE;
    /** The settings the command needs on its connection (tested by {@link #fitsPipeline}). */
    private io.cleave.proxy.session.SessionSettings target;
    private final Predicate<BackendConnection> fitsPipeline = this::fitsPipeline;
    /** The sync step's callback, made once: a lambda capturing the connection would be a new object per statement. */
    private final Consumer<ErrPacket> synced = this::synced;
    /** Runs the statement once the commit fence lets it through (made once: a method reference per statement would allocate). */
    private final Runnable reachAfterFence = this::reach;

    ShardExchange(Session session, RelayOutcome outcome) {
        this.session = session;
        this.outcome = outcome;
    }

    /**
     * Relays {@code command}'s frame to {@code shard}.
     *
     * @param statement          the prepared statement of a PREPARE, EXECUTE or FETCH, else null
     * @param startsTransaction  the statement joins the session's transaction (a deferred BEGIN goes first)
     * @param forceInTransaction relayed status flags say IN_TRANS although this connection has none
     *                           (a read served outside the transaction the client has begun)
     */
    void run(Command command, int shard, ResponseKind kind, Mode mode, ClientStatement statement,
             boolean startsTransaction, boolean forceInTransaction) {
        run(command, shard, kind, mode, statement, startsTransaction, forceInTransaction, PipelineRule.ALONE);
    }

    /** As above; {@code sharing}: whether the statement may share its connection with other clients'. */
    void run(Command command, int shard, ResponseKind kind, Mode mode, ClientStatement statement,
             boolean startsTransaction, boolean forceInTransaction, PipelineRule sharing) {
        this.sharing = sharing;
        this.command = command;
        this.shard = shard;
        this.request = command.frame().retain();
        this.kind = kind;
        this.mode = mode;
        this.statement = statement;
        this.startsTransaction = startsTransaction;
        this.forceInTransaction = forceInTransaction;
        this.swallowedError = null;
        this.relayedAny = false;
        this.preambleResponses = 0;
        step = Step.ACQUIRE;
        // A branch commit of a transaction already acknowledged may still run on this shard:
        // the statement waits for it, so it cannot read around that transaction.
        if (!session.runtime().commitFence().passes(shard, session.loop().loop(), reachAfterFence)) {
            return;
        }
        reach();
    }

    private void reach() {
        BackendConnection own = session.connections().connectionFor(shard, command.effects().previousConnection());
        if (own != null) {
            // The session's own connection (pinned state, its transaction): nobody else's
            // statement may follow on it, it could see this session's temporary tables or locks.
            sharing = PipelineRule.ALONE;
            onConnection(own);
            return;
        }
        BackendPool pool = session.loop().pool(shard);
        if (sharing != PipelineRule.ALONE && pool.pipelines()) {
            target = session.settingsFor(command);
            BackendConnection joined = pool.joinPipeline(session.shardLogin(), fitsPipeline);
            target = null;
            if (joined != null) {
                if (!session.connections().lent(joined)) {
                    Command gone = command;
                    reset();
                    gone.finishSilently();
                    return;
                }
                // Settings are the session's already (that is what fits means): nothing to sync.
                connection = joined;
                sendRequest();
                return;
            }
        }
        step = Step.ACQUIRE;
        pool.acquire(session.shardLogin(), this);
    }

    /** A connection held open in this pass fits the command: its settings, and for an execute its statement. */
    private boolean fitsPipeline(BackendConnection conn) {
        if (!conn.sessionState().applied().equals(target)) {
            return false;
        }
        return mode != Mode.EXECUTE || conn.statements().get(statement.sql()) != null;
    }

    @Override
    public void acquired(BackendConnection conn) {
        if (session.connections().lent(conn)) {
            onConnection(conn);
            return;
        }
        // The client left while the command waited in the pool's line: the connection went
        // straight back, and the command ends with nobody to answer.
        Command gone = command;
        reset();
        gone.finishSilently();
    }

    @Override
    public void failed(Throwable cause) {
        finishWithError(null, ShardErrors.unavailable(shard, cause));
    }

    @Override
    public ConnectionWaiter waiter() {
        return session.tracked();
    }

    private void onConnection(BackendConnection conn) {
        connection = conn;
        step = Step.SYNC;
        SessionSyncStep.run(conn, session.settingsFor(command), synced);
    }

    private void synced(ErrPacket error) {
        if (step != Step.SYNC) {
            return;
        }
        if (error != null) {
            finishWithError(connection, error);
            return;
        }
        afterSync();
    }

    private void afterSync() {
        if (mode == Mode.EXECUTE) {
            backendStatement = connection.statements().get(statement.sql());
        }
        if (mode == Mode.EXECUTE && backendStatement == null) {
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
        List<String> preamble = session.preamble(shard, startsTransaction, command);
        if (preamble != null) {
            for (String s : preamble) {
                connection.send(connection.queryFrame(s), ResponseKind.RESULT, this);
                preambleResponses++;
            }
        }
        ByteBuf toSend = request.retain();
        if (mode == Mode.EXECUTE) {
            toSend = executeFrameFor(backendStatement != null ? backendStatement
                    : connection.statements().get(statement.sql()), toSend);
        } else if (mode == Mode.FETCH) {
            toSend.setIntLE(toSend.readerIndex() + Frames.HEADER_SIZE + 1,
                    (int) connection.statements().get(statement.sql()).id());
        }
        startNanos = System.nanoTime();
        connection.send(toSend, kind, this);
        BackendPool pool = connection.pool();
        if (sharing != PipelineRule.ALONE && pool != null && pool.pipelines()) {
            pool.holdForPipeline(connection, sharing == PipelineRule.SHARED);
        } else {
            connection.flush();
        }
    }

    /** Points an execute at this connection's statement id, adding parameter types it has not seen. */
    private ByteBuf executeFrameFor(BackendStatement backend, ByteBuf frame) {
        statement.replayLongData(connection, backend.id());
        short[] types = statement.boundTypes();
        if (!command.typesSent() && types != null && backend.boundTypes() != types) {
            ByteBuf rebuilt = ExecutePackets.withTypes(command.payload(), statement.paramCount(), types, backend.id());
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
        if (step == Step.PREPARE) {
            if (frameKind == FrameKind.PREPARE_OK) {
                ByteBuf p = Frames.payload(frame);
                statement.preparedOn(conn, p.getUnsignedIntLE(p.readerIndex() + 1),
                        p.getUnsignedShortLE(p.readerIndex() + 7), p.getUnsignedShortLE(p.readerIndex() + 5));
            }
            captureError(frame, frameKind);
            return;
        }
        if (preambleResponses > 0 || swallowedError != null) {
            // A preamble statement's answer, or the statement's own after a preamble failed:
            // neither reaches the client.
            captureError(frame, frameKind);
            return;
        }
        if (mode == Mode.PREPARE && frameKind == FrameKind.PREPARE_OK) {
            ByteBuf p = Frames.payload(frame);
            long backendId = p.getUnsignedIntLE(p.readerIndex() + 1);
            int columns = p.getUnsignedShortLE(p.readerIndex() + 5);
            int params = p.getUnsignedShortLE(p.readerIndex() + 7);
            statement.prepared(params, columns);
            statement.preparedOn(conn, backendId, params, columns);
            p.setIntLE(p.readerIndex() + 1, (int) statement.id());
        }
        if (forceInTransaction && (frameKind == FrameKind.OK || frameKind == FrameKind.EOF)) {
            StatusPatch.or(frame, ServerStatus.IN_TRANS);
        }
        relayedAny = true;
        ClientOutput output = session.output();
        if (!output.channel().isActive()) {
            // The client left while its answer was on the way (behind others' on a shared connection).
            frame.release();
            return;
        }
        output.relay(frame);
        if (!output.channel().isWritable() && conn.pendingResponses() == 1) {
            // Reading stops only for a connection whose next answers are this client's: answers of
            // other clients behind it on the same connection must not wait for a slow reader.
            session.connections().pause(conn);
        }
    }

    private void captureError(ByteBuf frame, FrameKind frameKind) {
        if (frameKind == FrameKind.ERR && swallowedError == null) {
            swallowedError = ErrPacket.decode(Frames.payload(frame));
            log.info("shard {} {}: a statement the proxy sent before the client's failed: {}", shard, connection,
                    LogSafe.text(swallowedError.message()));
        }
        frame.release();
    }

    @Override
    public void complete(BackendConnection conn, ResponseTracker tracker) {
        switch (step) {
            case PREPARE:
                if (swallowedError != null) {
                    finishWithError(conn, swallowedError);
                    return;
                }
                sendRequest();
                return;
            case RUN:
                if (preambleResponses > 0) {
                    if (--preambleResponses == 0 && swallowedError == null && startsTransaction) {
                        session.transaction().joined(shard, conn);
                    }
                    return;
                }
                session.metrics().shardLatency(shard, System.nanoTime() - startNanos);
                if (swallowedError != null) {
                    finishWithError(conn, swallowedError);
                    return;
                }
                Command done = command;
                BackendConnection used = connection;
                reset();
                outcome.completed(done, shard, used, tracker);
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
        Command lost = command;
        reset();
        outcome.lost(lost, shard, conn, cause, partial);
    }

    @Override
    public void readComplete(BackendConnection conn) {
        session.output().flush();
    }

    private void finishWithError(BackendConnection conn, ErrPacket error) {
        Command failed = command;
        reset();
        outcome.failed(failed, shard, conn, error);
    }

    private void reset() {
        step = Step.IDLE;
        sharing = PipelineRule.ALONE;
        command = null;
        connection = null;
        backendStatement = null;
        statement = null;
        if (request != null) {
            request.release();
            request = null;
        }
    }
}
