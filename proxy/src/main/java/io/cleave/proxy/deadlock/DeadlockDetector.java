package io.cleave.proxy.deadlock;

import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ShardSlots;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Finds deadlocks that span shards and breaks them as InnoDB breaks its own: no shard sees such a
 * cycle (each sees one lock wait), but the proxy knows which server thread holds which client
 * transaction on every shard.
 *
 * <p>Nothing runs while nothing waits. A transaction that spans shards arms the detector when one
 * of its commands starts (a volatile read when armed already); once armed, a check runs every
 * half threshold on the detector's own thread, reading each tracked transaction's command counter,
 * and disarms itself when no such command runs. Only when a command has been running longer than
 * the threshold does it look at the shards: every shard's lock waits and transactions over the
 * detector's own connections, and the lines in the proxy's pools, joined into one wait-for graph.
 * A cycle found there is looked at again a moment later (InnoDB's lock views refresh at most every
 * 0.1 s); if the same transactions still wait in the same commands, the victim is chosen and
 * stopped, and the deadlock is logged, counted and kept for {@code cleave status}. A wait that is
 * no cycle is left to the shard's {@code innodb_lock_wait_timeout}.
 */
public final class DeadlockDetector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeadlockDetector.class);

    /** Between two looks at a shard: InnoDB refreshes its information_schema lock views only after 0.1 s without reads. */
    static final long LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(150);

    private final long thresholdNanos;
    private final long tickMillis;
    private final int shards;
    private final ProxyMetrics metrics;
    private final Set<TrackedTransaction> tracked = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile ScheduledExecutorService timer;
    private ShardLockReader reader;
    private Supplier<Iterable<LoopResources>> loops;
    private volatile DeadlockReport latest;
    private long lastLookNanos;

    /**
     * @param checkAfter how long a command of a transaction spanning shards runs before the shards'
     *                   lock waits are looked at; zero turns the detector off
     */
    public DeadlockDetector(Duration checkAfter, int shards, ProxyMetrics metrics) {
        this.thresholdNanos = checkAfter.toNanos();
        this.tickMillis = Math.max(10, checkAfter.toMillis() / 2);
        this.shards = shards;
        this.metrics = metrics;
    }

    /** A client connection's transaction, tracked until {@link #untrack}. */
    public TrackedTransaction track(long connectionId, String user, LoopResources loop) {
        TrackedTransaction t = new TrackedTransaction(this, connectionId, user, loop, shards);
        tracked.add(t);
        return t;
    }

    public void untrack(TrackedTransaction t) {
        tracked.remove(t);
    }

    /**
     * Starts watching (when enabled): {@code controlLoop} runs the detector's own shard connections,
     * {@code loops} lists the proxy's event loops and their pools.
     */
    public synchronized void start(ShardSlots slots, EventLoop controlLoop,
                                   Supplier<Iterable<LoopResources>> loops) {
        if (thresholdNanos <= 0 || timer != null) {
            return;
        }
        this.reader = new ShardLockReader(slots, controlLoop);
        this.loops = loops;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "deadlock-detector");
            t.setDaemon(true);
            return t;
        });
    }

    /** The last deadlock broken, or null. */
    public DeadlockReport latest() {
        return latest;
    }

    /** Some command of a transaction spanning shards runs: make sure a check is coming. */
    void arm() {
        if (!armed.get() && timer != null && armed.compareAndSet(false, true)) {
            schedule(this::tick, tickMillis);
        }
    }

    private void schedule(Runnable task, long millis) {
        ScheduledExecutorService t = timer;
        if (t == null) {
            return;
        }
        try {
            t.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.warn("deadlock check failed", e);
                    schedule(this::tick, tickMillis);
                }
            }, millis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closing.
        }
    }

    private void tick() {
        long now = System.nanoTime();
        boolean running = false;
        boolean due = false;
        for (TrackedTransaction t : tracked) {
            long command = t.command();
            if ((command & 1) == 0 || !t.spansShards(command)) {
                continue;
            }
            running = true;
            if (t.observedCommand != command) {
                t.observedCommand = command;
                t.observedSince = now;
            } else if (now - t.observedSince >= thresholdNanos) {
                due = true;
            }
        }
        if (!running) {
            armed.set(false);
            // A command that started while this check looked and saw the detector armed must not go unwatched.
            if (anySpanningCommandRuns() && armed.compareAndSet(false, true)) {
                schedule(this::tick, tickMillis);
            }
            return;
        }
        if (due && now - lastLookNanos >= LOOK_INTERVAL_NANOS) {
            look();
            return;
        }
        schedule(this::tick, tickMillis);
    }

    private boolean anySpanningCommandRuns() {
        for (TrackedTransaction t : tracked) {
            long command = t.command();
            if ((command & 1) == 1 && t.spansShards(command)) {
                return true;
            }
        }
        return false;
    }

    /** A first look at the shards; a cycle there is confirmed by a second look before anyone is stopped. */
    private void look() {
        Snapshot first = takeSnapshot();
        List<WaitForGraph.Cycle> cycles = WaitForGraph.of(first).spanningCycles();
        if (cycles.isEmpty()) {
            log.debug("looked at the shards in {} ms: no deadlock across them", millisSince(lastLookNanos));
            schedule(this::tick, tickMillis);
            return;
        }
        log.debug("looked at the shards in {} ms: possible deadlock {}", millisSince(lastLookNanos), cycles);
        schedule(() -> confirm(first), TimeUnit.NANOSECONDS.toMillis(LOOK_INTERVAL_NANOS));
    }

    /** The second look: every cycle that was already there at the first is broken. */
    private void confirm(Snapshot first) {
        Snapshot second = takeSnapshot();
        WaitForGraph graph = WaitForGraph.of(second);
        List<VictimPolicy.Choice> choices = VictimPolicy.chooseAll(graph, first, second);
        if (choices.isEmpty()) {
            log.debug("second look in {} ms: no deadlock there at both looks", millisSince(lastLookNanos));
        }
        for (VictimPolicy.Choice c : choices) {
            breakCycle(c.cycle(), graph, second, c.victim());
        }
        schedule(this::tick, tickMillis);
    }

    /** Stops the victim and reports the deadlock (unless the victim had moved on). */
    private void breakCycle(WaitForGraph.Cycle cycle, WaitForGraph graph, Snapshot snapshot,
                               Snapshot.TransactionView victim) {
        ErrPacket error = VictimAction.error(victim, cycle);
        List<WaitEdge> waits = graph.edgesFrom(new WaitNode.Client(victim.transaction()));
        if (!VictimAction.stop(victim, waits, snapshot, reader, error)) {
            log.debug("deadlock victim {} moved on before it was stopped", victim.transaction());
            return;
        }
        DeadlockReport report = ReportWriter.write(cycle, snapshot, victim, Instant.now());
        latest = report;
        metrics.deadlockBroken();
        // Only a statement the ticks watched has a start time here (a one-shard transaction in the
        // cycle, or one that began after the last tick, has none).
        TrackedTransaction t = victim.transaction();
        String waited = t.observedCommand == victim.command()
                ? "its statement having waited at least " + millisSince(t.observedSince) + " ms"
                : "its statement not yet timed by the detector";
        log.warn("deadlock across shards {}: client connection {} rolled back, {}\n{}",
                report.shards(), t.connectionId(), waited, report.text());
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private Snapshot takeSnapshot() {
        lastLookNanos = System.nanoTime();
        metrics.deadlockCheck();
        return SnapshotTaker.take(tracked, loops.get(), reader);
    }


    @Override
    public synchronized void close() {
        ScheduledExecutorService t = timer;
        timer = null;
        if (t != null) {
            t.shutdownNow();
            reader.close();
        }
    }
}
