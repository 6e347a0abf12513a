package io.cleave.proxy.backend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One authenticated connection to a shard, used by one event loop only (no locks). Commands may
 * be pipelined: each one that expects a response queues a tracker and a sink, and the response
 * frames go to the oldest queued sink in order.
 */
public final class BackendConnection {

    private static final class Pending {
        final ResponseTracker tracker = new ResponseTracker();
        ResponseSink sink;
    }

    private final Channel channel;
    private final ShardEndpoint endpoint;
    private final Capabilities capabilities;
    private final ServerInfo server;
    private final long connectionId;
    private final BackendSessionState sessionState;
    private final PreparedStatementCache statements;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>(4);
    private final ArrayDeque<Pending> spare = new ArrayDeque<>(4);
    private ResponseSink lastSink;
    /** Until the handshake says otherwise: a server starts sessions with autocommit on. */
    private int lastStatus = ServerStatus.AUTOCOMMIT;
    private boolean broken;
    private BackendPool pool;
    /** Lent to a borrower by the pool: {@link #release()} gives it back once. */
    private boolean borrowed;
    /** Borrowers beyond the first whose statements were pipelined onto it ({@link PipelineWindow}). */
    private int sharers;
    /** Some borrower joined it since the pool lent it last. */
    private boolean sharedThisLease;
    private long idleSinceNanos;
    /** The error the running statement ends with if the server fails it (it was stopped as a deadlock victim). */
    private ErrPacket replacementError;
    private AuthPlugin loginPlugin = AuthPlugin.MYSQL_NATIVE_PASSWORD;
    private byte[] loginScramble = new byte[0];
    private final ShardLogin login;
    private final int generation;

    BackendConnection(Channel channel, ShardEndpoint endpoint, Capabilities capabilities, ServerInfo server,
                      long connectionId, int statementCacheSize, ShardLogin login, int generation) {
        this.channel = channel;
        this.endpoint = endpoint;
        this.capabilities = capabilities;
        this.server = server;
        this.connectionId = connectionId;
        this.sessionState = new BackendSessionState(server.defaultCollation());
        this.statements = new PreparedStatementCache(statementCacheSize);
        this.login = login;
        this.generation = generation;
    }

    /** The account it is logged in as (and the clients' response profile it serves). */
    public ShardLogin login() {
        return login;
    }

    /** The grant tables' generation it logged in under (see {@link ShardLogins#generation()}). */
    int generation() {
        return generation;
    }

    /** The plugin and scramble the login finished with: COM_CHANGE_USER answers the same challenge. */
    void loggedInWith(AuthPlugin plugin, byte[] scramble) {
        this.loginPlugin = plugin;
        this.loginScramble = scramble;
    }

    /** The handshake's status flags: whether the server starts sessions with autocommit on. */
    void startedWith(int status) {
        this.lastStatus = status;
    }

    AuthPlugin loginPlugin() {
        return loginPlugin;
    }

    byte[] loginScramble() {
        return loginScramble;
    }

    public Channel channel() {
        return channel;
    }

    public int shard() {
        return endpoint.shard();
    }

    public ShardEndpoint endpoint() {
        return endpoint;
    }

    public Capabilities capabilities() {
        return capabilities;
    }

    public ServerInfo server() {
        return server;
    }

    public long connectionId() {
        return connectionId;
    }

    public BackendSessionState sessionState() {
        return sessionState;
    }

    public PreparedStatementCache statements() {
        return statements;
    }

    /**
     * Status flags of the last completed response that carried them (IN_TRANS tells whether a
     * transaction is open). An error carries none; after one that may have opened a transaction,
     * the connection asks the server before the response completes (see {@link #onFrame}), so this
     * is current whenever a sink learns that a response completed.
     */
    public int lastStatus() {
        return lastStatus;
    }

    /** Whether a transaction is open here (as the last status said). */
    public boolean inTransaction() {
        return ServerStatus.has(lastStatus, ServerStatus.IN_TRANS);
    }

    public boolean isUsable() {
        return !broken && channel.isActive();
    }

    public boolean hasPendingResponses() {
        return !pending.isEmpty();
    }

    /** Commands sent whose responses have not completed yet. */
    public int pendingResponses() {
        return pending.size();
    }

    /** Whether more than one borrower holds it now (statements of several clients pipelined on it). */
    public boolean isShared() {
        return sharers > 0;
    }

    /** The pool it was lent by (null for connections outside any pool). */
    public BackendPool pool() {
        return pool;
    }

    /** Gives the connection back to its pool (closed connections are forgotten there). */
    public void release() {
        pool.release(this);
    }

    void pool(BackendPool pool) {
        this.pool = pool;
    }

    boolean borrowed() {
        return borrowed;
    }

    void borrowed(boolean lent) {
        this.borrowed = lent;
    }

    int sharers() {
        return sharers;
    }

    void sharers(int count) {
        this.sharers = count;
    }

    boolean sharedThisLease() {
        return sharedThisLease;
    }

    void sharedThisLease(boolean shared) {
        this.sharedThisLease = shared;
    }

    long idleSinceNanos() {
        return idleSinceNanos;
    }

    void markIdle(long nanos) {
        idleSinceNanos = nanos;
    }

    /** Writes (without flushing) a command whose response goes to {@code sink}. Takes ownership of {@code frames}. */
    public void send(ByteBuf frames, ResponseKind kind, ResponseSink sink) {
        Pending p = spare.isEmpty() ? new Pending() : spare.poll();
        p.tracker.start(kind, capabilities.deprecateEof());
        p.sink = sink;
        pending.add(p);
        channel.write(frames, channel.voidPromise());
        if (broken) {
            // A dead connection answers nothing: without this the sink would wait forever. It learns
            // after this call returns, as it would from the network.
            channel.eventLoop().execute(() -> failWaiting(new IOException("connection to shard " + shard()
                    + " is closed")));
        }
    }

    /** Writes a command that gets no response (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA). */
    public void sendWithoutResponse(ByteBuf frames) {
        channel.write(frames, channel.voidPromise());
    }

    public void flush() {
        channel.flush();
    }

    /** A COM_QUERY frame for {@code sql}. */
    public ByteBuf queryFrame(String sql) {
        byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Frames.begin(channel.alloc(), 1 + bytes.length);
        buf.writeByte(CommandCode.QUERY.code());
        buf.writeBytes(bytes);
        return Frames.finish(buf, 0);
    }

    /** A single-packet command frame: the command byte and {@code body}. */
    public ByteBuf commandFrame(CommandCode command, byte[] body) {
        ByteBuf buf = Frames.begin(channel.alloc(), 1 + body.length);
        buf.writeByte(command.code());
        buf.writeBytes(body);
        return Frames.finish(buf, 0);
    }

    /**
     * The statement running now is about to be stopped (KILL QUERY) because its transaction is a
     * deadlock victim: the error the server then answers (query interrupted) reaches its sink as
     * {@code error} instead, so every layer above sees the deadlock it really is. Forgotten if the
     * statement ends before it is stopped. Returns false when nothing is running.
     */
    public boolean failRunningStatementAs(ErrPacket error) {
        if (pending.isEmpty()) {
            return false;
        }
        replacementError = error;
        return true;
    }

    void onFrame(ByteBuf frame) {
        Pending p = pending.peek();
        if (p == null) {
            frame.release();
            fail(new IllegalStateException("shard " + shard() + " sent a packet nobody asked for"));
            return;
        }
        if (replacementError != null && Frames.firstByte(frame) == ErrPacket.HEADER) {
            frame = replaced(frame, replacementError);
        }
        FrameKind kind;
        try {
            kind = p.tracker.feed(frame);
        } catch (RuntimeException e) {
            frame.release();
            fail(e);
            return;
        }
        if (lastSink != null && lastSink != p.sink) {
            // Pipelined responses of several clients in one read: the one before is complete, and
            // its client gets what was relayed to it now rather than at the end of the read.
            lastSink.readComplete(this);
        }
        lastSink = p.sink;
        p.sink.frame(this, frame, kind);
        if (p.tracker.isComplete()) {
            pending.poll();
            replacementError = null;
            if (p.tracker.statusSeen()) {
                lastStatus = p.tracker.statusFlags();
            } else if (p.tracker.isError() && pending.isEmpty() && mayHaveOpenedTransaction()
                    && !(p.sink instanceof StatusQuestion)) {
                askStatus(p);
                return;
            }
            complete(p);
        }
    }

    private void complete(Pending p) {
        ResponseSink sink = p.sink;
        p.sink = null;
        sink.complete(this, p.tracker);
        spare.add(p);
    }

    /**
     * With autocommit off and no transaction open, a statement that fails may still have opened
     * one (MariaDB keeps the transaction a lock wait timeout or a duplicate key started, with the
     * locks it took), or not (a syntax error, an unknown table): the error packet does not say.
     */
    private boolean mayHaveOpenedTransaction() {
        return !ServerStatus.has(lastStatus, ServerStatus.AUTOCOMMIT) && !ServerStatus.has(lastStatus, ServerStatus.IN_TRANS);
    }

    /**
     * Holds back the completion of {@code failed} until a COM_PING's OK has told whether a
     * transaction is open now: the borrower then keeps the connection for the client's COMMIT or
     * ROLLBACK, and the pool never lends an open transaction to someone else. Only when nothing
     * else is due on the connection, so completions keep their order; its frames went to the
     * sink already, so a client has its error without waiting.
     */
    private void askStatus(Pending failed) {
        StatusQuestion question = new StatusQuestion(failed);
        send(commandFrame(CommandCode.PING, new byte[0]), ResponseKind.SIMPLE, question);
        flush();
    }

    /** The COM_PING after an error: completes the failed response once the status is known. */
    private final class StatusQuestion implements ResponseSink {
        private final Pending failed;

        StatusQuestion(Pending failed) {
            this.failed = failed;
        }

        @Override
        public void frame(BackendConnection connection, ByteBuf frame, FrameKind kind) {
            frame.release();
        }

        @Override
        public void complete(BackendConnection connection, ResponseTracker tracker) {
            BackendConnection.this.complete(failed);
        }

        @Override
        public void failed(BackendConnection connection, Throwable cause) {
            ResponseSink sink = failed.sink;
            failed.sink = null;
            if (sink != null) {
                sink.failed(connection, cause);
            }
        }
    }

    private ByteBuf replaced(ByteBuf frame, ErrPacket error) {
        int sequence = Frames.sequence(frame);
        frame.release();
        ByteBuf buf = Frames.begin(channel.alloc(), 16 + error.message().length() * 3);
        error.write(buf);
        return Frames.finish(buf, sequence);
    }

    void onReadComplete() {
        ResponseSink sink = lastSink;
        if (sink != null) {
            lastSink = null;
            sink.readComplete(this);
        }
    }

    /** Marks the connection broken, closes it and fails every waiting response. */
    void fail(Throwable cause) {
        if (broken) {
            return;
        }
        broken = true;
        channel.close();
        failWaiting(cause);
        if (pool != null) {
            pool.onBroken(this);
        }
    }

    private void failWaiting(Throwable cause) {
        while (!pending.isEmpty()) {
            Pending p = pending.poll();
            ResponseSink sink = p.sink;
            p.sink = null;
            if (sink != null) {
                sink.failed(this, cause);
            }
        }
    }

    public void close() {
        broken = true;
        channel.close();
    }

    /**
     * Closes the connection in the middle of whatever it was doing (its borrower went away): a
     * response still awaited on it fails, after this call returns as it would from the network,
     * so the statement waiting for it ends rather than wait for an answer that cannot come.
     * ({@link #close()} tells nobody: it is for connections with nothing awaited, or closed from
     * inside a response callback.)
     */
    public void abandon() {
        close();
        if (!pending.isEmpty()) {
            channel.eventLoop().execute(() -> failWaiting(new IOException("connection to shard " + shard()
                    + " was closed in the middle of a statement")));
        }
    }

    @Override
    public String toString() {
        return "backend[shard " + shard() + ", id " + connectionId + "]";
    }
}
