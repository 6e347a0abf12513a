package io.cleave.proxy.server;

import io.cleave.proxy.cutover.AcknowledgedCommits;

import java.util.ArrayDeque;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Keeps acknowledged cross-shard commits visible to everyone at once. A transaction across shards
 * is acknowledged as soon as its decision is durable (the coordinator's COMMIT), while the other
 * shards' branches still wait for their XA COMMIT; until that has run, a statement on such a shard
 * could read around the acknowledged transaction (a prepared branch's rows read as they were
 * before). So each branch commit still to run is a pending entry of its shard here, and a
 * statement that reaches a shard first waits for every entry pending there when it arrived.
 * Entries arriving later do not hold it up, so a steady stream of commits cannot starve a reader.
 *
 * <p>Shared by every event loop. The hot path is one volatile read per statement: a shard with
 * nothing pending passes at once; only a shard with a branch commit under way takes the lock.
 */
public final class CommitFence implements AcknowledgedCommits, io.cleave.proxy.cut.BranchCommits {

    private final AtomicIntegerArray pending;
    private final ShardLine[] lines;

    public CommitFence(int shards) {
        this.pending = new AtomicIntegerArray(shards);
        this.lines = new ShardLine[shards];
        for (int s = 0; s < shards; s++) {
            lines[s] = new ShardLine();
        }
    }

    /** A branch commit of an acknowledged transaction is about to run on {@code shard}: the ticket to hand to {@link #done}. */
    public long pending(int shard) {
        synchronized (lines[shard]) {
            long ticket = ++lines[shard].issued;
            lines[shard].outstanding.add(ticket);
            pending.incrementAndGet(shard);
            return ticket;
        }
    }

    /** That branch commit ended (committed, or failed and left to recovery): statements waiting for it go on. */
    public void done(int shard, long ticket) {
        ArrayDeque<Waiter> released = new ArrayDeque<>();
        synchronized (lines[shard]) {
            ShardLine line = lines[shard];
            if (!line.outstanding.remove(ticket)) {
                return;
            }
            pending.decrementAndGet(shard);
            long oldest = line.outstanding.isEmpty() ? Long.MAX_VALUE : line.outstanding.first();
            // Usually the waiters came in the order of their bounds; a cut's window waits with a
            // bound taken earlier, and must not wait behind those that came before it.
            for (java.util.Iterator<Waiter> it = line.waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (w.upTo < oldest) {
                    it.remove();
                    released.add(w);
                }
            }
        }
        for (Waiter w : released) {
            w.executor.execute(w.then);
        }
    }

    /**
     * Whether a statement may go to {@code shard} now. If not, {@code then} runs on
     * {@code executor} (the statement's event loop) once the branch commits pending there now
     * have ended, and false is returned.
     */
    public boolean passes(int shard, Executor executor, Runnable then) {
        if (pending.get(shard) == 0) {
            return true;
        }
        synchronized (lines[shard]) {
            ShardLine line = lines[shard];
            if (line.outstanding.isEmpty()) {
                return true;
            }
            line.waiters.add(new Waiter(line.issued, executor, then));
            return false;
        }
    }

    /** The last ticket issued on {@code shard}: {@link #passes(int, long, Executor, Runnable)} waits for those up to it. */
    @Override
    public long issued(int shard) {
        synchronized (lines[shard]) {
            return lines[shard].issued;
        }
    }

    /**
     * As {@link #passes(int, Executor, Runnable)}, waiting only for the branch commits whose
     * tickets are at most {@code upTo} (those pending at a moment taken before).
     */
    @Override
    public boolean passes(int shard, long upTo, Executor executor, Runnable then) {
        if (pending.get(shard) == 0) {
            return true;
        }
        synchronized (lines[shard]) {
            ShardLine line = lines[shard];
            if (line.outstanding.isEmpty() || line.outstanding.first() > upTo) {
                return true;
            }
            line.waiters.add(new Waiter(upTo, executor, then));
            return false;
        }
    }

    /** Runs {@code then} once the branch commits pending on {@code shard} now have ended (a move's cutover waits so). */
    @Override
    public void whenEnded(int shard, Runnable then) {
        if (passes(shard, Runnable::run, then)) {
            then.run();
        }
    }

    /** Branch commits under way on {@code shard}. */
    public int pendingOn(int shard) {
        return pending.get(shard);
    }

    /** One shard's entries: tickets in the order issued, waiters in the order they came. */
    private static final class ShardLine {
        long issued;
        final TreeSet<Long> outstanding = new TreeSet<>();
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    }

    /** A statement that waits for every ticket up to {@code upTo}. */
    private record Waiter(long upTo, Executor executor, Runnable then) {
    }
}
