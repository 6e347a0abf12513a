package io.cleave.proxy.deadlock;

import io.cleave.proxy.metrics.ProxyMetrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link Snapshot}s by hand for the detector's tests: client transactions with their
 * server thread on each shard, shard lock waits and transactions, pool lines.
 */
final class Shards {

    private final int shards;
    private final DeadlockDetector detector;
    private final List<Snapshot.TransactionView> views = new ArrayList<>();
    private final List<Snapshot.LineView> lines = new ArrayList<>();
    private final Map<Integer, List<ShardLocks.LockWait>> waits = new HashMap<>();
    private final Map<Integer, Map<Long, ShardLocks.ShardTransaction>> transactions = new HashMap<>();
    private long nextStart = 1_000;

    Shards(int shards) {
        this.shards = shards;
        this.detector = new DeadlockDetector(Duration.ZERO, shards, ProxyMetrics.NONE);
        for (int s = 0; s < shards; s++) {
            waits.put(s, new ArrayList<>());
            transactions.put(s, new HashMap<>());
        }
    }

    /** A client transaction on proxy thread 0, running a command, holding {@code threads[s]} on shard s (0: none). */
    TrackedTransaction client(long connectionId, long... threads) {
        return client(connectionId, 0, true, threads);
    }

    TrackedTransaction client(long connectionId, int loop, boolean running, long... threads) {
        TrackedTransaction t = detector.track(connectionId, "app", null);
        views.add(new Snapshot.TransactionView(t, loop, running ? 7 : 8, threads.clone(), nextStart++));
        for (int s = 0; s < threads.length; s++) {
            if (threads[s] != 0) {
                transaction(s, threads[s], 1, "UPDATE t SET v = 1 WHERE id = 42");
            }
        }
        return t;
    }

    /** An open transaction on a shard (replaces one on the same thread). */
    Shards transaction(int shard, long thread, long weight, String query) {
        transactions.get(shard).put(thread, new ShardLocks.ShardTransaction(thread, "trx-" + shard + "-" + thread,
                weight, query, thread * 10));
        return this;
    }

    /** On {@code shard}, thread {@code waiting} waits for a lock {@code blocking} holds. */
    Shards waits(int shard, long waiting, long blocking) {
        if (!transactions.get(shard).containsKey(waiting)) {
            transaction(shard, waiting, 1, "UPDATE t SET v = 2 WHERE id = 7");
        }
        if (!transactions.get(shard).containsKey(blocking)) {
            transaction(shard, blocking, 1, null);
        }
        waits.get(shard).add(new ShardLocks.LockWait(waiting, blocking, "X record lock on `d`.`t` index PRIMARY"));
        return this;
    }

    Shards line(int loop, int shard, int inUse, TrackedTransaction... waiters) {
        lines.add(new Snapshot.LineView(loop, shard, inUse, List.of(waiters)));
        return this;
    }

    Snapshot snapshot() {
        Map<Integer, ShardLocks> locks = new HashMap<>();
        for (int s = 0; s < shards; s++) {
            locks.put(s, new ShardLocks(s, List.copyOf(waits.get(s)), Map.copyOf(transactions.get(s))));
        }
        return new Snapshot(List.copyOf(views), List.copyOf(lines), locks);
    }

    static WaitNode node(TrackedTransaction t) {
        return new WaitNode.Client(t);
    }
}
