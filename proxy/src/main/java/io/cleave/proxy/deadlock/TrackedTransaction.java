package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.server.LoopResources;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One client connection's transaction as the deadlock detector sees it: which backend connection
 * (server thread) holds it on each shard, and whether a command is running. Its session writes it
 * on its event loop with plain ordered stores (no lock, no allocation); the detector reads it from
 * its own thread. A client transaction is one node of the wait-for graph whatever shards it spans:
 * while one of its statements waits on a shard, its locks on every other shard wait with it.
 *
 * <p>The command counter is odd while a command runs: the detector tells a statement that has
 * been waiting since its last look from a new one without a clock on the hot path.
 */
public final class TrackedTransaction implements ConnectionWaiter {

    private static final VarHandle COMMAND;
    private static final VarHandle LINE_COMMAND;
    private static final VarHandle STARTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COMMAND = lookup.findVarHandle(TrackedTransaction.class, "command", long.class);
            LINE_COMMAND = lookup.findVarHandle(TrackedTransaction.class, "lineCommand", long.class);
            STARTED = lookup.findVarHandle(TrackedTransaction.class, "startedNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final DeadlockDetector detector;
    private final long connectionId;
    private final LoopResources loop;
    /** Replaced (never changed in length) when a scale adds shards: the detector reads whichever it sees. */
    private volatile AtomicReferenceArray<BackendConnection> legs;
    private volatile String user;
    /** Odd while a command runs; written by the session's loop only. */
    private long command;
    /** The command during which the session last stood in a pool's line. */
    private long lineCommand = -1;
    /** When the transaction first held a shard (the youngest is the victim among equals). */
    private long startedNanos;
    /** Shards held; the session's loop only. */
    private int legCount;

    // Read and written by the detector thread only.
    long observedCommand = -1;
    long observedSince;

    TrackedTransaction(DeadlockDetector detector, long connectionId, String user, LoopResources loop, int shards) {
        this.detector = detector;
        this.connectionId = connectionId;
        this.user = user;
        this.loop = loop;
        this.legs = new AtomicReferenceArray<>(shards);
    }

    // ---- the session's side (its event loop) ----------------------------------------------------

    /** A client command starts; a transaction spanning shards has the detector look out for waits. */
    public void commandStarted() {
        long c = command;
        if ((c & 1) == 0) {
            COMMAND.setRelease(this, c + 1);
        }
        if (legCount >= 2) {
            detector.arm();
        }
    }

    /** The command's answer is complete. */
    public void commandEnded() {
        long c = command;
        if ((c & 1) == 1) {
            COMMAND.setRelease(this, c + 1);
        }
    }

    /** The transaction holds {@code shard} on {@code connection}. */
    public void joined(int shard, BackendConnection connection) {
        if (legs.get(shard) == null) {
            if (legCount++ == 0) {
                STARTED.setRelease(this, System.nanoTime());
            }
            if (legCount >= 2) {
                detector.arm();
            }
        }
        legs.lazySet(shard, connection);
    }

    /** The transaction's part on {@code shard} ended. */
    public void left(int shard) {
        if (shard < legs.length() && legs.get(shard) != null) {
            legCount--;
            legs.lazySet(shard, null);
        }
    }

    public void user(String name) {
        this.user = name;
    }

    @Override
    public void waitingInLine(int shard) {
        LINE_COMMAND.setRelease(this, command);
        if (legCount >= 1) {
            // Holding one shard and waiting for a connection to another: a wait that can close a cycle.
            detector.arm();
        }
    }

    // ---- the detector's side ------------------------------------------------------------------------

    long command() {
        return (long) COMMAND.getAcquire(this);
    }

    /** Whether the running command {@code command} waits while holding more than one shard's worth of locks. */
    boolean spansShards(long command) {
        int held = 0;
        for (int s = 0; s < legs.length(); s++) {
            if (legs.get(s) != null) {
                held++;
            }
        }
        return held >= 2 || held == 1 && (long) LINE_COMMAND.getAcquire(this) == command;
    }

    BackendConnection leg(int shard) {
        AtomicReferenceArray<BackendConnection> l = legs;
        return shard < l.length() ? l.get(shard) : null;
    }

    /** Makes room for shard indexes below {@code shards} (on the session's loop). */
    public synchronized void ensure(int shards) {
        AtomicReferenceArray<BackendConnection> now = legs;
        if (shards > now.length()) {
            AtomicReferenceArray<BackendConnection> next = new AtomicReferenceArray<>(shards);
            for (int s = 0; s < now.length(); s++) {
                next.set(s, now.get(s));
            }
            legs = next;
        }
    }

    int shardCount() {
        return legs.length();
    }

    long startedNanos() {
        return (long) STARTED.getAcquire(this);
    }

    public long connectionId() {
        return connectionId;
    }

    String user() {
        return user;
    }

    LoopResources loop() {
        return loop;
    }

    @Override
    public String toString() {
        return "connection " + connectionId;
    }
}
