package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.server.LoopResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Takes one {@link Snapshot}: the tracked transactions' counters and threads first, then each
 * event loop's pool lines (read on that loop, which owns them), then every shard's lock waits,
 * all shards at once. A shard or loop that does not answer in time adds nothing: a cycle through
 * it goes unseen this time, and nothing is concluded from what is missing.
 */
final class SnapshotTaker {

    private static final Logger log = LoggerFactory.getLogger(SnapshotTaker.class);
    private static final long ANSWER_MILLIS = 2_000;

    private SnapshotTaker() {
    }

    static Snapshot take(Collection<TrackedTransaction> tracked, Iterable<LoopResources> loops, ShardLockReader reader) {
        List<LoopResources> loopList = new ArrayList<>();
        loops.forEach(loopList::add);
        List<Snapshot.TransactionView> views = new ArrayList<>();
        for (TrackedTransaction t : tracked) {
            long command = t.command();
            long[] threads = new long[t.shardCount()];
            boolean holds = false;
            for (int s = 0; s < threads.length; s++) {
                BackendConnection c = t.leg(s);
                if (c != null) {
                    threads[s] = c.connectionId();
                    holds = true;
                }
            }
            if (holds) {
                views.add(new Snapshot.TransactionView(t, indexOf(loopList, t.loop()), command, threads,
                        t.startedNanos()));
            }
        }
        List<Future<List<Snapshot.LineView>>> lineReads = new ArrayList<>();
        for (int i = 0; i < loopList.size(); i++) {
            LoopResources loop = loopList.get(i);
            int index = i;
            lineReads.add(loop.loop().submit(() -> lines(index, loop)));
        }
        List<Integer> shardList = reader.shards();
        List<CompletableFuture<ShardLocks>> shardReads = new ArrayList<>();
        for (int s : shardList) {
            shardReads.add(reader.read(s));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_MILLIS);
        List<Snapshot.LineView> lines = new ArrayList<>();
        for (Future<List<Snapshot.LineView>> f : lineReads) {
            List<Snapshot.LineView> got = await(f, deadline, "a proxy thread's pool lines");
            if (got != null) {
                lines.addAll(got);
            }
        }
        Map<Integer, ShardLocks> shards = new HashMap<>();
        for (int i = 0; i < shardReads.size(); i++) {
            int s = shardList.get(i);
            ShardLocks got = await(shardReads.get(i), deadline, "shard " + s + "'s lock waits");
            if (got != null) {
                shards.put(s, got);
            }
        }
        return new Snapshot(views, lines, shards);
    }

    /** On the loop: each of its pools that has a line, with who stands in it. */
    private static List<Snapshot.LineView> lines(int index, LoopResources loop) {
        List<Snapshot.LineView> out = new ArrayList<>();
        for (BackendPool pool : loop.existingPools()) {
            int s = pool.shard();
            if (pool.waiting() == 0) {
                continue;
            }
            List<TrackedTransaction> waiters = new ArrayList<>();
            for (ConnectionWaiter w : pool.waitersInLine()) {
                if (w instanceof TrackedTransaction t) {
                    waiters.add(t);
                }
            }
            out.add(new Snapshot.LineView(index, s, pool.inUse(), waiters));
        }
        return out;
    }

    private static int indexOf(List<LoopResources> loops, LoopResources loop) {
        for (int i = 0; i < loops.size(); i++) {
            if (loops.get(i) == loop) {
                return i;
            }
        }
        return -1;
    }

    /** The future's value by {@code deadline} (System.nanoTime()), or null when it failed or is late. */
    static <T> T await(Future<T> f, long deadline, String what) {
        try {
            return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            log.debug("deadlock check: could not read {}: {}", what, e.toString());
            return null;
        }
    }
}
