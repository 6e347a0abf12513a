package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.AcquireCallback;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.deadlock.DeadlockVictimException;
import io.cleave.proxy.merge.LongRows;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.server.CommitFence;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sends text statements to several shards at once (or one, for the proxy's own queries) and
 * collects every answer: rows decoded for merging, OK counts, errors. Each leg gets its
 * connection the way the session does (its transaction's, else one from the pool), brought to
 * the session's settings first. When every leg is done, the results go to {@code done}.
 */
final class MultiExchange {

    /** Rows a merge may buffer across all shards before the statement is refused. */
    static final int MAX_BUFFERED_ROWS = 2_000_000;

    private final ExchangeContext session;
    private final List<Leg> legs = new ArrayList<>();
    private final Consumer<List<LegResult>> done;
    private final boolean startsTransaction;
    private int pending;
    private int bufferedRows;
    private java.util.function.BiConsumer<BackendConnection, LegResult> beforeRelease;
    private LegGate gate;

    /**
     * What a leg goes through on its connection around its statements: opened once the connection
     * carries the session's settings (the statements wait for it), closed when they are done,
     * before the connection is given back.
     */
    interface LegGate {
        /** Calls {@code then} with null to let the statements go, or with the error that ends the leg. */
        void open(int shard, BackendConnection conn, Consumer<ErrPacket> then);

        /** The statements are done (or the connection is lost): {@code then} gives the connection back. */
        void close(int shard, BackendConnection conn, Runnable then);
    }

    MultiExchange(ExchangeContext session, boolean startsTransaction, Consumer<List<LegResult>> done) {
        this.session = session;
        this.startsTransaction = startsTransaction;
        this.done = done;
    }

    /** Runs with each leg's connection and result before the connection is settled (e.g. to record what a SET changed). */
    MultiExchange beforeRelease(java.util.function.BiConsumer<BackendConnection, LegResult> hook) {
        this.beforeRelease = hook;
        return this;
    }

    /** Runs every leg's statements through {@code gate} (see {@link LegGate}). */
    MultiExchange gate(LegGate legGate) {
        this.gate = legGate;
        return this;
    }

    /** Adds a leg: {@code sql} (a complete statement) on {@code shard}. */
    MultiExchange leg(int shard, byte[] sql) {
        legs.add(new Leg(shard, List.of(sql)));
        return this;
    }

    /**
     * Adds a leg of several statements sent one after the other in one round trip (not as one
     * multi-statement text: a failing statement must not stop the ones after it, as XA END before
     * XA ROLLBACK). The leg's error is the first one.
     */
    MultiExchange leg(int shard, List<byte[]> statements) {
        legs.add(new Leg(shard, statements));
        return this;
    }

    void start() {
        pending = legs.size();
        for (Leg leg : new ArrayList<>(legs)) {
            leg.begin();
        }
    }

    private void legDone() {
        if (--pending == 0) {
            List<LegResult> results = new ArrayList<>(legs.size());
            for (Leg leg : legs) {
                results.add(leg.result);
            }
            done.accept(results);
        }
    }

    private final class Leg implements AcquireCallback, ResponseSink {
        final int shard;
        final List<byte[]> statements;
        final LegResult result;
        BackendConnection conn;
        int preambleResponses;
        int statementResponses;
        int columnCount;
        final LongRows longRows = new LongRows();
        /** A lost connection fails each of the leg's statements still waiting: the leg ends once. */
        boolean ended;

        Leg(int shard, List<byte[]> statements) {
            this.shard = shard;
            this.statements = statements;
            this.result = new LegResult(shard);
        }

        void begin() {
            CommitFence fence = session.commitFence();
            if (fence != null && !fence.passes(shard, session.loop().loop(), this::reach)) {
                return;
            }
            reach();
        }

        private void reach() {
            BackendConnection own = session.connectionFor(shard);
            if (own != null) {
                onConnection(own);
            } else {
                session.loop().pool(shard).acquire(session.login(), this);
            }
        }

        @Override
        public void acquired(BackendConnection connection) {
            if (session.lent(connection)) {
                onConnection(connection);
            } else {
                // Its client left while the leg waited in the pool's line: the connection went
                // straight back, and the leg ends unserved.
                failed(new IllegalStateException("the client has left"));
            }
        }

        @Override
        public void failed(Throwable cause) {
            if (cause instanceof DeadlockVictimException victim) {
                // Taken out of a pool's line as a deadlock victim: a deadlock on this shard, as a server reports one.
                result.error = victim.error();
            } else {
                result.failure = cause;
            }
            ended = true;
            legDone();
        }

        @Override
        public ConnectionWaiter waiter() {
            return session.waiter();
        }

        private void onConnection(BackendConnection c) {
            conn = c;
            SessionSyncStep.run(c, session.settings(), error -> {
                if (error != null) {
                    result.error = error;
                    ended = true;
                    session.releaseLeg(shard, c, false);
                    legDone();
                    return;
                }
                if (gate == null) {
                    send();
                    return;
                }
                gate.open(shard, c, refused -> {
                    if (refused == null) {
                        send();
                        return;
                    }
                    result.error = refused;
                    ended = true;
                    gate.close(shard, c, () -> {
                        session.releaseLeg(shard, c, true);
                        legDone();
                    });
                });
            });
        }

        private void send() {
            List<String> preamble = session.preamble(shard, startsTransaction);
            if (preamble != null) {
                for (String s : preamble) {
                    conn.send(conn.queryFrame(s), ResponseKind.RESULT, this);
                    preambleResponses++;
                }
            }
            for (byte[] sql : statements) {
                ByteBuf frame = Frames.begin(conn.channel().alloc(), 1 + sql.length);
                frame.writeByte(CommandCode.QUERY.code());
                frame.writeBytes(sql);
                conn.send(Frames.finish(frame, 0), ResponseKind.RESULT, this);
                statementResponses++;
            }
            conn.flush();
        }

        @Override
        public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
            try {
                if (preambleResponses > 0) {
                    if (kind == FrameKind.ERR && result.error == null) {
                        result.error = ErrPacket.decode(Frames.payload(frame));
                    }
                    return;
                }
                switch (kind) {
                    case COLUMN_COUNT:
                        result.resultSet = true;
                        columnCount = (int) io.cleave.proxy.protocol.Wire.readLenencInt(Frames.payload(frame));
                        break;
                    case COLUMN_DEFINITION:
                        ByteBuf p = Frames.payload(frame);
                        byte[] raw = new byte[p.readableBytes()];
                        p.getBytes(p.readerIndex(), raw);
                        result.columns.add(new ResultColumn(ColumnDefinition41.decode(p), raw));
                        break;
                    case ROW:
                        if (++bufferedRows > MAX_BUFFERED_ROWS) {
                            if (result.error == null) {
                                result.error = new ErrPacket(1235, "42000", "the shards returned more than "
                                        + MAX_BUFFERED_ROWS + " rows to merge: narrow the query with its sharding key"
                                        + " or a LIMIT");
                            }
                            break;
                        }
                        if (result.error == null) {
                            addRow(longRows.row(Frames.payload(frame), continues(frame), columnCount));
                        }
                        break;
                    case CONTINUATION:
                        if (result.error == null) {
                            addRow(longRows.continuation(Frames.payload(frame), continues(frame), columnCount));
                        }
                        break;
                    case ERR:
                        if (result.error == null) {
                            result.error = ErrPacket.decode(Frames.payload(frame));
                        }
                        break;
                    default:
                        break;
                }
            } finally {
                frame.release();
            }
        }

        /** A frame of 16 MB - 1 bytes: its packet goes on in the next frame. */
        private boolean continues(ByteBuf frame) {
            return Frames.payloadLength(frame) == Frames.MAX_PAYLOAD;
        }

        /** A decoded row, or null while a long row's frames are still coming. */
        private void addRow(TextRow row) {
            if (row != null) {
                result.rows.add(row);
            }
        }

        @Override
        public void complete(BackendConnection c, ResponseTracker tracker) {
            if (preambleResponses > 0) {
                preambleResponses--;
                if (preambleResponses == 0) {
                    if (result.error == null) {
                        session.transactionJoined(shard, c);
                    } else {
                        session.joinFailed(shard);
                    }
                }
                return;
            }
            result.affectedEach.add(tracker.affectedRows());
            result.rowsEach.add(result.rows.size());
            if (--statementResponses > 0) {
                return;
            }
            if (tracker.resultSets() <= 1 || !result.resultSet) {
                result.affectedRows = tracker.affectedRows();
                result.lastInsertId = tracker.lastInsertId();
            }
            result.warnings = tracker.warnings();
            result.status = tracker.statusFlags();
            if (ServerStatus.has(result.status, ServerStatus.DB_DROPPED)) {
                // A schema was dropped, perhaps the connection's own: which one it has now is not
                // known for sure, so the connection serves no one again.
                c.close();
            }
            if (beforeRelease != null) {
                beforeRelease.accept(c, result);
            }
            ended = true;
            release(c, true);
        }

        @Override
        public void failed(BackendConnection c, Throwable cause) {
            if (ended) {
                return;
            }
            ended = true;
            result.failure = cause;
            release(c, false);
        }

        private void release(BackendConnection c, boolean ok) {
            if (gate == null) {
                session.releaseLeg(shard, c, ok);
                legDone();
                return;
            }
            gate.close(shard, c, () -> {
                session.releaseLeg(shard, c, ok);
                legDone();
            });
        }
    }
}
