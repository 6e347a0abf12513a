package io.cleave.proxy.cut;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Takes a cut over the proxy's own backend connections, without blocking: one connection per
 * shard is got first (from whoever asks: a client session's pool, brought to its settings), then
 * the cut waits for its window ({@link CutWindows}) to be ready, sends every shard its opening
 * statements in one round trip, and ends its part of the window when all have answered;
 * optionally each shard's binlog position is read after. Everything runs on the asker's event loop.
 */
public final class BackendCut implements CutWindows.Opening {

    /** Where a cut's connections come from. */
    public interface Connections {

        /** The event loop the cut runs on (the connections' and the asker's). */
        Executor executor();

        /** Gets a connection to {@code shard}, ready for the cut's statements; {@code then} is told on {@link #executor}. */
        void connect(int shard, Connected then);

        /**
         * Whether whoever asked is gone (a client that left): the connections it got went back
         * with it, and the cut must send nothing on them.
         */
        boolean abandoned();
    }

    /** Told when a connection for the cut is ready, or cannot be had. */
    public interface Connected {

        void ready(BackendConnection connection);

        /** {@code error}: what the client would be told (the shard is down, its line is full, ...). */
        void failed(ErrPacket error);
    }

    /** The statements that open the snapshot on {@code shard}, sent back to back; the last one's answer means it is open. */
    public record ShardOpening(int shard, List<String> statements) {
    }

    /** How taking a cut ended. */
    public sealed interface Outcome permits Taken, Failed {
    }

    public record Taken(Cut<BackendConnection> cut) implements Outcome {
    }

    /**
     * The cut could not be taken: {@code error} says why; {@code connections} are those it had
     * got, in no known state (a snapshot may be open on some): close them, then give them back
     * (none when whoever asked has gone: its connections went back with it). {@code windowExpired}:
     * every shard answered, only later than the window allowed (a slow round trip, not a shard's
     * error), so taking the cut again from the start may well succeed.
     */
    public record Failed(ErrPacket error, List<BackendConnection> connections, boolean windowExpired)
            implements Outcome {
    }

    private enum Step { CONNECT, WAIT, OPEN, POSITIONS, DONE }

    private final CutWindows windows;
    private final Connections source;
    private final boolean positions;
    private final Consumer<Outcome> done;
    private final List<Leg> legs = new ArrayList<>();
    private Step step = Step.CONNECT;
    private int outstanding;
    private CutWindows.Window window;

    private BackendCut(CutWindows windows, List<ShardOpening> openings, boolean positions, Connections source,
                       Consumer<Outcome> done) {
        this.windows = windows;
        this.source = source;
        this.positions = positions;
        this.done = done;
        for (ShardOpening o : openings) {
            legs.add(new Leg(o));
        }
    }

    /**
     * Takes a cut: a snapshot on every shard of {@code openings}, each opened by its statements;
     * {@code done} runs on the source's executor. With {@code positions}, each shard's binlog
     * position at its snapshot is read too.
     */
    public static void take(CutWindows windows, List<ShardOpening> openings, boolean positions, Connections source,
                            Consumer<Outcome> done) {
        new BackendCut(windows, openings, positions, source, done).connect();
    }

    private void connect() {
        outstanding = legs.size();
        for (Leg leg : new ArrayList<>(legs)) {
            source.connect(leg.opening.shard(), leg);
        }
    }

    /** A leg has its connection (or could not get one). */
    private void connected() {
        if (--outstanding > 0) {
            return;
        }
        if (source.abandoned()) {
            abandon();
            return;
        }
        ErrPacket error = firstError();
        if (error != null) {
            fail(error, "shard_error");
            return;
        }
        step = Step.WAIT;
        int[] shards = new int[legs.size()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = legs.get(i).opening.shard();
        }
        windows.request(source.executor(), shards, this);
    }

    @Override
    public void open(CutWindows.Window window) {
        if (source.abandoned()) {
            // Nothing to open: the window must not wait for this cut.
            window.opened();
            abandon();
            return;
        }
        this.window = window;
        step = Step.OPEN;
        outstanding = legs.size();
        // The snapshots open together once the branch commits decided before the window have ended.
        window.whenReady(source.executor(), () -> {
            for (Leg leg : legs) {
                leg.open();
            }
        });
    }

    @Override
    public void gaveUp(String reason) {
        fail(new ErrPacket(1205, "HY000", "Lock wait timeout exceeded: could not open a consistent snapshot on every"
                + " shard: " + reason + "; try restarting transaction"), "wait_expired");
    }

    /** A leg's statements were all answered. */
    private void legAnswered() {
        if (--outstanding > 0) {
            return;
        }
        if (step == Step.OPEN) {
            boolean consistent = window.opened();
            ErrPacket error = firstError();
            if (error != null) {
                fail(error, "shard_error");
            } else if (!consistent) {
                String spoiled = window.spoiled();
                fail(new ErrPacket(1205, "HY000", "Lock wait timeout exceeded: " + (spoiled != null ? spoiled
                        : "the shards did not open their snapshots within " + windows.limits().windowNanos() / 1_000_000
                        + " ms") + "; try restarting transaction"), spoiled != null ? "shard_error" : "window_expired");
            } else if (positions) {
                step = Step.POSITIONS;
                outstanding = legs.size();
                for (Leg leg : legs) {
                    leg.send(List.of(SnapshotStatements.POSITION));
                }
            } else {
                succeed();
            }
        } else if (step == Step.POSITIONS) {
            ErrPacket lost = firstError();
            if (lost != null) {
                // A connection lost while its position was read: its snapshot is gone with it.
                fail(lost, "shard_error");
            } else {
                succeed();
            }
        }
    }

    private void succeed() {
        step = Step.DONE;
        List<ShardSnapshot<BackendConnection>> shards = new ArrayList<>(legs.size());
        for (Leg leg : legs) {
            shards.add(new ShardSnapshot<>(leg.opening.shard(), leg.conn, leg.position));
        }
        done.accept(new Taken(new Cut<>(shards)));
    }

    private void fail(ErrPacket error, String reason) {
        step = Step.DONE;
        List<BackendConnection> got = new ArrayList<>();
        for (Leg leg : legs) {
            if (leg.conn != null) {
                got.add(leg.conn);
            }
        }
        windows.metrics().cutFailed(reason);
        done.accept(new Failed(error, got, reason.equals("window_expired")));
    }

    /** Whoever asked has gone, and its connections with it: the cut ends without touching them. */
    private void abandon() {
        step = Step.DONE;
        windows.metrics().cutFailed("abandoned");
        done.accept(new Failed(new ErrPacket(1158, "08S01", "the client has left"), List.of(), false));
    }

    private ErrPacket firstError() {
        for (Leg leg : legs) {
            if (leg.error != null) {
                return leg.error;
            }
        }
        return null;
    }

    /** One shard's part: its connection, the statements in flight on it, what they answered. */
    private final class Leg implements Connected, ResponseSink {
        final ShardOpening opening;
        BackendConnection conn;
        ErrPacket error;
        int pending;
        boolean lost;
        BinlogPosition position;

        Leg(ShardOpening opening) {
            this.opening = opening;
        }

        @Override
        public void ready(BackendConnection connection) {
            conn = connection;
            connected();
        }

        @Override
        public void failed(ErrPacket why) {
            error = why;
            connected();
        }

        /** Opens this shard's snapshot, unless whoever asked has gone meanwhile (its connections with it). */
        void open() {
            if (source.abandoned()) {
                lost = true;
                error = new ErrPacket(1158, "08S01", "the client has left");
                answered();
                return;
            }
            send(opening.statements());
        }

        void send(List<String> statements) {
            pending = statements.size();
            for (String sql : statements) {
                conn.send(conn.queryFrame(sql), ResponseKind.RESULT, this);
            }
            conn.flush();
        }

        @Override
        public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
            try {
                if (kind == FrameKind.ERR) {
                    ErrPacket e = ErrPacket.decode(Frames.payload(frame));
                    if (step == Step.POSITIONS) {
                        // A server without binlog_snapshot_* (MySQL) or BINLOG_GTID_POS: no position.
                        position = null;
                    } else if (error == null) {
                        error = e;
                    }
                } else if (kind == FrameKind.ROW && step == Step.POSITIONS) {
                    ByteBuf p = Frames.payload(frame);
                    position = SnapshotStatements.position(column(p), column(p), column(p));
                }
            } finally {
                frame.release();
            }
        }

        private String column(ByteBuf p) {
            if (!p.isReadable()) {
                return null;
            }
            if (p.getUnsignedByte(p.readerIndex()) == Wire.NULL_MARKER) {
                p.skipBytes(1);
                return null;
            }
            return Wire.readLenencString(p);
        }

        @Override
        public void complete(BackendConnection c, ResponseTracker tracker) {
            if (!lost && --pending == 0) {
                answered();
            }
        }

        @Override
        public void failed(BackendConnection c, Throwable cause) {
            if (lost) {
                return;
            }
            lost = true;
            if (error == null) {
                error = lostShard(cause);
            }
            answered();
        }

        /** The leg's statements were answered: in the window, this shard's snapshot is open (or failed to). */
        private void answered() {
            if (step == Step.OPEN) {
                window.shardOpened(opening.shard());
            }
            legAnswered();
        }

        private ErrPacket lostShard(Throwable cause) {
            String why = cause.getMessage() != null ? cause.getMessage() : cause.toString();
            return new ErrPacket(1158, "08S01", "Lost connection to shard " + opening.shard()
                    + " while opening a consistent snapshot: " + why);
        }
    }
}
