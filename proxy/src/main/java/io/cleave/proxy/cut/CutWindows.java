package io.cleave.proxy.cut;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Orders the opening of cuts against the visible phases of cross-shard commits, so that the
 * snapshots of one cut see every cross-shard transaction whole or not at all.
 *
 * <p>A cross-shard commit is visible part-way from the moment its decision (the coordinator's
 * COMMIT) is sent until its last branch's XA COMMIT has run: a snapshot opened on the
 * coordinator then may see it while one opened on a branch's shard does not. A cut's snapshots
 * are therefore all opened inside a <em>window</em>: it opens only when no such phase is in
 * flight, and no phase starts until it closes (a commit about to send its decision waits; it has
 * not been answered yet, and the wait is one snapshot round trip). Every cut that asked while the
 * window was shut opens in the same window.
 *
 * <p>Neither side starves the other: a cut that has waited {@link Limits#priorityAfterNanos} for
 * phases in flight to end holds new phases back until its window has closed (but never a phase
 * longer than {@link Limits#commitHoldNanos} while no window is open), and phases held by a window
 * start as soon as it closes, before the next window can open. A window that does not close within
 * {@link Limits#windowNanos} (a shard that does not answer) is given up: its late cuts are told
 * their snapshots are not consistent.
 *
 * <p>While a window is open, answers to clients wait for it to close ({@link #holdAnswer}): an
 * answer is what lets a client act on a commit it saw (an acknowledgement, or a row another client
 * committed); held, no chain of such actions can lead from a commit a cut's early snapshot missed to
 * one its later snapshot sees. The hot path of every statement pays one volatile read for it.
 *
 * <p>Thread-safe; one per proxy. Callbacks run on the executors their callers gave.
 */
public final class CutWindows {

    /**
     * @param priorityAfterNanos how long a cut waits for commit phases in flight to end before new
     *                           ones wait for it
     * @param commitHoldNanos    the longest a commit's decision waits for a cut that is itself
     *                           still waiting for phases in flight (never cut short while a
     *                           window is open)
     * @param windowNanos        how long a window may stay open before it is given up
     * @param cutWaitNanos       how long a cut may wait for its window before it is given up
     */
    public record Limits(long priorityAfterNanos, long commitHoldNanos, long windowNanos, long cutWaitNanos) {

        public static final Limits DEFAULT = new Limits(millis(2), millis(50), millis(500), millis(10_000));

        private static long millis(long ms) {
            return ms * 1_000_000L;
        }
    }

    /** A cut waiting for its window. */
    public interface Opening {

        /** The window is open: open the snapshots now and say when they are ({@link Window#opened}). */
        void open(Window window);

        /** No window came in time: the cut cannot be taken. */
        void gaveUp(String reason);
    }

    private final LongSupplier clock;
    private final CutMetrics metrics;
    private volatile Limits limits = Limits.DEFAULT;
    private volatile boolean enabled = true;
    /** A window is open: answers wait. Written under the lock, read without it on every answer. */
    private volatile boolean open;

    // ---- guarded by this ----
    private int phases;
    private final ArrayDeque<HeldPhase> heldPhases = new ArrayDeque<>();
    private List<Request> waiting = new ArrayList<>();
    private long waitingSince;
    private Window window;
    /** Shards whose branch of a decided transaction is still prepared, with those transactions' ids. */
    private final java.util.Map<Integer, java.util.Map<String, Long>> owed = new java.util.HashMap<>();
    /** Orders owed branches against scans of prepared branches. */
    private long marks;

    public CutWindows(CutMetrics metrics) {
        this(System::nanoTime, metrics);
    }

    /** With {@code clock} as the time source (tests). */
    public CutWindows(LongSupplier clock, CutMetrics metrics) {
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Whether cuts are taken at all; off (for tests and benchmarks only), reads across shards may be torn. */
    public boolean enabled() {
        return enabled;
    }

    public void enabled(boolean on) {
        this.enabled = on;
    }

    public CutMetrics metrics() {
        return metrics;
    }

    public Limits limits() {
        return limits;
    }

    public void limits(Limits limits) {
        this.limits = java.util.Objects.requireNonNull(limits);
    }

    // ---- commits ---------------------------------------------------------------------------------

    /**
     * A cross-shard commit is about to send its decision. Returns true when it may at once (its
     * phase has begun); otherwise {@code start} runs on {@code executor} when it may, and the phase
     * begins then. Either way the commit ends its phase with {@link #leavePhase} after its last
     * branch commit (or when its decision failed).
     */
    public boolean enterPhase(Executor executor, Runnable start) {
        synchronized (this) {
            if (!enabled || window == null && !priorityDue()) {
                phases++;
                return true;
            }
            heldPhases.add(new HeldPhase(executor, start, clock.getAsLong()));
        }
        return false;
    }

    /** A commit's visible phase is over (its branches committed, or the decision failed). */
    public void leavePhase() {
        List<Runnable> actions = new ArrayList<>();
        synchronized (this) {
            phases--;
            if (phases == 0 && window == null && !waiting.isEmpty()) {
                openWindow(actions);
            }
        }
        actions.forEach(Runnable::run);
    }

    private boolean priorityDue() {
        return !waiting.isEmpty() && clock.getAsLong() - waitingSince >= limits.priorityAfterNanos();
    }

    // ---- cuts ------------------------------------------------------------------------------------

    /**
     * Asks for a window for a cut over {@code shards}: {@code opening} is told on {@code executor}
     * when it opens, or at once that the cut cannot be taken while one of the shards still owes a
     * decided transaction its branch commit ({@link #owe}).
     */
    public void request(Executor executor, int[] shards, Opening opening) {
        List<Runnable> actions = new ArrayList<>();
        synchronized (this) {
            String owing = owing(shards);
            if (owing != null) {
                executor.execute(() -> opening.gaveUp(owing));
                return;
            }
            Request r = new Request(executor, opening, clock.getAsLong());
            if (waiting.isEmpty()) {
                waitingSince = r.since;
            }
            waiting.add(r);
            if (window == null && phases == 0) {
                openWindow(actions);
            }
        }
        actions.forEach(Runnable::run);
    }

    /** Opens a window for every waiting cut; adds what to run outside the lock to {@code actions}. */
    private void openWindow(List<Runnable> actions) {
        long now = clock.getAsLong();
        Window w = new Window(waiting, now);
        window = w;
        waiting = new ArrayList<>();
        open = true;
        for (Request r : w.members) {
            long waited = now - r.since;
            actions.add(() -> r.executor.execute(() -> {
                metrics.cutTaken(waited);
                r.opening.open(w);
            }));
        }
    }

    /** Closes {@code w}: held phases start, held answers go, and the next window opens if it can. */
    private void close(Window w, List<Runnable> actions) {
        long now = clock.getAsLong();
        w.closed = true;
        window = null;
        open = false;
        metrics.windowClosed(now - w.openedAt, w.members.size());
        for (Deferred d : w.deferred) {
            actions.add(() -> d.executor.execute(d.then));
        }
        releaseHeldPhases(now, actions);
        if (phases == 0 && !waiting.isEmpty()) {
            openWindow(actions);
        }
    }

    private void releaseHeldPhases(long now, List<Runnable> actions) {
        while (!heldPhases.isEmpty()) {
            HeldPhase h = heldPhases.poll();
            phases++;
            metrics.commitHeld(now - h.since);
            actions.add(() -> h.executor.execute(h.start));
        }
    }

    /**
     * A branch of a transaction whose decision was committed did not commit (its shard or connection
     * went away): recovery will commit it. Until then a snapshot of {@code shard} would miss a
     * transaction the coordinator's shard shows, so no cut covers it.
     */
    public synchronized void owe(int shard, String xid) {
        owed.computeIfAbsent(shard, s -> new java.util.HashMap<>()).put(xid, ++marks);
    }

    /** Recovery (or an operator) committed or rolled back {@code xid}'s branch on {@code shard}. */
    public synchronized void settled(int shard, String xid) {
        java.util.Map<String, Long> xids = owed.get(shard);
        if (xids != null && xids.remove(xid) != null && xids.isEmpty()) {
            owed.remove(shard);
        }
    }

    /** A mark taken before a scan of the shards' prepared branches (see {@link #preparedOn}). */
    public synchronized long mark() {
        return ++marks;
    }

    /**
     * A scan that began at {@code mark} found {@code xids} prepared on {@code shard}: a branch owed
     * before the scan began and not among them has been settled (by whatever means).
     */
    public synchronized void preparedOn(int shard, java.util.Set<String> xids, long mark) {
        java.util.Map<String, Long> owing = owed.get(shard);
        if (owing == null) {
            return;
        }
        owing.entrySet().removeIf(e -> e.getValue() < mark && !xids.contains(e.getKey()));
        if (owing.isEmpty()) {
            owed.remove(shard);
        }
    }

    private String owing(int[] shards) {
        if (owed.isEmpty()) {
            return null;
        }
        for (int shard : shards) {
            java.util.Map<String, Long> xids = owed.get(shard);
            if (xids != null) {
                return "shard " + shard + " has not yet committed its branch of transaction " + xids.keySet().iterator().next()
                        + ", which committed elsewhere; recovery commits it";
            }
        }
        return null;
    }

    // ---- answers ---------------------------------------------------------------------------------

    /**
     * Whether a client's answer must wait now: if a window is open, {@code then} runs on
     * {@code executor} once it has closed, and true is returned; else false (answer at once). One
     * volatile read when no window is open.
     */
    public boolean holdAnswer(Executor executor, Runnable then) {
        if (!open) {
            return false;
        }
        synchronized (this) {
            if (window == null) {
                return false;
            }
            window.deferred.add(new Deferred(executor, then));
        }
        metrics.answerHeld();
        return true;
    }

    /** Whether a window is open now (tests, status). */
    public boolean windowOpen() {
        return open;
    }

    /** Commit phases in flight now (tests, status). */
    public synchronized int phasesInFlight() {
        return phases;
    }

    /** Commits waiting for a cut now (tests, status). */
    public synchronized int heldCommits() {
        return heldPhases.size();
    }

    /** Cuts waiting for a window now (tests, status). */
    public synchronized int waitingCuts() {
        return waiting.size();
    }

    // ---- limits ----------------------------------------------------------------------------------

    /**
     * Enforces the limits (called often by a timer): gives up a window open too long, starts
     * commits held too long while no window is open, and gives up cuts that waited too long.
     */
    public void tick() {
        List<Runnable> actions = new ArrayList<>();
        synchronized (this) {
            long now = clock.getAsLong();
            Limits l = limits;
            if (window != null && now - window.openedAt > l.windowNanos()) {
                window.expired = true;
                close(window, actions);
            }
            if (window == null && !heldPhases.isEmpty() && now - heldPhases.peek().since > l.commitHoldNanos()) {
                releaseHeldPhases(now, actions);
            }
            if (!waiting.isEmpty() && now - waitingSince > l.cutWaitNanos()) {
                List<Request> late = new ArrayList<>();
                List<Request> keep = new ArrayList<>();
                for (Request r : waiting) {
                    (now - r.since > l.cutWaitNanos() ? late : keep).add(r);
                }
                waiting = keep;
                waitingSince = keep.isEmpty() ? 0 : keep.get(0).since;
                for (Request r : late) {
                    actions.add(() -> r.executor.execute(() -> r.opening.gaveUp("no moment without a commit across"
                            + " shards in flight came within " + l.cutWaitNanos() / 1_000_000 + " ms")));
                }
            }
        }
        actions.forEach(Runnable::run);
    }

    /**
     * One window: the cuts opened in it. Each says when its snapshots are open; the window closes
     * when all have.
     */
    public final class Window {
        private final List<Request> members;
        private final long openedAt;
        private final List<Deferred> deferred = new ArrayList<>();
        private int outstanding;
        private boolean closed;
        private boolean expired;

        private Window(List<Request> members, long openedAt) {
            this.members = members;
            this.openedAt = openedAt;
            this.outstanding = members.size();
        }

        /**
         * One cut's snapshots are all open (or it gave up opening them). Returns whether they form
         * a consistent cut: false when the window was given up before they opened.
         */
        public boolean opened() {
            List<Runnable> actions = new ArrayList<>();
            boolean valid;
            synchronized (CutWindows.this) {
                valid = !expired;
                if (!closed && --outstanding == 0) {
                    close(this, actions);
                }
            }
            actions.forEach(Runnable::run);
            return valid;
        }
    }

    private record Request(Executor executor, Opening opening, long since) {
    }

    private record HeldPhase(Executor executor, Runnable start, long since) {
    }

    private record Deferred(Executor executor, Runnable then) {
    }
}
