package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.KeyClass;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.Target;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.ShardMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The proxy's part of a move: the moment keys change shards. While a {@link Cutover} is armed,
 * statements that reach the moving keys are held (not failed), transactions and commands already
 * running on the source finish, the mover applies the last changes and publishes the next map
 * (the {@link Cutover.Fence}), and the held statements run again, routed by the new map. When the
 * drain takes longer than its deadline, everything held runs as before and the mover tries later:
 * a client never gets an error from a move.
 *
 * <p>The hot path pays one volatile read when no cutover is armed.
 */
public final class CutoverGate {

    private static final Logger log = LoggerFactory.getLogger(CutoverGate.class);

    /** Poll interval of the drain; a drain is over in milliseconds when transactions are short. */
    private static final long DRAIN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final TargetResolver resolver;
    private final Supplier<ShardMap> maps;
    private final AcknowledgedCommits commits;
    private final Set<Participant> participants = ConcurrentHashMap.newKeySet();
    private volatile Armed armed;

    /** {@code maps}: the current shard map (where a statement's keys go decides whether it reaches the source). */
    public CutoverGate(TargetResolver resolver, Supplier<ShardMap> maps) {
        this(resolver, maps, AcknowledgedCommits.NONE);
    }

    /** {@code commits}: branch commits still running after their transaction was answered, which the drain waits for too. */
    public CutoverGate(TargetResolver resolver, Supplier<ShardMap> maps, AcknowledgedCommits commits) {
        this.resolver = resolver;
        this.maps = maps;
        this.commits = commits;
    }

    public void register(Participant p) {
        participants.add(p);
    }

    /** The sessions now (a live view): who else may be running a command (read each on its own loop). */
    public Set<Participant> participants() {
        return java.util.Collections.unmodifiableSet(participants);
    }

    public void unregister(Participant p) {
        participants.remove(p);
        Armed a = armed;
        if (a != null) {
            a.gone(p);
        }
    }

    /**
     * Called on the participant's loop before a statement runs. Returns false when the statement
     * is held: {@code retry} then runs on that loop once the cutover is over.
     */
    public boolean admit(Participant p, Plan plan, ParameterValues values, Runnable retry) {
        Armed a = armed;
        return a == null || a.admit(p, plan, values, retry);
    }

    /** Whether a cutover is armed now (for tests and status). */
    public boolean armed() {
        return armed != null;
    }

    /**
     * Runs one cutover attempt; blocks the calling (mover) thread. Only one runs at a time.
     */
    public synchronized Cutover.Outcome run(Cutover cutover, Cutover.Fence fence) throws InterruptedException {
        Armed a = new Armed(cutover);
        long start = System.nanoTime();
        armed = a;
        String reason = null;
        boolean switched = false;
        try {
            long deadline = start + cutover.drainDeadline().toNanos();
            if (!a.drain(deadline)) {
                reason = (allShards(cutover) ? "transactions, statements or connection-bound session state (temporary"
                        + " tables, locks, prepared SQL statements) were still open" : "transactions or statements on"
                        + " the moving keys were still running") + " after " + cutover.drainDeadline().toMillis() + " ms";
            } else if (!a.awaitCommits(deadline)) {
                reason = "branch commits of answered transactions were still running on "
                        + (allShards(cutover) ? "a shard" : "shard " + cutover.source())
                        + " after " + cutover.drainDeadline().toMillis() + " ms";
            } else {
                fence.apply();
                switched = true;
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            reason = "the final catch-up failed: " + e.getMessage();
            log.warn("{}: cutover attempt given up: {}", allShards(cutover) ? "switchover" : "move " + cutover.moveId(),
                    e.toString());
        } finally {
            armed = null;
            a.release();
        }
        long pause = System.nanoTime() - start;
        return new Cutover.Outcome(switched, pause, a.maxHeldNanos(), a.heldCount(), reason);
    }

    private static boolean allShards(Cutover cutover) {
        return cutover.scope() instanceof Cutover.Scope.AllShards;
    }

    /** An armed cutover: who must finish first, and what waits. */
    private final class Armed {
        private final Cutover cutover;
        private final Map<Participant, Enrollment> enrolled = new ConcurrentHashMap<>();
        private final List<Held> held = new ArrayList<>();
        private final Set<Participant> holding = ConcurrentHashMap.newKeySet();
        private boolean released;
        private long maxHeldNanos;
        private int heldCount;

        Armed(Cutover cutover) {
            this.cutover = cutover;
        }

        /** What a participant was doing when the gate first saw it. */
        private record Enrollment(boolean transaction, long transactionSerial, boolean command, long commandSerial) {
        }

        private record Held(Participant participant, Runnable retry, long since) {
        }

        /** Whether the participant works where the cutover switches: on the source, or on any shard for all of them. */
        private boolean holds(Participant p) {
            return allShards(cutover) ? p.holdsAnyShard() : p.holdsTransactionOn(cutover.source());
        }

        private Enrollment enroll(Participant p, boolean countCommand) {
            boolean tx = holds(p);
            boolean cmd = countCommand && p.busy() && !holding.contains(p);
            return new Enrollment(tx, p.transactionSerial(), cmd, p.commandSerial());
        }

        boolean admit(Participant p, Plan plan, ParameterValues values, Runnable retry) {
            // The statement being admitted is not a command to wait for: it is this one.
            Enrollment e = enrolled.computeIfAbsent(p, q -> enroll(q, false));
            if (!touches(plan, values)) {
                return true;
            }
            if ((e.transaction() || e.command()) && p.transactionSerial() == e.transactionSerial() && holds(p)) {
                // A transaction already on the source (or opened there by a command running when the
                // cutover armed) finishes there; the drain waits for it.
                return true;
            }
            synchronized (this) {
                if (released) {
                    return true;
                }
                held.add(new Held(p, retry, System.nanoTime()));
                holding.add(p);
                return false;
            }
        }

        void gone(Participant p) {
            enrolled.remove(p);
        }

        /** Waits until every transaction and command that was running on the source has ended. */
        boolean drain(long deadline) throws InterruptedException {
            List<CompletableFuture<Void>> enrolling = new ArrayList<>();
            for (Participant p : participants) {
                CompletableFuture<Void> f = new CompletableFuture<>();
                p.eventLoop().execute(() -> {
                    enrolled.computeIfAbsent(p, q -> enroll(q, true));
                    f.complete(null);
                });
                enrolling.add(f);
            }
            if (!await(enrolling, deadline)) {
                return false;
            }
            while (true) {
                List<CompletableFuture<Boolean>> checks = new ArrayList<>();
                for (Map.Entry<Participant, Enrollment> e : enrolled.entrySet()) {
                    Enrollment en = e.getValue();
                    if (!en.transaction() && !en.command()) {
                        continue;
                    }
                    Participant p = e.getKey();
                    CompletableFuture<Boolean> f = new CompletableFuture<>();
                    p.eventLoop().execute(() -> f.complete(finished(p, en)));
                    checks.add(f);
                }
                if (!await(checks, deadline)) {
                    return false;
                }
                boolean all = true;
                for (CompletableFuture<Boolean> f : checks) {
                    all &= f.join();
                }
                if (all) {
                    return true;
                }
                if (System.nanoTime() + DRAIN_POLL_NANOS > deadline) {
                    return false;
                }
                TimeUnit.NANOSECONDS.sleep(DRAIN_POLL_NANOS);
            }
        }

        /**
         * Waits for the branch commits under way on the source once the drain is over: those of
         * transactions it waited for are among them (they ended for their clients at the answer).
         */
        boolean awaitCommits(long deadline) throws InterruptedException {
            List<CompletableFuture<Void>> ended = new ArrayList<>();
            if (allShards(cutover)) {
                for (int s = 0; s < maps.get().shardCount(); s++) {
                    CompletableFuture<Void> f = new CompletableFuture<>();
                    commits.whenEnded(s, () -> f.complete(null));
                    ended.add(f);
                }
            } else {
                CompletableFuture<Void> f = new CompletableFuture<>();
                commits.whenEnded(cutover.source(), () -> f.complete(null));
                ended.add(f);
            }
            return await(ended, deadline);
        }

        private boolean finished(Participant p, Enrollment en) {
            if (!participants.contains(p)) {
                return true;
            }
            // A command running at arming may have opened (or joined) a transaction on the source
            // before it ended: that transaction finishes too before the map changes.
            boolean txDone = !en.transaction() && !en.command() || !holds(p)
                    || !allShards(cutover) && p.transactionSerial() != en.transactionSerial();
            boolean cmdDone = !en.command() || !p.busy() || p.commandSerial() != en.commandSerial() || holding.contains(p);
            return txDone && cmdDone;
        }

        private <T> boolean await(List<CompletableFuture<T>> futures, long deadline) throws InterruptedException {
            try {
                CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                        .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                return true;
            } catch (java.util.concurrent.TimeoutException e) {
                return false;
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }

        void release() {
            List<Held> toRun;
            synchronized (this) {
                released = true;
                toRun = new ArrayList<>(held);
                held.clear();
            }
            long now = System.nanoTime();
            heldCount = toRun.size();
            for (Held h : toRun) {
                maxHeldNanos = Math.max(maxHeldNanos, now - h.since());
                holding.remove(h.participant());
                h.participant().eventLoop().execute(h.retry());
            }
        }

        long maxHeldNanos() {
            return maxHeldNanos;
        }

        int heldCount() {
            return heldCount;
        }

        /** Whether the statement may reach what moves (when its keys cannot be narrowed, it may). */
        private boolean touches(Plan plan, ParameterValues values) {
            if (plan instanceof Plan.Route r && r.target() instanceof Target.Routine) {
                // A procedure may work on any key (its declared key is read only once it is placed): it waits.
                return true;
            }
            if (cutover.scope() instanceof Cutover.Scope.Keys k) {
                return touchesKeys(plan, values, k);
            }
            if (allShards(cutover)) {
                return plan instanceof Plan.Route || plan instanceof Plan.InsertSplit;
            }
            return reachesSource(plan, values);
        }

        private boolean reachesSource(Plan plan, ParameterValues values) {
            int source = cutover.source();
            if (plan instanceof Plan.Route r) {
                if (r.target() instanceof Target.AnyShard) {
                    // Only reference tables and no tables at all: nothing whose rules change.
                    return false;
                }
                Resolution res;
                try {
                    res = resolver.resolve(r.target(), values, maps.get());
                } catch (RuntimeException e) {
                    return true;
                }
                if (res.isError()) {
                    return true;
                }
                if (res.isAny()) {
                    return false;
                }
                if (res.isSingle()) {
                    return res.shard() == source;
                }
                for (int s : res.shards()) {
                    if (s == source) {
                        return true;
                    }
                }
                return false;
            }
            if (plan instanceof Plan.InsertSplit split) {
                ShardMap map = maps.get();
                for (Plan.InsertRow row : split.rows()) {
                    int shard = row.key() == null ? -1 : resolver.shardOf(split.keyspace(), row.key(), values, map);
                    if (shard == source || shard < 0) {
                        return true;
                    }
                }
            }
            return false;
        }

        private boolean touchesKeys(Plan plan, ParameterValues values, Cutover.Scope.Keys moving) {
            String keyspace = moving.keyspace();
            if (plan instanceof Plan.Route r && r.target() instanceof Target.Keyed keyed) {
                for (KeyClass c : keyed.classes()) {
                    if (!c.keyspace().name().equals(keyspace)) {
                        continue;
                    }
                    if (!c.restricted()) {
                        return true;
                    }
                    // A moving key in any restriction is held (erring on the safe side).
                    for (KeyValue v : c.values()) {
                        if (moving(resolver.keyOf(c.keyspace(), v, values), moving)) {
                            return true;
                        }
                    }
                }
                return false;
            }
            if (plan instanceof Plan.InsertSplit split && split.keyspace().name().equals(keyspace)) {
                for (Plan.InsertRow row : split.rows()) {
                    if (row.key() == null || moving(resolver.keyOf(split.keyspace(), row.key(), values), moving)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean moving(ShardKey key, Cutover.Scope.Keys moving) {
            return key == null || moving.keys().contains(key, moving.function());
        }
    }
}
