package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendException;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.PacketAssembler;
import io.cleave.proxy.protocol.PacketTooLargeException;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.proxy.protocol.packet.client.ComStmtSendLongData;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One logged-in client: reads commands one at a time (a client that pipelines waits in a queue),
 * keeps the session's state, and runs each command on the right shard. Everything happens on the
 * client channel's event loop.
 */
final class ClientSession {

    private static final Logger log = LoggerFactory.getLogger(ClientSession.class);

    private final ProxyRuntime runtime;
    private final LoopResources loop;
    private final ClientOutput output;
    private final long connectionId;
    private final Capabilities capabilities;
    private final Charset handshakeCharset;
    private final byte[] scramble;
    private final ShardExchange exchange;
    private final PacketAssembler assembler;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private final Map<Long, ClientStatement> statements = new HashMap<>();
    private final BackendConnection[] held;
    private String user;
    private SessionSettings settings;
    private boolean busy;
    private boolean closed;
    private ByteBuf current;
    private CommandCode currentCommand;
    private long nextStatementId;
    private long lastInsertId;
    private boolean multiStatements;
    private BackendConnection paused;

    ClientSession(ProxyRuntime runtime, LoopResources loop, ClientOutput output, long connectionId, String user,
                  Capabilities capabilities, Charset charset, byte[] scramble) {
        this.runtime = runtime;
        this.loop = loop;
        this.output = output;
        this.connectionId = connectionId;
        this.user = user;
        this.capabilities = capabilities;
        this.handshakeCharset = charset;
        this.scramble = scramble;
        this.exchange = new ShardExchange(this);
        this.assembler = new PacketAssembler(runtime.config().maxAllowedPacket());
        this.held = new BackendConnection[runtime.shardCount()];
        this.multiStatements = capabilities.multiStatements();
        output.capabilities(capabilities);
    }

    /** Login succeeded: check the requested schema, then say OK. */
    void start(String database) {
        settings = SessionSettings.initial(null, handshakeCharset);
        output.ok(ServerStatus.AUTOCOMMIT);
        output.flush();
        if (database != null) {
            settings = settings.withSchema(database);
        }
    }

    // ---- what the exchange needs -------------------------------------------------------------

    LoopResources loop() {
        return loop;
    }

    ClientOutput output() {
        return output;
    }

    ProxyMetrics metrics() {
        return runtime.metrics();
    }

    SessionSettings settings() {
        return settings;
    }

    int responseProfile() {
        return capabilities.responseProfile();
    }

    BackendConnection heldConnection(int shard) {
        return held[shard];
    }

    /** The START TRANSACTION to send before the next statement on {@code shard}, if one is due. */
    String transactionToBegin(int shard) {
        return null;
    }

    void transactionBegun(int shard, BackendConnection conn) {
        held[shard] = conn;
    }

    void pauseBackend(BackendConnection conn) {
        paused = conn;
        conn.channel().config().setAutoRead(false);
    }

    void clientWritable() {
        if (paused != null) {
            BackendConnection conn = paused;
            paused = null;
            conn.channel().config().setAutoRead(true);
        }
    }

    // ---- reading commands ----------------------------------------------------------------------

    void onFrame(ByteBuf frame) {
        if (closed) {
            frame.release();
            return;
        }
        if (busy) {
            queued.add(frame);
            output.channel().config().setAutoRead(false);
            return;
        }
        process(frame);
    }

    private void process(ByteBuf frame) {
        ByteBuf payload;
        if (Frames.payloadLength(frame) < Frames.MAX_PAYLOAD && assemblerIdle()) {
            current = frame;
            payload = Frames.payload(frame);
            output.respondTo(Frames.sequence(frame));
        } else {
            try {
                ByteBuf whole = assembler.add(output.channel().alloc(), frame);
                if (whole == null) {
                    return;
                }
                output.respondTo(assembler.lastSequence());
                current = reframe(whole);
                payload = Frames.payload(current);
            } catch (PacketTooLargeException e) {
                output.respondTo(assembler.lastSequence());
                fatal(1153, "08S01", e.getMessage());
                return;
            } catch (MalformedPacketException e) {
                fatal(1835, "08S01", "Malformed communication packet: " + e.getMessage());
                return;
            }
        }
        busy = true;
        try {
            dispatch(payload);
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            fatal(1835, "08S01", "Malformed communication packet: " + e.getMessage());
        }
    }

    private boolean assemblerIdle() {
        return assembler.lastSequence() < 0 || true;
    }

    private ByteBuf reframe(ByteBuf payload) {
        ByteBuf buf = Frames.begin(output.channel().alloc(), payload.readableBytes());
        buf.writeBytes(payload);
        payload.release();
        return Frames.finish(buf, 0);
    }

    private void dispatch(ByteBuf payload) {
        if (!payload.isReadable()) {
            throw new MalformedPacketException("empty command packet");
        }
        CommandCode command = CommandCode.of(payload.getUnsignedByte(payload.readerIndex()));
        currentCommand = command;
        if (command == null) {
            unknownCommand(payload.getUnsignedByte(payload.readerIndex()));
            return;
        }
        switch (command) {
            case QUIT:
                closed = true;
                finishCommand();
                output.channel().close();
                return;
            case PING:
                runtime.metrics().command(command, RouteKind.LOCAL);
                output.ok(status());
                finishCommand();
                return;
            case QUERY:
                query(payload);
                return;
            case INIT_DB:
                initDb(payload);
                return;
            case STMT_PREPARE:
                prepare(payload);
                return;
            case STMT_EXECUTE:
                execute(payload);
                return;
            case STMT_CLOSE:
                statementClose(payload);
                return;
            case STMT_RESET:
                statementReset(payload);
                return;
            case STMT_SEND_LONG_DATA:
                sendLongData(payload);
                return;
            case FIELD_LIST:
                runOnShard(runtime.topology().defaultShard(), ResponseKind.FIELD_LIST, RouteKind.SINGLE_SHARD);
                return;
            case STATISTICS:
                runOnShard(runtime.topology().defaultShard(), ResponseKind.STATISTICS, RouteKind.SINGLE_SHARD);
                return;
            case SET_OPTION:
                setOption(payload);
                return;
            case RESET_CONNECTION:
                resetSession();
                runtime.metrics().command(command, RouteKind.LOCAL);
                output.ok(status());
                finishCommand();
                return;
            default:
                unknownCommand(command.code());
        }
    }

    // ---- commands ------------------------------------------------------------------------------

    private void query(ByteBuf payload) {
        int shard = runtime.topology().defaultShard();
        runOnShard(shard, ResponseKind.RESULT, RouteKind.SINGLE_SHARD);
    }

    private void initDb(ByteBuf payload) {
        String schema = payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1,
                java.nio.charset.StandardCharsets.UTF_8);
        settings = settings.withSchema(schema);
        runOnShard(runtime.topology().defaultShard(), ResponseKind.SIMPLE, RouteKind.SINGLE_SHARD);
    }

    private void prepare(ByteBuf payload) {
        byte[] sql = new byte[payload.readableBytes() - 1];
        payload.getBytes(payload.readerIndex() + 1, sql);
        ClientStatement statement = new ClientStatement(++nextStatementId, new PreparedSql(sql));
        statements.put(statement.id(), statement);
        runtime.metrics().command(currentCommand, RouteKind.SINGLE_SHARD);
        exchange.run(runtime.topology().defaultShard(), current, ResponseKind.PREPARE, ShardExchange.Mode.PREPARE,
                statement, false);
    }

    private void execute(ByteBuf payload) {
        long id = ComStmtExecute.statementId(payload);
        ClientStatement statement = statements.get(id);
        if (statement == null) {
            error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_execute");
            return;
        }
        ComStmtExecute execute = ComStmtExecute.parse(payload, statement.paramCount(), statement.boundTypes(),
                statement.longDataFlags());
        if (execute.newParamsBound()) {
            statement.boundTypes(execute.types().clone());
        }
        runtime.metrics().command(currentCommand, RouteKind.SINGLE_SHARD);
        exchange.run(runtime.topology().defaultShard(), current, ResponseKind.RESULT, ShardExchange.Mode.EXECUTE,
                statement, execute.newParamsBound());
    }

    /** Sends the long data collected for {@code statement} to {@code conn}, ahead of its execute. */
    void replayLongData(BackendConnection conn, ClientStatement statement, long backendId) {
        for (int p = 0; p < statement.paramCount(); p++) {
            CompositeByteBuf data = statement.longData(p);
            if (data != null) {
                conn.sendWithoutResponse(ExecutePackets.longData(conn.channel().alloc(), backendId, p, data));
            }
        }
        statement.clearLongData();
    }

    private void statementClose(ByteBuf payload) {
        long id = payload.getUnsignedIntLE(payload.readerIndex() + 1);
        ClientStatement statement = statements.remove(id);
        if (statement != null) {
            statement.clearLongData();
        }
        // COM_STMT_CLOSE has no response.
        finishCommandSilently();
    }

    private void statementReset(ByteBuf payload) {
        long id = payload.getUnsignedIntLE(payload.readerIndex() + 1);
        ClientStatement statement = statements.get(id);
        if (statement == null) {
            error(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to mysqld_stmt_reset");
            return;
        }
        statement.clearLongData();
        output.ok(status());
        finishCommand();
    }

    private void sendLongData(ByteBuf payload) {
        ComStmtSendLongData header = ComStmtSendLongData.decode(payload.duplicate());
        ClientStatement statement = statements.get(header.statementId());
        if (statement != null) {
            ByteBuf data = payload.retainedSlice(payload.readerIndex() + ComStmtSendLongData.DATA_OFFSET,
                    payload.readableBytes() - ComStmtSendLongData.DATA_OFFSET);
            statement.appendLongData(output.channel().alloc(), header.paramId(), data);
        }
        finishCommandSilently();
    }

    private void setOption(ByteBuf payload) {
        int option = payload.getUnsignedShortLE(payload.readerIndex() + 1);
        if (option > 1) {
            unknownCommand(CommandCode.SET_OPTION.code());
            return;
        }
        multiStatements = option == 0;
        runtime.metrics().command(currentCommand, RouteKind.LOCAL);
        output.endOfRows(status(), 0);
        finishCommand();
    }

    private void unknownCommand(int code) {
        runtime.metrics().error(1047);
        error(1047, "08S01", "Unknown command (0x" + Integer.toHexString(code) + ")");
    }

    private void runOnShard(int shard, ResponseKind kind, RouteKind route) {
        runtime.metrics().command(currentCommand, route);
        exchange.run(shard, current, kind, ShardExchange.Mode.RELAY, null, false);
    }

    // ---- after a shard answered ------------------------------------------------------------------

    void afterResponse(int shard, BackendConnection conn, ResponseTracker tracker, boolean relayed) {
        if (currentCommand == CommandCode.STMT_PREPARE && tracker.isError()) {
            statements.remove(nextStatementId);
        }
        if (!tracker.isError() && tracker.lastInsertId() != 0) {
            lastInsertId = tracker.lastInsertId();
        }
        keepOrRelease(shard, conn);
        finishCommand();
    }

    void afterError(int shard, BackendConnection conn, ErrPacket error) {
        if (currentCommand == CommandCode.STMT_PREPARE) {
            statements.remove(nextStatementId);
        }
        if (conn != null) {
            keepOrRelease(shard, conn);
        }
        runtime.metrics().error(error.errorCode());
        output.error(error);
        finishCommand();
    }

    void backendLost(int shard, BackendConnection conn, Throwable cause, boolean partial) {
        boolean inTransaction = held[shard] == conn;
        keepOrRelease(shard, conn);
        log.info("connection {}: lost {} ({})", connectionId, conn, cause.getMessage());
        if (partial || inTransaction) {
            // The client saw part of a result, or its transaction is gone: only a closed
            // connection tells it the truth.
            fatal(1158, "08S01", "Lost connection to shard " + shard + " during query"
                    + (inTransaction ? "; the transaction was rolled back" : "") + ": " + cause.getMessage());
            return;
        }
        runtime.metrics().error(1158);
        output.error(1158, "08S01", "Lost connection to shard " + shard + " during query: " + cause.getMessage());
        finishCommand();
    }

    private void keepOrRelease(int shard, BackendConnection conn) {
        boolean inTransaction = conn.isUsable() && ServerStatus.has(conn.lastStatus(), ServerStatus.IN_TRANS);
        if (inTransaction) {
            held[shard] = conn;
            return;
        }
        if (held[shard] == conn) {
            held[shard] = null;
        }
        conn.release();
    }

    static ErrPacket shardUnavailable(int shard, String message) {
        return new ErrPacket(2013, "HY000", "Shard " + shard + " is unavailable: " + message);
    }

    // ---- command completion ----------------------------------------------------------------

    private int status() {
        int status = settings.autocommit() ? ServerStatus.AUTOCOMMIT : 0;
        for (BackendConnection c : held) {
            if (c != null) {
                status |= ServerStatus.IN_TRANS;
            }
        }
        return status;
    }

    private void error(int code, String state, String message) {
        runtime.metrics().error(code);
        output.error(code, state, message);
        finishCommand();
    }

    private void fatal(int code, String state, String message) {
        runtime.metrics().error(code);
        output.error(code, state, message);
        output.flush();
        closed = true;
        releaseCurrent();
        output.channel().close();
    }

    private void finishCommand() {
        output.flush();
        finishCommandSilently();
    }

    private void finishCommandSilently() {
        releaseCurrent();
        busy = false;
        if (closed) {
            return;
        }
        ByteBuf next = queued.poll();
        if (next != null) {
            process(next);
        } else {
            output.channel().config().setAutoRead(true);
        }
    }

    private void releaseCurrent() {
        if (current != null) {
            current.release();
            current = null;
        }
    }

    private void resetSession() {
        for (ClientStatement s : statements.values()) {
            s.clearLongData();
        }
        statements.clear();
        settings = SessionSettings.initial(settings.schema(), handshakeCharset);
        lastInsertId = 0;
    }

    void clientClosed() {
        closed = true;
        while (!queued.isEmpty()) {
            queued.poll().release();
        }
        for (ClientStatement s : statements.values()) {
            s.clearLongData();
        }
        for (int shard = 0; shard < held.length; shard++) {
            BackendConnection conn = held[shard];
            if (conn != null) {
                held[shard] = null;
                // An open transaction dies with its client, as on a real server: closing the
                // backend connection rolls it back.
                conn.close();
                conn.release();
            }
        }
        if (paused != null) {
            paused.channel().config().setAutoRead(true);
            paused = null;
        }
    }
}
