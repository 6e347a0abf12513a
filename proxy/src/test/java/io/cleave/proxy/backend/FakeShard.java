package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.PacketFrameDecoder;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A shard without a server, for flow tests: each connection the proxy opens is an
 * {@link EmbeddedChannel} carrying the same frame decoder and {@link BackendHandler} a real one
 * has. The proxy's commands wait in the channels until {@link #pump()} answers them, in order,
 * with the scripted packets of the first rule that matches (see {@link ShardReply}); session and
 * transaction statements the proxy sends on its own get an OK by default, anything else an error
 * naming the statement, so a test fails on what it did not expect. Each connection keeps the
 * status flags a server would report (IN_TRANS between START TRANSACTION / XA START and their end,
 * autocommit as set). Every command received is recorded: COM_QUERY as its text, others as
 * {@code COM_INIT_DB schema}, {@code COM_STMT_PREPARE sql}, {@code COM_STMT_EXECUTE sql}, ...
 */
public final class FakeShard implements ShardConnector {

    private record Rule(Predicate<String> matches, ShardReply reply) {
    }

    private final ShardEndpoint endpoint;
    private final List<Rule> rules = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final List<String> received = new ArrayList<>();
    private int sealedCalls;
    private final List<String> holds = new ArrayList<>();
    private final List<String> logins = new ArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    private int nextConnectionId = 100;
    private boolean answersInOneRead;

    public FakeShard(int shard) {
        this.endpoint = new ShardEndpoint(shard, null, InetSocketAddress.createUnresolved("fake-shard-" + shard, 3306),
                "cleave", new byte[0]);
    }

    /** Answers the statement {@code sql} (exactly as received) with {@code reply}. */
    public FakeShard answer(String sql, ShardReply reply) {
        rules.add(new Rule(sql::equals, reply));
        return this;
    }

    /** Answers statements starting with {@code prefix} with {@code reply}. */
    public FakeShard answerStartingWith(String prefix, ShardReply reply) {
        rules.add(new Rule(s -> s.startsWith(prefix), reply));
        return this;
    }

    /**
     * Statements starting with {@code prefix} are received but not answered until
     * {@link #releaseHeld()}, as a server still working on them.
     */
    public FakeShard holdStartingWith(String prefix) {
        holds.add(prefix);
        return this;
    }

    /** Answers the statements held so far; returns how many. */
    public int releaseHeld() {
        List<Runnable> now = new ArrayList<>(held);
        held.clear();
        now.forEach(Runnable::run);
        return now.size();
    }

    /**
     * Answers all commands that arrived together on a connection in one write, as a server whose
     * answers pile up before the proxy reads them: the proxy gets them in one read.
     */
    public FakeShard answerInOneRead() {
        answersInOneRead = true;
        return this;
    }

    /** Whom each connection opened so far logged in as ('user'@'host', or "shard account"), oldest first. */
    public List<String> logins() {
        return List.copyOf(logins);
    }

    /** How many statements came through Cleave's lookup procedure (recorded as the statements they carry). */
    public int sealedCalls() {
        return sealedCalls;
    }

    /** Every command received so far, oldest first. */
    public List<String> received() {
        return List.copyOf(received);
    }

    /** The COM_QUERY texts received so far (no session sync or statement commands). */
    public List<String> queries() {
        return received.stream().filter(s -> !s.startsWith("COM_")).toList();
    }

    public void forget() {
        received.clear();
    }

    /** Connections opened and still open. */
    public int openConnections() {
        return (int) connections.stream().filter(c -> c.channel.isActive()).count();
    }

    /** Whether a command waits for an answer. */
    public boolean hasWaitingCommands() {
        for (Connection c : connections) {
            if (!c.channel.outboundMessages().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Closes every connection, as a shard that goes away does: what waits on them fails. */
    public void dropConnections() {
        for (Connection c : connections) {
            c.channel.close();
            c.channel.runPendingTasks();
        }
    }

    /** Answers every command waiting on any connection; returns how many were answered. */
    public int pump() {
        int answered = 0;
        for (Connection c : new ArrayList<>(connections)) {
            c.channel.runPendingTasks();
            Object message;
            if (answersInOneRead) {
                c.batch = c.channel.alloc().buffer();
            }
            while ((message = c.channel.readOutbound()) != null) {
                ByteBuf frames = (ByteBuf) message;
                try {
                    while (frames.isReadable()) {
                        answered += c.command(packet(frames)) ? 1 : 0;
                    }
                } finally {
                    frames.release();
                }
            }
            if (c.batch != null) {
                ByteBuf batch = c.batch;
                c.batch = null;
                if (batch.isReadable() && c.channel.isActive()) {
                    c.channel.writeInbound(batch);
                    c.channel.runPendingTasks();
                } else {
                    batch.release();
                }
            }
        }
        return answered;
    }

    /** The next packet's payload, joined when it takes several frames (16 MB or more). */
    private static ByteBuf packet(ByteBuf frames) {
        int length = frames.readUnsignedMediumLE();
        frames.skipBytes(1);
        if (length < Frames.MAX_PAYLOAD) {
            return frames.readSlice(length);
        }
        ByteBuf joined = io.netty.buffer.Unpooled.buffer();
        joined.writeBytes(frames, length);
        while (length == Frames.MAX_PAYLOAD) {
            length = frames.readUnsignedMediumLE();
            frames.skipBytes(1);
            joined.writeBytes(frames, length);
        }
        return joined;
    }

    @Override
    public ShardEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public Future<BackendConnection> connect(EventLoop loop, ShardLogin login, int generation) {
        Promise<BackendConnection> promise = loop.newPromise();
        EmbeddedChannel channel = new EmbeddedChannel();
        Capabilities agreed = new Capabilities(BackendAuthHandler.BASE_CLIENT_FLAGS | login.profile());
        BackendConnection connection = new BackendConnection(channel, endpoint, agreed,
                new ServerInfo("11.4.5-MariaDB-fake", agreed, 45), nextConnectionId++, 64, login, generation);
        logins.add(login.isShardAccount() ? "shard account" : login.account());
        channel.pipeline().addLast("frames", new PacketFrameDecoder());
        channel.pipeline().addLast("backend", new BackendHandler(connection));
        connections.add(new Connection(channel, agreed.deprecateEof()));
        promise.setSuccess(connection);
        return promise;
    }

    /**
     * Errors after which a server keeps the transaction the failed statement started with
     * autocommit off (a lock wait timeout, a duplicate key); others come before any table is read.
     */
    private static final java.util.Set<Integer> OPENS_TRANSACTION = java.util.Set.of(1205, 1062);

    /** One connection's server side: its transaction state and prepared statements. */
    private final class Connection {
        final EmbeddedChannel channel;
        final boolean deprecateEof;
        final Map<Long, String> prepared = new HashMap<>();
        long nextStatementId = 1;
        boolean inTransaction;
        boolean autocommit = true;
        /** An XA branch is prepared here: as on a server, only its XA COMMIT or XA ROLLBACK may come next. */
        boolean xaPrepared;
        /** Answers gathered to go in one read ({@link #answerInOneRead}), else null. */
        ByteBuf batch;

        Connection(EmbeddedChannel channel, boolean deprecateEof) {
            this.channel = channel;
            this.deprecateEof = deprecateEof;
        }

        /** Records and answers one command; returns whether it got an answer (some commands get none). */
        boolean command(ByteBuf payload) {
            CommandCode code = CommandCode.of(payload.readUnsignedByte());
            String text = payload.toString(StandardCharsets.UTF_8);
            switch (code) {
                case QUERY: {
                    String sql = sealedLookupStatement(text);
                    received.add(sql);
                    if (holds.stream().anyMatch(sql::startsWith)) {
                        held.add(() -> answer(sql, reply(sql)));
                        return false;
                    }
                    answer(sql, reply(sql));
                    return true;
                }
                case INIT_DB:
                    received.add("COM_INIT_DB " + text);
                    answer(text, ShardReply.ok());
                    return true;
                case STMT_PREPARE: {
                    received.add("COM_STMT_PREPARE " + text);
                    long id = nextStatementId++;
                    prepared.put(id, text);
                    int params = (int) text.chars().filter(ch -> ch == '?').count();
                    answer(text, ShardReply.prepared(id, params));
                    return true;
                }
                case STMT_EXECUTE: {
                    String sql = prepared.get(payload.getUnsignedIntLE(1));
                    received.add("COM_STMT_EXECUTE " + sql);
                    answer(sql, sql == null ? ShardReply.error(1243, "HY000", "Unknown prepared statement handler")
                            : reply(sql));
                    return true;
                }
                case STMT_CLOSE:
                    received.add("COM_STMT_CLOSE");
                    prepared.remove(payload.getUnsignedIntLE(1));
                    return false;
                case CHANGE_USER:
                    // Logged in afresh: the connection's state is a new one's.
                    received.add("COM_CHANGE_USER");
                    inTransaction = false;
                    autocommit = true;
                    prepared.clear();
                    answer("", ShardReply.ok());
                    return true;
                case STMT_SEND_LONG_DATA:
                    // No answer, as on a server: the data waits for the next execute.
                    received.add("COM_STMT_SEND_LONG_DATA " + (payload.readableBytes() - 6) + " bytes");
                    return false;
                case PING:
                    // Answers the connection's status and changes nothing.
                    received.add("COM_PING");
                    answer(null, ShardReply.ok());
                    return true;
                case STMT_RESET:
                    received.add("COM_STMT_RESET");
                    answer("", ShardReply.ok());
                    return true;
                default:
                    received.add("COM_" + code);
                    answer("", ShardReply.error(1047, "08S01", "fake shard does not know " + code));
                    return true;
            }
        }

        /**
         * A lookup statement the proxy sends through Cleave's procedure (sealed, as hex) is recorded
         * and answered as the statement itself: the fake plays the procedure's part.
         */
        private String sealedLookupStatement(String sql) {
            String start = "CALL " + io.cleave.proxy.unique.LookupCalls.PROCEDURE + "(@@session.sql_mode, X'";
            if (!sql.startsWith(start)) {
                return sql;
            }
            sealedCalls++;
            String hex = sql.substring(start.length(), sql.indexOf('\'', start.length()));
            return new String(java.util.HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
        }

        private ShardReply reply(String sql) {
            String statement = sql.toUpperCase(Locale.ROOT);
            if (xaPrepared && !statement.startsWith("XA COMMIT") && !statement.startsWith("XA ROLLBACK")) {
                return ShardReply.error(1399, "XAE07", "XAER_RMFAIL: The command cannot be executed when global"
                        + " transaction is in the  PREPARED state");
            }
            for (Rule r : rules) {
                if (r.matches().test(sql)) {
                    return r.reply();
                }
            }
            for (String prefix : new String[] {"SET ", "START TRANSACTION", "BEGIN", "COMMIT", "ROLLBACK", "XA ",
                    "SAVEPOINT", "RELEASE SAVEPOINT", "DO ", "USE ", "CALL cleave.decide(",
                    "DELETE FROM cleave.decisions"}) {
                if (statement.startsWith(prefix.toUpperCase(Locale.ROOT))) {
                    return ShardReply.ok();
                }
            }
            return ShardReply.error(1105, "HY000", "fake shard " + endpoint.shard() + " has no answer for: " + sql);
        }

        private void answer(String sql, ShardReply reply) {
            if (reply instanceof ShardReply.NoAnswer || !channel.isActive()) {
                // A closed connection answers nothing (its server rolled back what was open).
                return;
            }
            if (sql == null) {
                // A command that is no statement: nothing changes.
            } else if (!reply.isError()) {
                track(sql.toUpperCase(Locale.ROOT));
            } else if (!autocommit && reply instanceof ShardReply.Error e && OPENS_TRANSACTION.contains(e.packet().errorCode())) {
                // As MariaDB: the failed statement is undone, the transaction it started stays.
                inTransaction = true;
            }
            int status = (autocommit ? ServerStatus.AUTOCOMMIT : 0) | (inTransaction ? ServerStatus.IN_TRANS : 0);
            if (batch != null) {
                reply.write(batch, status, deprecateEof);
                return;
            }
            ByteBuf out = channel.alloc().buffer();
            reply.write(out, status, deprecateEof);
            channel.writeInbound(out);
            channel.runPendingTasks();
        }

        /** What a statement does to the connection's transaction, as a server would report it. */
        private void track(String sql) {
            if (sql.startsWith("START TRANSACTION") || sql.startsWith("BEGIN") || sql.startsWith("XA START")) {
                inTransaction = true;
            } else if (sql.startsWith("COMMIT") || sql.startsWith("ROLLBACK") && !sql.startsWith("ROLLBACK TO")
                    || sql.startsWith("XA PREPARE") || sql.startsWith("XA COMMIT") || sql.startsWith("XA ROLLBACK")) {
                inTransaction = false;
                xaPrepared = sql.startsWith("XA PREPARE");
            } else if (sql.startsWith("SET AUTOCOMMIT=0") || sql.contains("AUTOCOMMIT=0")) {
                autocommit = false;
            } else if (sql.contains("AUTOCOMMIT=1")) {
                autocommit = true;
            } else if (!autocommit && !sql.startsWith("SET") && !sql.startsWith("XA")) {
                inTransaction = true;
            }
        }
    }

    /** Sequence ids of a reply start at 1: it answers a command sent with sequence 0. */
    static void writeFrame(ByteBuf out, int sequence, java.util.function.Consumer<ByteBuf> payload) {
        int start = out.writerIndex();
        out.writeZero(Frames.HEADER_SIZE);
        payload.accept(out);
        out.setMediumLE(start, out.writerIndex() - start - Frames.HEADER_SIZE);
        out.setByte(start + 3, sequence);
    }

    static void lenencString(ByteBuf out, String s) {
        Wire.writeLenencString(out, s);
    }
}
