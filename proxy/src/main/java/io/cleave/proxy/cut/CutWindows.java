package io.cleave.proxy.cut;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Orders the opening of cuts against cross-shard commits, so that the snapshots of one cut see
 * every cross-shard transaction whole or not at all.
 *
 * <p>A cross-shard transaction becomes visible on its coordinator's shard at its decision (the
 * coordinator's COMMIT) and on each other shard at that branch's XA COMMIT, which runs after the
 * client was answered. A cut's snapshots are opened in a <em>window</em>. It begins at a moment no
 * decision is in flight (sent and not answered), so every transaction is decided before its
 * snapshots open or after. First the branch commits of those decided before end on the window's
 * shards (a decision that comes early in the window, within the cut's priority bound, still goes
 * at once and counts as before: the window waits for its answer and branch commits too); then every
 * snapshot of the window opens at once (one round trip), so they see those transactions whole.
 * Those decided after wait: a decision until the snapshot on its coordinator's shard is open (its
 * client has not been answered yet), a branch's XA COMMIT until the snapshot on the branch's shard
 * is (its client has been answered already: this delays nobody). Every cut that asked while no
 * window could begin shares the next one.
 *
 * <p>Neither side starves the other: a cut that has waited {@link CutLimits#priorityAfterNanos} for
 * decisions holds new ones back until its snapshots are open (never one longer than
 * {@link CutLimits#commitHoldNanos} while no window is open), and whatever a window held goes as soon
 * as it closes, before the next window can begin. A window that does not close within
 * {@link CutLimits#windowNanos} (a shard that does not answer) is given up: its late cuts are told
 * their snapshots are not consistent.
 *
 * <p>While the snapshots are being opened, answers to clients wait ({@link #holdAnswer}): an
 * answer is what lets a client act on a commit it saw (an acknowledgement, or a row another client
 * committed); held, no chain of such actions can lead from a commit a cut's early snapshot missed to
 * one its later snapshot sees. That lasts the one round trip of opening them; the hot path of every
 * statement pays one volatile read for it.
 *
 * <p>Thread-safe; one per proxy. Callbacks run on the executors their callers gave.
 */
public final class CutWindows {

    /** A cut waiting for its window. */
    public interface Opening {

        /**
         * The window has begun: open the snapshots when {@link Window#whenReady} says, and say when
         * each is open ({@link Window#shardOpened}) and when all are ({@link Window#opened}).
         */
        void open(Window window);

        /** No window came in time: the cut cannot be taken. */
        void gaveUp(String reason);
    }

    private final LongSupplier clock;
    private final CutMetrics metrics;
    private final BranchCommits branchCommits;
    private volatile CutLimits limits = CutLimits.DEFAULT;
    private volatile boolean enabled = true;
    /** A window's snapshots are being opened: answers wait. Written under the lock, read without it on every answer. */
    private volatile boolean open;

    // ---- guarded by this ----
    private int deciding;
    private long windows;
    private List<Request> waiting = new ArrayList<>();
    private long waitingSince;
    /** Decisions held by a cut that waited past its priority, until its window opens. */
    private final ArrayDeque<Held> heldForPriority = new ArrayDeque<>();
    private Window window;
    private final OwedBranches owed = new OwedBranches();

    public CutWindows(CutMetrics metrics) {
        this(System::nanoTime, metrics, BranchCommits.NONE);
    }

    /** With {@code clock} as the time source (tests) and {@code branchCommits} to wait for. */
    public CutWindows(LongSupplier clock, CutMetrics metrics, BranchCommits branchCommits) {
        this.clock = clock;
        this.metrics = metrics;
        this.branchCommits = branchCommits;
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

    public CutLimits limits() {
        return limits;
    }

    public void limits(CutLimits limits) {
        this.limits = java.util.Objects.requireNonNull(limits);
    }

    // ---- commits ---------------------------------------------------------------------------------

    /** The decision of a cross-shard transaction coordinated on {@code coordinator}, about to be sent. */
    public Decision decision(int coordinator) {
        return new Decision(coordinator);
    }

    /**
     * One cross-shard transaction's way through the windows: its decision goes when no open
     * window's snapshot on its coordinator's shard is still to open ({@link #go}), it is in flight
     * until {@link #answered}, and its branch commits go when no snapshot of the window it was
     * decided in is still to open on their shards ({@link #commitBranches}).
     */
    public final class Decision {
        private final int coordinator;
        private boolean inFlight;
        /** The window the decision was sent in (after its coordinator's snapshot opened), else -1. */
        private long decidedIn = -1;
        /** The window that let it go before its snapshots opened, and waits for it and its branch commits; else null. */
        private Window admittedTo;

        private Decision(int coordinator) {
            this.coordinator = coordinator;
        }

        /**
         * Whether the decision may be sent now; if not, {@code send} runs on {@code executor}
         * when it may. Either way it is in flight from then until {@link #answered}.
         */
        public boolean go(Executor executor, Runnable send) {
            List<Runnable> actions = new ArrayList<>();
            synchronized (CutWindows.this) {
                if (!enabled) {
                    inFlight = true;
                    deciding++;
                    return true;
                }
                Window w = CutWindows.this.window;
                long now = clock.getAsLong();
                Held held = new Held(executor, send, now, this, null);
                if (w != null) {
                    if (w.pending(coordinator) == 0) {
                        letGo(held, w, false, actions);
                        return true;
                    }
                    if (!w.ready && now < w.admitUntil) {
                        // Early in a window, before any snapshot opens: it goes now, and the window
                        // waits for it and its branch commits as for those decided before it.
                        inFlight = true;
                        deciding++;
                        admittedTo = w;
                        w.admitted++;
                        return true;
                    }
                    w.heldDecisions.add(held);
                    return false;
                }
                if (priorityDue()) {
                    heldForPriority.add(held);
                    return false;
                }
                letGo(held, null, false, actions);
                return true;
            }
        }

        /** The decision was answered (committed, refused, or lost): it is no longer in flight. */
        public void answered() {
            List<Runnable> actions = new ArrayList<>();
            synchronized (CutWindows.this) {
                if (!inFlight) {
                    return;
                }
                inFlight = false;
                deciding--;
                Window admitted = admittedTo;
                admittedTo = null;
                if (admitted != null && admitted == CutWindows.this.window && !admitted.ready) {
                    admitted.admittedAnswered(actions);
                }
                if (deciding == 0 && CutWindows.this.window == null && !waiting.isEmpty()) {
                    openWindow(actions);
                }
            }
            actions.forEach(Runnable::run);
        }

        /**
         * Whether the branch commits on {@code shards} may be sent now; if not, {@code send} runs on
         * {@code executor} once they may. Only a transaction decided inside a window waits: until
         * that window's snapshots on those shards are open.
         */
        public boolean commitBranches(int[] shards, Executor executor, Runnable send) {
            synchronized (CutWindows.this) {
                Window w = CutWindows.this.window;
                if (w == null || w.epoch != decidedIn || w.allOpen(shards)) {
                    return true;
                }
                w.heldBranches.add(new Held(executor, send, clock.getAsLong(), null, shards));
            }
            return false;
        }
    }

    /** Lets a held (or new) decision go: it is in flight, and decided in {@code w} when one is open. */
    private void letGo(Held h, Window w, boolean wasHeld, List<Runnable> actions) {
        h.decision.inFlight = true;
        h.decision.decidedIn = w == null ? -1 : w.epoch;
        deciding++;
        if (wasHeld) {
            metrics.commitHeld(clock.getAsLong() - h.since);
            actions.add(() -> h.executor.execute(h.send));
        }
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
            String owing = owed.owing(shards);
            if (owing != null) {
                executor.execute(() -> opening.gaveUp(owing));
                return;
            }
            Request r = new Request(executor, shards.clone(), opening, clock.getAsLong());
            if (waiting.isEmpty()) {
                waitingSince = r.since;
            }
            waiting.add(r);
            if (window == null && deciding == 0) {
                openWindow(actions);
            }
        }
        actions.forEach(Runnable::run);
    }

    /**
     * Begins a window for every waiting cut; adds what to run outside the lock to {@code actions}.
     * Its snapshots may open once the branch commits decided before it have ended on its shards.
     */
    private void openWindow(List<Runnable> actions) {
        long now = clock.getAsLong();
        Window w = new Window(++windows, waiting, now);
        window = w;
        waiting = new ArrayList<>();
        for (Request r : w.members) {
            actions.add(() -> r.executor.execute(() -> r.opening.open(w)));
        }
        // Decisions a cut's priority held now wait for their coordinator's snapshot only.
        while (!heldForPriority.isEmpty()) {
            w.heldDecisions.add(heldForPriority.poll());
        }
        w.release(actions);
        w.awaitBranchCommits();
        w.readyIfDone(actions);
    }

    /** Closes {@code w}: what it held goes, answers go, and the next window opens if it can. */
    private void close(Window w, List<Runnable> actions) {
        long now = clock.getAsLong();
        w.closed = true;
        window = null;
        open = false;
        metrics.windowClosed(now - (w.ready ? w.readyAt : w.openedAt), w.members.size());
        for (Held h : w.starts) {
            // Given up before it was ready: the cut is told its snapshots are not consistent.
            actions.add(() -> h.executor.execute(h.send));
        }
        for (Held h : w.heldDecisions) {
            letGo(h, null, true, actions);
        }
        for (Held h : w.heldBranches) {
            metrics.branchCommitHeld(now - h.since);
            actions.add(() -> h.executor.execute(h.send));
        }
        for (Held d : w.deferred) {
            actions.add(() -> d.executor.execute(d.send));
        }
        if (deciding == 0 && !waiting.isEmpty()) {
            openWindow(actions);
        }
    }

    // ---- owed branches ---------------------------------------------------------------------------

    /**
     * A branch of a transaction whose decision was committed did not commit (its shard or connection
     * went away): no cut covers its shard until recovery has committed it (see {@link OwedBranches}),
     * not one asked for later, nor one whose window is open now.
     */
    public synchronized void owe(int shard, String xid) {
        owed.owe(shard, xid);
        if (window != null && window.covers(shard)) {
            window.spoiled = owed.owing(new int[] {shard});
        }
    }

    /** Recovery (or an operator) committed or rolled back {@code xid}'s branch on {@code shard}. */
    public synchronized void settled(int shard, String xid) {
        owed.settled(shard, xid);
    }

    /** A mark taken before a scan of the shards' prepared branches (see {@link #preparedOn}). */
    public synchronized long mark() {
        return owed.mark();
    }

    /** A scan that began at {@code mark} found {@code xids} prepared on {@code shard}. */
    public synchronized void preparedOn(int shard, Set<String> xids, long mark) {
        owed.preparedOn(shard, xids, mark);
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
            window.deferred.add(new Held(executor, then, 0, null, null));
        }
        metrics.answerHeld();
        return true;
    }

    /** Whether a window has begun and not closed (tests, status). */
    public synchronized boolean windowOpen() {
        return window != null;
    }

    /** Whether a window's snapshots are being opened now, answers waiting (tests, status). */
    public boolean holdingAnswers() {
        return open;
    }

    /** Decisions in flight now (tests, status). */
    public synchronized int decisionsInFlight() {
        return deciding;
    }

    /** Decisions waiting for a cut now (tests, status). */
    public synchronized int heldCommits() {
        return heldForPriority.size() + (window == null ? 0 : window.heldDecisions.size());
    }

    /** Branch commits waiting for a cut now (tests, status). */
    public synchronized int heldBranchCommits() {
        return window == null ? 0 : window.heldBranches.size();
    }

    /** Cuts waiting for a window now (tests, status). */
    public synchronized int waitingCuts() {
        return waiting.size();
    }

    // ---- limits ----------------------------------------------------------------------------------

    /**
     * Enforces the limits (called often by a timer): gives up a window open too long, lets go of
     * decisions held too long while no window is open, and gives up cuts that waited too long.
     */
    public void tick() {
        List<Runnable> actions = new ArrayList<>();
        synchronized (this) {
            long now = clock.getAsLong();
            CutLimits l = limits;
            if (window != null && now - window.openedAt > l.windowNanos()) {
                window.expired = true;
                close(window, actions);
            }
            if (window == null && !heldForPriority.isEmpty() && now - heldForPriority.peek().since > l.commitHoldNanos()) {
                while (!heldForPriority.isEmpty()) {
                    letGo(heldForPriority.poll(), null, true, actions);
                }
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
                    actions.add(() -> r.executor.execute(() -> r.opening.gaveUp("no moment without a commit decision"
                            + " in flight came within " + l.cutWaitNanos() / 1_000_000 + " ms")));
                }
            }
        }
        actions.forEach(Runnable::run);
    }

    /**
     * One window: the cuts opened in it. Once the branch commits decided before it have ended on
     * its shards it is ready: every cut opens its snapshots, says when each is open, and when all
     * of its own are; the window closes when every cut has.
     */
    public final class Window {
        private final long epoch;
        private final List<Request> members;
        private final long openedAt;
        private long readyAt;
        /** Per shard, the snapshots still to open there. */
        private final Map<Integer, Integer> pendingByShard = new HashMap<>();
        /** Branch commits decided before the snapshots open still running, counted once per wait per shard. */
        private int shardsAwaited;
        /** Until then, decisions go at once, and the window waits for them (see {@link Decision#go}). */
        private final long admitUntil;
        /** Decisions let go that way and not answered yet. */
        private int admitted;
        private boolean ready;
        private final List<Held> starts = new ArrayList<>();
        private final List<Held> heldDecisions = new ArrayList<>();
        private final List<Held> heldBranches = new ArrayList<>();
        private final List<Held> deferred = new ArrayList<>();
        private int outstanding;
        private boolean closed;
        private boolean expired;
        private String spoiled;

        private Window(long epoch, List<Request> members, long openedAt) {
            this.epoch = epoch;
            this.members = members;
            this.openedAt = openedAt;
            this.outstanding = members.size();
            for (Request r : members) {
                for (int shard : r.shards) {
                    pendingByShard.merge(shard, 1, Integer::sum);
                }
            }
            long firstAsked = members.stream().mapToLong(Request::since).min().orElse(openedAt);
            this.admitUntil = firstAsked + limits.priorityAfterNanos();
        }

        /**
         * Waits, on every shard of the window, for the branch commits begun there so far (those of
         * transactions decided before its snapshots open).
         */
        private void awaitBranchCommits() {
            for (int shard : pendingByShard.keySet()) {
                if (!branchCommits.passes(shard, branchCommits.issued(shard), Runnable::run, this::branchCommitsEnded)) {
                    shardsAwaited++;
                }
            }
        }

        /** A decision the window let go early was answered: its branch commits, pending now, are waited for too. */
        private void admittedAnswered(List<Runnable> actions) {
            admitted--;
            awaitBranchCommits();
            readyIfDone(actions);
        }

        /** Branch commits of one shard that the window waited for ended. */
        private void branchCommitsEnded() {
            List<Runnable> actions = new ArrayList<>();
            synchronized (CutWindows.this) {
                if (closed || ready) {
                    return;
                }
                shardsAwaited--;
                readyIfDone(actions);
            }
            actions.forEach(Runnable::run);
        }

        private void readyIfDone(List<Runnable> actions) {
            if (!ready && !closed && shardsAwaited == 0 && admitted == 0) {
                ready(actions);
            }
        }

        /** The snapshots may open: from now until the window closes, answers wait. */
        private void ready(List<Runnable> actions) {
            ready = true;
            readyAt = clock.getAsLong();
            open = true;
            for (Request r : members) {
                metrics.cutTaken(readyAt - r.since);
            }
            for (Held h : starts) {
                actions.add(() -> h.executor.execute(h.send));
            }
            starts.clear();
        }

        /**
         * Runs {@code then} on {@code executor} when the cut may open its snapshots: once every
         * branch commit decided before the window has ended on the window's shards, so the
         * snapshots see every transaction decided before the window whole. All of the window's
         * cuts open theirs then, together, in one round trip.
         */
        public void whenReady(Executor executor, Runnable then) {
            synchronized (CutWindows.this) {
                if (!ready && !closed) {
                    starts.add(new Held(executor, then, 0, null, null));
                    return;
                }
            }
            executor.execute(then);
        }

        private int pending(int shard) {
            return pendingByShard.getOrDefault(shard, 0);
        }

        private boolean covers(int shard) {
            return pendingByShard.containsKey(shard);
        }

        private boolean allOpen(int[] shards) {
            for (int shard : shards) {
                if (pending(shard) > 0) {
                    return false;
                }
            }
            return true;
        }

        /** One cut's snapshot on {@code shard} is open (or failed to open): what waited for it may go. */
        public void shardOpened(int shard) {
            List<Runnable> actions = new ArrayList<>();
            synchronized (CutWindows.this) {
                if (closed) {
                    return;
                }
                pendingByShard.merge(shard, -1, Integer::sum);
                release(actions);
            }
            actions.forEach(Runnable::run);
        }

        /** Lets go of the decisions and branch commits whose shards' snapshots are all open. */
        private void release(List<Runnable> actions) {
            long now = clock.getAsLong();
            for (Iterator<Held> it = heldDecisions.iterator(); it.hasNext(); ) {
                Held h = it.next();
                if (pending(h.decision.coordinator) == 0) {
                    it.remove();
                    letGo(h, this, true, actions);
                }
            }
            for (Iterator<Held> it = heldBranches.iterator(); it.hasNext(); ) {
                Held h = it.next();
                if (allOpen(h.shards)) {
                    it.remove();
                    metrics.branchCommitHeld(now - h.since);
                    actions.add(() -> h.executor.execute(h.send));
                }
            }
        }

        /**
         * One cut's snapshots are all open (or it gave up opening them). Returns whether they form
         * a consistent cut: false when the window was given up before they opened, or a shard it
         * covers was left owing a decided transaction's branch commit meanwhile.
         */
        public boolean opened() {
            List<Runnable> actions = new ArrayList<>();
            boolean valid;
            synchronized (CutWindows.this) {
                valid = !expired && spoiled == null;
                if (!closed && --outstanding == 0) {
                    close(this, actions);
                }
            }
            actions.forEach(Runnable::run);
            return valid;
        }

        /** Why the window's cuts are not consistent although it did not expire, or null. */
        public String spoiled() {
            synchronized (CutWindows.this) {
                return spoiled;
            }
        }
    }

    private record Request(Executor executor, int[] shards, Opening opening, long since) {
    }

    /** Something held: a decision (with its {@link Decision}), branch commits (with their shards), or an answer. */
    private record Held(Executor executor, Runnable send, long since, Decision decision, int[] shards) {
    }
}
