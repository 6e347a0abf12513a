package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.backend.ShardBusyException;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.PacketAssembler;
import io.cleave.proxy.protocol.PacketTooLargeException;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.proxy.protocol.packet.client.ComStmtSendLongData;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Pin;
import io.cleave.router.plan.PinNames;
import io.cleave.router.plan.Plan;
import io.cleave.router.sql.lex.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One logged-in client: reads commands one at a time (a client that pipelines waits in a queue),
 * keeps the session's state (settings, transaction, pinned connections, prepared statements) and
 * hands each statement to the {@link StatementRunner} with its plan. Everything happens on the
 * client channel's event loop.
 */
final class ClientSession implements ExchangeContext {

    private static final Logger log = LoggerFactory.getLogger(ClientSession.class);

    private final ProxyRuntime runtime;
    private final LoopResources loop;
    private final ClientOutput output;
    private final long connectionId;
    private final Capabilities capabilities;
    private final LoginChallenge challenge;
    /** The character set a reset goes back to: the handshake's, or the last COM_CHANGE_USER's. */
    private Charset loginCharset;
    private final ShardExchange exchange;
    private final StatementRunner runner;
    private final PacketAssembler assembler;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private final Map<Long, ClientStatement> statements = new HashMap<>();
    private final TransactionState transaction;
    private final ConnectionPins pins;
    private final Cursors cursors;
    /** The connection-bound state the current statement creates or releases (read before it runs). */
    private PinNames currentPins = PinNames.NONE;
    /** User variables the current statement assigns outside SET (empty: none), read back after it. */
    private List<String> assignedVariables = List.of();
    private final LiteralParameters literals = new LiteralParameters();
    private String user;
    private SessionSettings settings;
    private SqlMode sqlMode = SqlMode.DEFAULT;
    private boolean busy;
    private boolean closed;
    private ByteBuf current;
    /** The current command's payload: a slice of {@link #current}, or {@link #joined}. */
    private ByteBuf currentPayload;
    /** A command of 16 MB or more, joined from its frames (owned; {@link #current} is its re-framed copy). */
    private ByteBuf joined;
    private CommandCode currentCommand;
    private Plan currentPlan;
    private long nextStatementId;
    private long lastInsertId;
    private long lastAffectedRows;
    private boolean multiStatements;
    private BackendConnection paused;
    /** A COM_CHANGE_USER waiting for the client's next authentication packet. */
    private ChangeUser changeUser;
    /** The connection of the previous statement, kept while it has warnings the client may ask for. */
    private BackendConnection warningsConnection;

    ClientSession(ProxyRuntime runtime, LoopResources loop, ClientOutput output, long connectionId, String user,
                  Capabilities capabilities, Charset charset, LoginChallenge challenge) {
        this.runtime = runtime;
        this.loop = loop;
        this.output = output;
        this.connectionId = connectionId;
        this.user = user;
        this.capabilities = capabilities;
        this.loginCharset = charset;
        this.challenge = challenge;
        this.exchange = new ShardExchange(this);
        this.runner = new StatementRunner(this);
        this.assembler = new PacketAssembler(runtime.config().maxAllowedPacket());
        this.transaction = new TransactionState(runtime.shardCount());
        this.pins = new ConnectionPins(runtime.shardCount());
        this.cursors = new Cursors(this, pins);
        this.multiStatements = capabilities.multiStatements();
        output.capabilities(capabilities);
    }

    /** Login succeeded; the schema the client asked for is taken as given (USE semantics come with its first statement). */
    void start(String database) {
        settings = SessionSettings.initial(database, loginCharset);
        output.ok(ServerStatus.AUTOCOMMIT);
        output.flush();
    }

    // ---- accessors for the runner and the exchanges ------------------------------------------

    ProxyRuntime runtime() {
        return runtime;
    }

    @Override
    public LoopResources loop() {
        return loop;
    }

    ClientOutput output() {
        return output;
    }

    ProxyMetrics metrics() {
        return runtime.metrics();
    }

    @Override
    public SessionSettings settings() {
        return settings;
    }

    void settings(SessionSettings updated) {
        this.settings = updated;
        String mode = updated.systemVariables().get("sql_mode");
        sqlMode = mode == null ? SqlMode.DEFAULT : SqlMode.fromSqlMode(unquote(mode));
    }

    SqlMode sqlMode() {
        return sqlMode;
    }

    long connectionId() {
        return connectionId;
    }

    long lastInsertId() {
        return lastInsertId;
    }

    void lastInsertId(long id) {
        this.lastInsertId = id;
    }

    long lastAffectedRows() {
        return lastAffectedRows;
    }

    TransactionState transaction() {
        return transaction;
    }

    ShardExchange exchange() {
        return exchange;
    }

    Cursors cursors() {
        return cursors;
    }

    ByteBuf currentFrame() {
        return current;
    }

    /** The current command's whole payload (joined when it came in several frames). */
    ByteBuf currentPayload() {
        return currentPayload;
    }

    CommandCode currentCommand() {
        return currentCommand;
    }

    Plan currentPlan() {
        return currentPlan;
    }

    void currentPlan(Plan plan) {
        this.currentPlan = plan;
    }

    @Override
    public int responseProfile() {
        return capabilities.responseProfile();
    }

    boolean multiStatements() {
        return multiStatements;
    }

    java.nio.charset.Charset javaCharset() {
        Charset c = settings.charset();
        return c == null ? java.nio.charset.StandardCharsets.UTF_8 : c.javaCharset();
    }

    /** The session's own connection to {@code shard}, if it has one: its transaction's, else a pinned one. */
    @Override
    public BackendConnection connectionFor(int shard) {
        BackendConnection c = transaction.held(shard);
        if (c != null) {
            return c;
        }
        BackendConnection pin = pins.connection(shard);
        if (pin != null) {
            return pin;
        }
        if (warningsConnection != null && warningsConnection.shard() == shard && currentPlan instanceof Plan.Route r
                && r.effects().previousConnection()) {
            return warningsConnection;
        }
        return null;
    }

    /** A shard where the session already works (its transaction, a pinned connection), or -1. */
    int shardInUse() {
        int s = transaction.onlyShard();
        if (s >= 0) {
            return s;
        }
        return pins.anyShard();
    }

    /**
     * What to send a shard ahead of the current statement: joining the transaction (START
     * TRANSACTION on the first shard, XA START on others), LAST_INSERT_ID.
     */
    @Override
    public List<String> preamble(int shard, boolean inTransaction) {
        List<String> out = transaction.preamble(shard, inTransaction, this::newXid);
        if (currentPlan instanceof Plan.Route r && r.effects().usesLastInsertId()) {
            out = out == null ? new ArrayList<>(1) : out;
            // The connection's own LAST_INSERT_ID() belongs to whoever used it last.
            out.add("DO LAST_INSERT_ID(" + lastInsertId + ")");
        }
        return out;
    }

    @Override
    public void transactionJoined(int shard, BackendConnection conn) {
        if (transaction.held(shard) == null && transaction.joining(shard)) {
            transaction.hold(shard, conn);
        }
    }

    @Override
    public void joinFailed(int shard) {
        transaction.joinFailed(shard);
    }

    /** Whether the current statement belongs to a transaction (so it joins it on its shard). */
    boolean inTransaction() {
        return transaction.active() || !settings.autocommit();
    }

    /**
     * A new XA id: {@code cleave:<coordinator shard>:<proxy run>:<connection>:<sequence>}. Recovery
     * reads the coordinator from it to find the commit decision.
     */
    private String newXid(int coordinator) {
        return "cleave:" + coordinator + ":" + runtime.runId() + ":" + connectionId + ":" + (++transactionSequence);
    }

    private long transactionSequence;

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

    LiteralParameters literals(Analysis analysis) {
        return literals.bind(analysis, javaCharset());
    }

    // ---- reading commands ----------------------------------------------------------------------

    void onFrame(ByteBuf frame) {
        if (closed) {
            frame.release();
            return;
        }
        if (changeUser != null) {
            // An authentication round of COM_CHANGE_USER, not a new command.
            try {
                if (changeUser.onPacket(frame, challenge)) {
                    changeUser = null;
                }
            } catch (MalformedPacketException | IndexOutOfBoundsException | IllegalStateException e) {
                changeUser = null;
                fatal(1835, "08S01", "Malformed communication packet: " + e.getMessage());
            } finally {
                frame.release();
            }
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
        if (Frames.payloadLength(frame) < Frames.MAX_PAYLOAD && !assemblerBusy) {
            current = frame;
            payload = Frames.payload(frame);
            output.respondTo(Frames.sequence(frame));
        } else {
            try {
                assemblerBusy = true;
                ByteBuf whole = assembler.add(output.channel().alloc(), frame);
                if (whole == null) {
                    return;
                }
                assemblerBusy = false;
                output.respondTo(assembler.lastSequence());
                // Read from the joined payload; relay the re-framed copy.
                joined = whole;
                current = reframe(whole);
                payload = whole;
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
        currentPayload = payload;
        try {
            dispatch(payload);
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            fatal(1835, "08S01", "Malformed communication packet: " + e.getMessage());
        } catch (RuntimeException e) {
            log.warn("connection {}: command failed in the proxy", connectionId, e);
            error(1105, "HY000", "proxy error: " + e);
        }
    }

    private boolean assemblerBusy;

    private ByteBuf reframe(ByteBuf payload) {
        ByteBuf buf = Frames.begin(output.channel().alloc(), payload.readableBytes());
        buf.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
        return Frames.finish(buf, 0);
    }

    private void dispatch(ByteBuf payload) {
        if (!payload.isReadable()) {
            throw new MalformedPacketException("empty command packet");
        }
        int code = payload.getUnsignedByte(payload.readerIndex());
        CommandCode command = CommandCode.of(code);
        currentCommand = command;
        currentPlan = null;
        currentPins = PinNames.NONE;
        assignedVariables = List.of();
        cursors.newCommand();
        if (command == null) {
            unknownCommand(code);
            return;
        }
        if (command != CommandCode.QUERY) {
            releaseWarningsConnection();
        }
        switch (command) {
            case QUIT:
                closed = true;
                releaseCurrent();
                output.channel().close();
                return;
            case PING:
                runtime.metrics().command(command, RouteKind.LOCAL);
                output.ok(status());
                finishCommand();
                return;
            case QUERY:
                runner.query(payload);
                return;
            case INIT_DB:
                runner.initDb(payload);
                return;
            case STMT_PREPARE:
                runner.prepare(payload);
                return;
            case STMT_EXECUTE:
                runner.execute(payload);
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
            case STMT_FETCH:
                cursors.fetch(payload);
                return;
            case FIELD_LIST:
                runner.relayToAnyShard(ResponseKind.FIELD_LIST);
                return;
            case STATISTICS:
                runner.relayToAnyShard(ResponseKind.STATISTICS);
                return;
            case SET_OPTION:
                setOption(payload);
                return;
            case RESET_CONNECTION:
                runtime.metrics().command(command, RouteKind.LOCAL);
                resetSession(settings.schema(), loginCharset);
                output.ok(status());
                finishCommand();
                return;
            case CHANGE_USER:
                changeUser = ChangeUser.start(this, payload, challenge);
                return;
            default:
                unknownCommand(code);
        }
    }

    // ---- prepared statements ---------------------------------------------------------------------

    ClientStatement newStatement(PreparedSql sql, Analysis analysis) {
        ClientStatement statement = new ClientStatement(++nextStatementId, sql, analysis);
        statements.put(statement.id(), statement);
        return statement;
    }

    ClientStatement statement(long id) {
        return statements.get(id);
    }

    /** The id of the statement prepared last (MariaDB clients execute id 0xffffffff to mean it). */
    long lastStatementId() {
        return nextStatementId;
    }

    void forgetStatement(ClientStatement statement) {
        statements.remove(statement.id());
        statement.clearLongData();
    }

    void cacheBackendStatement(BackendConnection conn, ClientStatement statement, long backendId, int params,
                               int columns) {
        List<BackendStatement> evicted = conn.statements().put(statement.sql(),
                new BackendStatement(backendId, params, columns));
        for (BackendStatement old : evicted) {
            long id = old.id();
            conn.sendWithoutResponse(conn.commandFrame(CommandCode.STMT_CLOSE,
                    new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)}));
        }
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
            if (statement.cursorShard() >= 0) {
                // COM_STMT_CLOSE has no response: the next command waits for the cursor to close.
                cursors.close(statement, this::finishCommandSilently);
                return;
            }
        }
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
        if (statement.cursorShard() >= 0) {
            cursors.close(statement, () -> {
                output.ok(status());
                finishCommand();
            });
            return;
        }
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
        // COM_STMT_SEND_LONG_DATA has no response.
        finishCommandSilently();
    }

    ParameterValues executeParameters(ComStmtExecute execute, ByteBuf payload, ClientStatement statement) {
        BoundParameters bound = new BoundParameters(execute, payload, statement, javaCharset(),
                sqlMode.noBackslashEscapes());
        return new LiteralParameters().bind(statement.analysis(), javaCharset()).forPlaceholders(bound);
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
        error(1047, "08S01", "Unknown command (0x" + Integer.toHexString(code) + ")");
    }

    // ---- after a shard answered ------------------------------------------------------------------

    /** Errors that end a transaction spanning shards: no shard may keep its half. */
    boolean abortsDistributedTransaction(int code) {
        return transaction.distributed() && (code == 1213 || code == 1205 || code == 1062);
    }

    /** Rolls back every shard of the transaction, then runs {@code then}. */
    void rollbackDistributed(Runnable then) {
        new DistributedCommit(this).rollback(ignored -> then.run());
    }

    /** A single-shard statement's response was relayed completely. */
    void afterResponse(int shard, BackendConnection conn, ResponseTracker tracker) {
        if (tracker.isError() && abortsDistributedTransaction(tracker.errorCode())) {
            settle(shard, conn, false);
            rollbackDistributed(this::finishCommand);
            return;
        }
        if (tracker.isError()) {
            runtime.metrics().error(tracker.errorCode());
            if (currentCommand == CommandCode.STMT_PREPARE) {
                statements.remove(nextStatementId);
            }
        } else {
            if (tracker.lastInsertId() != 0) {
                lastInsertId = tracker.lastInsertId();
            }
            lastAffectedRows = tracker.affectedRows();
            if (ServerStatus.has(tracker.statusFlags(), ServerStatus.DB_DROPPED)) {
                databaseDropped();
                // Whether the connection lost its schema depends on which one it had: start it over.
                conn.close();
            }
            if (currentPins.pin() != Pin.NONE) {
                pins.apply(shard, conn, currentPins);
            }
            cursors.afterResponse(shard, conn, tracker);
        }
        boolean keepForWarnings = tracker.warnings() > 0 && !tracker.isError();
        boolean ok = !tracker.isError() && conn.isUsable();
        List<String> locks = ok && currentPins.pin() == Pin.NAMED_LOCK ? currentPins.names() : List.of();
        List<String> variables = ok ? assignedVariables : List.of();
        if (locks.isEmpty() && variables.isEmpty()) {
            settle(shard, conn, keepForWarnings);
            finishCommand();
            return;
        }
        readBack(shard, conn, variables, locks, () -> {
            settle(shard, conn, keepForWarnings);
            finishCommand();
        });
    }

    /**
     * After a statement that assigned user variables outside SET, or called GET_LOCK(): reads
     * from its connection what they are now, so the session carries the variables to whichever
     * connection serves it next, and keeps the connection pinned only for locks it really owns
     * (a GET_LOCK that timed out took nothing).
     */
    private void readBack(int shard, BackendConnection conn, List<String> variables, List<String> locks, Runnable then) {
        StringBuilder select = new StringBuilder(!variables.isEmpty() ? ConnectionReadBack.selectVariables(variables)
                : "SELECT 1");
        for (String lock : locks) {
            select.append(", IS_USED_LOCK('").append(lock.replace("\\", "\\\\").replace("'", "''"))
                    .append("') <=> CONNECTION_ID()");
        }
        int firstLock = !variables.isEmpty() ? variables.size() : 1;
        ConnectionReadBack.run(conn, select.toString(), (columns, row) -> {
            if (!variables.isEmpty() && row != null) {
                SessionSettings updated = settings;
                for (int i = 0; i < variables.size(); i++) {
                    updated = updated.withUserVariable(variables.get(i),
                            SessionStatements.literal(columns.get(i), row, i, !sqlMode.noBackslashEscapes()));
                }
                settings(updated);
                conn.sessionState().applied(updated);
            }
            List<String> free = new ArrayList<>();
            for (int i = 0; i < locks.size(); i++) {
                if (row == null || !"1".equals(row.string(firstLock + i))) {
                    free.add(locks.get(i));
                }
            }
            pins.notHeld(shard, conn, free);
            then.run();
        });
    }

    /**
     * A statement of this session dropped a schema. If it was the session's current one, the
     * session has none now, as on a server.
     */
    void databaseDropped() {
        String schema = settings.schema();
        if (schema == null || currentCommand != CommandCode.QUERY || currentPayload == null) {
            return;
        }
        ByteBuf p = currentPayload;
        byte[] sql = new byte[p.readableBytes() - 1];
        p.getBytes(p.readerIndex() + 1, sql);
        if (schema.equals(DroppedSchema.of(sql, sqlMode))) {
            settings(settings.withSchema(null));
        }
    }

    /** The user variables the statement about to run assigns outside SET (empty: none). */
    void assignedVariables(List<String> names) {
        this.assignedVariables = names;
    }

    void afterError(int shard, BackendConnection conn, ErrPacket error) {
        if (currentCommand == CommandCode.STMT_PREPARE) {
            statements.remove(nextStatementId);
        }
        if (conn != null) {
            settle(shard, conn, false);
        }
        runtime.metrics().error(error.errorCode());
        output.error(error);
        finishCommand();
    }

    void backendLost(int shard, BackendConnection conn, Throwable cause, boolean partial) {
        boolean inTransaction = transaction.held(shard) == conn;
        settle(shard, conn, false);
        log.info("connection {}: lost {} ({})", connectionId, conn, cause.getMessage());
        if (partial || inTransaction) {
            // The client saw part of a result, or its transaction is gone: only a closed
            // connection tells it the truth.
            fatal(1158, "08S01", "Lost connection to shard " + shard + " during query"
                    + (inTransaction ? "; the transaction was rolled back" : "") + ": " + cause.getMessage());
            return;
        }
        error(1158, "08S01", "Lost connection to shard " + shard + " during query: " + cause.getMessage());
    }

    /** A leg of a multi-shard statement is done with its connection. */
    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        settle(shard, conn, false);
    }

    /**
     * Keeps a connection the session still needs (an open transaction on it, pinned state, warnings
     * the client may ask for) and gives the others back to the pool.
     */
    void settle(int shard, BackendConnection conn, boolean keepForWarnings) {
        boolean inTransaction = conn.isUsable() && ServerStatus.has(conn.lastStatus(), ServerStatus.IN_TRANS);
        if (transaction.held(shard) == conn && conn.isUsable() && transaction.isXaBranch(shard)) {
            // An XA branch stays with the transaction until the distributed commit ends it.
            return;
        }
        if (inTransaction) {
            transaction.hold(shard, conn);
            return;
        }
        if (transaction.held(shard) == conn) {
            transaction.drop(shard);
            if (!transaction.begun() && transaction.deferredBegin() != null && !conn.isUsable()) {
                transaction.end();
            }
        }
        if (pins.isPinned(shard, conn)) {
            if (conn.isUsable()) {
                return;
            }
            pins.lost(shard, conn);
        }
        if (warningsConnection == conn) {
            warningsConnection = null;
        }
        if (keepForWarnings && conn.isUsable()) {
            releaseWarningsConnection();
            warningsConnection = conn;
            return;
        }
        conn.release();
    }

    void releaseWarningsConnection() {
        BackendConnection c = warningsConnection;
        if (c != null) {
            warningsConnection = null;
            if (transaction.held(c.shard()) != c && !pins.isPinned(c.shard(), c)) {
                c.release();
            }
        }
    }

    boolean hasWarningsConnection() {
        return warningsConnection != null;
    }

    int warningsShard() {
        return warningsConnection == null ? -1 : warningsConnection.shard();
    }

    /**
     * The error for a statement that got no backend connection: all busy past the wait timeout
     * (ER_QUERY_TIMEOUT: the statement was not run and may be retried; not a connection error
     * such as 1040, which drivers map to SQLSTATE 08004 and treat as a dead connection), or the
     * shard unreachable.
     */
    static ErrPacket shardUnavailable(int shard, Throwable cause) {
        String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
        if (cause instanceof ShardBusyException) {
            return new ErrPacket(3024, "HY000", "Statement timed out waiting for a backend connection: " + message);
        }
        return new ErrPacket(2013, "HY000", "Shard " + shard + " is unavailable: " + message);
    }

    // ---- command completion ----------------------------------------------------------------

    int status() {
        int status = settings.autocommit() ? ServerStatus.AUTOCOMMIT : 0;
        if (transaction.active()) {
            status |= ServerStatus.IN_TRANS;
        }
        return status;
    }

    void error(int code, String state, String message) {
        runtime.metrics().error(code);
        output.error(code, state, message);
        finishCommand();
    }

    void error(ErrPacket err) {
        error(err.errorCode(), err.sqlState(), err.message());
    }

    void fatal(int code, String state, String message) {
        runtime.metrics().error(code);
        output.error(code, state, message);
        output.flush();
        closed = true;
        releaseCurrent();
        output.channel().close();
    }

    void finishCommand() {
        output.flush();
        finishCommandSilently();
    }

    void finishCommandSilently() {
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
        if (joined != null) {
            joined.release();
            joined = null;
        }
        currentPayload = null;
    }

    void close() {
        closed = true;
        output.channel().close();
    }

    /** COM_CHANGE_USER succeeded: the session starts over as {@code name}, in {@code schema}. */
    void loggedInAs(String name, String schema, Charset charset) {
        user = name;
        if (charset != null) {
            loginCharset = charset;
        }
        resetSession(schema, loginCharset);
        output.ok(status());
        finishCommand();
    }

    /**
     * COM_RESET_CONNECTION and COM_CHANGE_USER: the session starts over. Statements, transaction,
     * temporary tables and locks go; an open transaction rolls back with its connection.
     */
    private void resetSession(String schema, Charset charset) {
        for (ClientStatement s : statements.values()) {
            s.clearLongData();
        }
        statements.clear();
        releaseWarningsConnection();
        // Transactions roll back, temporary tables, locks and cursors go with their connections.
        dropConnections();
        transaction.end();
        settings(SessionSettings.initial(schema, charset));
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
        releaseWarningsConnection();
        // An open transaction dies with its client, as on a real server: closing the backend
        // connection rolls it back (and drops temporary tables, locks, cursors).
        dropConnections();
        if (paused != null) {
            paused.channel().config().setAutoRead(true);
            paused = null;
        }
    }

    /** Closes the connections of the session's transaction and pinned state, and forgets them. */
    private void dropConnections() {
        List<BackendConnection> pinnedConnections = pins.dropAll();
        for (int shard = 0; shard < runtime.shardCount(); shard++) {
            if (transaction.committing()) {
                // A two-phase commit is under way on these connections: it ends the transaction and
                // gives them back itself. Closing them now would leave its prepared branches waiting
                // for a decision that this proxy, still counting the commit as running, never settles.
                pinnedConnections.remove(transaction.held(shard));
                continue;
            }
            BackendConnection held = transaction.drop(shard);
            if (held != null) {
                held.close();
                held.release();
                pinnedConnections.remove(held);
            }
        }
        for (BackendConnection pin : pinnedConnections) {
            pin.close();
            pin.release();
        }
    }

    /** What the statement about to run creates or releases on its connection (see {@link PinNames}). */
    void currentPins(PinNames names) {
        this.currentPins = names;
    }

    private static String unquote(String literal) {
        if (literal.length() >= 2 && literal.charAt(0) == '\'' && literal.charAt(literal.length() - 1) == '\'') {
            return literal.substring(1, literal.length() - 1).replace("''", "'");
        }
        return literal;
    }

    String user() {
        return user;
    }
}
