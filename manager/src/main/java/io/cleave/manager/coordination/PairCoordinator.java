package io.cleave.manager.coordination;

import io.cleave.manager.config.CoordinationConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps this home's place in its standby pair through etcd.
 * <ul>
 * <li>The primary holds {@code /cleave/CLUSTER/primary} on a lease and renews it every tick. It knows its lease
 *     lives until the send time of its last successful renewal plus the lease's TTL (etcd counts from when the
 *     renewal arrived, later), and fences itself a margin before that moment whenever renewals stop
 *     succeeding: the proxy refuses, the shards go read-only. So by the time etcd lets the key lapse, the old
 *     primary has stopped writing, whether it lost etcd, its host, or only its way to etcd.</li>
 * <li>The standby reads the key every tick. Once it has been gone for the margin, the standby takes over with
 *     one compare-and-set (epoch still the one it knew, no claim alive, then epoch + 1 and its own claim on a
 *     new lease): one winner. It then promotes its shards and serves. Whether it can still reach the old
 *     primary's shards does not matter: the old primary fenced itself, and a standby that waited for them to
 *     be unreachable would leave the pair without a primary when only the old primary's way to etcd is cut.</li>
 * <li>A home that starts, or that was fenced, and finds a newer epoch stays fenced ({@link PairState#SUPERSEDED});
 *     one fenced for want of etcd claims the primary again when the pair is still at its epoch and nobody
 *     holds it.</li>
 * </ul>
 * Semi-synchronous replication without fallback closes what is left: a commit the old primary's shards take
 * after the standby stopped replicating waits for an acknowledgement that never comes, so it is never
 * acknowledged to a client.
 */
public final class PairCoordinator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PairCoordinator.class);
    private static final int RETRY_SECONDS = 2;

    private final CoordinationConfig config;
    private final PairStore store;
    private final PairActions actions;
    private final String host;
    private final String admin;
    private final LongSupplier nanos;
    private final long tickMillis;
    private final long marginNanos;
    private final ScheduledExecutorService timer;
    /** Slow actions (serving, promoting) run here, never on the timer's threads, which keep renewing and fencing. */
    private final ExecutorService worker;

    private volatile PairState state = PairState.STARTING;
    private volatile long epoch;
    private volatile PrimaryClaim primary;
    private volatile String reason;
    /** What rejoining this superseded home by itself came to ({@link AutoRejoin}); null when nothing was tried. */
    private volatile String rejoinNote;
    /** This home's own epoch (its standby.json), the one it claims or takes over from. */
    private volatile long localEpoch;
    private volatile long lease;
    /** Until when the lease surely lives (nanos); meaningful while a lease is held. */
    private volatile long leaseValidUntil;
    private volatile boolean holdsLease;
    /** When the standby first saw no live claim; 0 while one lives. */
    private long absentSince;

    public PairCoordinator(CoordinationConfig config, PairStore store, PairActions actions, String host,
                           String admin, LongSupplier nanos) {
        this(config, store, actions, host, admin, nanos, true);
    }

    /** {@code timed}: false for tests, which run {@link #tick()} and {@link #watchLease()} themselves. */
    PairCoordinator(CoordinationConfig config, PairStore store, PairActions actions, String host, String admin,
                    LongSupplier nanos, boolean timed) {
        this.config = config;
        this.store = store;
        this.actions = actions;
        this.host = host;
        this.admin = admin;
        this.nanos = nanos;
        long leaseMillis = config.lease().toMillis();
        this.tickMillis = Math.max(100, Math.min(250, leaseMillis / 10));
        this.marginNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(500, leaseMillis / 4));
        this.timer = timed ? Executors.newScheduledThreadPool(2, threads("pair-coordinator")) : null;
        this.worker = Executors.newSingleThreadExecutor(threads("pair-actions"));
    }

    /** How long a call to etcd may take: well inside the margin, so a hung call cannot outlive the lease unseen. */
    public static Duration callTimeout(CoordinationConfig config) {
        return Duration.ofMillis(Math.max(400, config.lease().toMillis() / 4));
    }

    /**
     * Starts as the primary at {@code epoch}: claims the primary's key once now, then keeps it. Returns whether
     * this home may serve; when not, it is fenced (the reason in {@link #report()}) and keeps trying, and
     * {@link PairActions#serve()} runs once it holds the lease.
     */
    public boolean startPrimary(long epoch) {
        localEpoch = epoch;
        synchronized (this) {
            // A new client's first calls are slow (connections, classes loading) and nothing serves yet: etcd gets
            // about a lease's time to answer before this home counts as cut off from it (and fences).
            int quietTries = timer == null ? 0 : (int) (config.lease().toMillis() / tickMillis);
            for (int i = 0; i < quietTries && !tryClaim(false, false); i++) {
                sleep(tickMillis);
            }
            if (state == PairState.STARTING) {
                tryClaim(false, true);
            }
        }
        schedule();
        return state == PairState.PRIMARY;
    }

    /** Starts as the standby of a pair at {@code epoch}: watches the primary's key and takes over when it lapses. */
    public void startStandby(long epoch) {
        localEpoch = epoch;
        state = PairState.STANDBY;
        schedule();
    }

    private void schedule() {
        if (timer == null) {
            return;
        }
        timer.scheduleWithFixedDelay(this::tick, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::watchLease, tickMillis / 2, tickMillis / 2, TimeUnit.MILLISECONDS);
    }

    synchronized void tick() {
        try {
            switch (state) {
                case PRIMARY, PROMOTING -> renew();
                case FENCED -> tryClaim(true, true);
                case STANDBY -> watchPrimary();
                case STARTING, SUPERSEDED -> {
                }
            }
        } catch (RuntimeException e) {
            log.error("pair coordination: {}", e.toString(), e);
        }
    }

    /** Fences this home a margin before its lease could lapse at etcd, however the renewals are failing. */
    void watchLease() {
        // Without the coordinator's lock: a renewal hung on etcd holds it, and the fence must not wait for it.
        if (holdsLease && nanos.getAsLong() - fenceDeadline() >= 0) {
            lose(PairState.FENCED, "could not renew the primary's lease in etcd (" + String.valueOf(reason)
                    + "); another home may take over once it lapses");
        }
    }

    private void renew() {
        long sent = nanos.getAsLong();
        try {
            OptionalLong ttl = store.renew(lease);
            if (ttl.isEmpty()) {
                lose(PairState.FENCED, "the primary's lease lapsed in etcd; another home may have taken over");
                return;
            }
            leaseValidUntil = sent + TimeUnit.SECONDS.toNanos(ttl.getAsLong());
            reason = null;
            actions.leaseUntil(fenceDeadline());
        } catch (EtcdUnavailable e) {
            reason = "etcd: " + e.getMessage();
        }
    }

    /** Gives the lease up as lost and fences; safe from both timer threads (the fence action is idempotent). */
    private void lose(PairState next, String why) {
        if (!holdsLease && state == next) {
            return;
        }
        holdsLease = false;
        state = next;
        reason = why;
        log.error("fenced: {}", why);
        actions.fence(why);
    }

    /** Claims the primary at this home's epoch, unless a newer epoch exists or another home holds it. */
    /**
     * Returns whether etcd answered; unanswered and {@code fenceIfUnreachable} false, nothing changes (the daemon's
     * start, before anything serves).
     */
    private boolean tryClaim(boolean retry, boolean fenceIfUnreachable) {
        try {
            PairView view = store.read();
            epoch = view.epoch();
            primary = view.primary().orElse(null);
            if (view.epoch() > localEpoch) {
                superseded(view);
                return true;
            }
            long sent = nanos.getAsLong();
            long id = store.grantLease(config.lease());
            PrimaryClaim me = new PrimaryClaim(host, admin, localEpoch);
            if (store.claim(me, id)) {
                holding(me, id, sent, PairState.PRIMARY);
                log.info("holds the primary's lease in etcd at epoch {}", localEpoch);
                if (retry) {
                    worker.execute(actions::serve);
                }
                return true;
            }
            PairView now = store.read();
            if (now.epoch() > localEpoch) {
                superseded(now);
                return true;
            }
            fenceUntilClaimed("another home holds the primary at epoch " + now.epoch() + ": "
                    + now.primary().map(PrimaryClaim::toString).orElse("(its lease just lapsed)"));
        } catch (EtcdUnavailable e) {
            if (fenceIfUnreachable) {
                fenceUntilClaimed("cannot reach etcd to claim the primary's lease: " + e.getMessage());
            }
            return false;
        }
        return true;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fenceUntilClaimed(String why) {
        if (state != PairState.FENCED) {
            lose(PairState.FENCED, why);
        } else {
            reason = why;
        }
    }

    private void superseded(PairView view) {
        String newer = view.primary().map(p -> "the primary is now " + p).orElse("the pair is at epoch " + view.epoch()
                + " (its primary's lease has lapsed too)");
        lose(PairState.SUPERSEDED, "this home was the primary at epoch " + localEpoch + "; " + newer
                + ". It stays fenced: rejoin it as a standby ('cleave rejoin') or rebuild it ('cleave rejoin --rebuild')");
    }

    private void watchPrimary() {
        PairView view;
        try {
            view = store.read();
        } catch (EtcdUnavailable e) {
            // A standby that cannot read etcd cannot take over either (the compare-and-set needs etcd).
            reason = "etcd: " + e.getMessage();
            absentSince = 0;
            return;
        }
        epoch = view.epoch();
        primary = view.primary().orElse(null);
        reason = null;
        if (view.primary().isPresent()) {
            absentSince = 0;
            return;
        }
        long now = nanos.getAsLong();
        if (absentSince == 0) {
            absentSince = now;
            log.warn("the primary's lease lapsed in etcd (epoch {}); taking over in {} ms unless it comes back",
                    view.epoch(), TimeUnit.NANOSECONDS.toMillis(marginNanos));
            return;
        }
        if (now - absentSince >= marginNanos) {
            takeOver(view.epoch());
        }
    }

    private void takeOver(long from) {
        PrimaryClaim me = new PrimaryClaim(host, admin, from + 1);
        try {
            long sent = nanos.getAsLong();
            long id = store.grantLease(config.lease());
            if (!store.takeOver(from, me, id)) {
                log.info("another home took over at epoch {} first", from + 1);
                absentSince = 0;
                return;
            }
            holding(me, id, sent, PairState.PROMOTING);
            log.warn("took over the primary in etcd at epoch {}: promoting", me.epoch());
            worker.execute(() -> promote(me.epoch()));
        } catch (EtcdUnavailable e) {
            reason = "etcd: " + e.getMessage();
        }
    }

    private void promote(long at) {
        try {
            actions.promote(at);
            promoted();
        } catch (Exception e) {
            // It holds the primary's key but could not promote (a shard of this home down, a replica stopped on an
            // error): the pair has no serving primary until it can. Status shows why; it tries again (a promotion
            // goes on where it stopped).
            promotionFailed(at, e);
        }
    }

    /**
     * An operator's promotion ({@code cleave promote}) on a pair coordinated through etcd: the same takeover, so it
     * is refused while the primary's lease lives. Returns the new epoch.
     */
    public synchronized long takeOverNow() throws EtcdUnavailable {
        if (state != PairState.STANDBY) {
            throw new IllegalStateException("this home is " + state + " in its pair, not the standby");
        }
        PairView view = store.read();
        if (view.primary().isPresent()) {
            throw new IllegalStateException("the primary " + view.primary().get() + " still holds its lease in etcd:"
                    + " it serves; promoting now would make two primaries");
        }
        PrimaryClaim me = new PrimaryClaim(host, admin, view.epoch() + 1);
        long sent = nanos.getAsLong();
        long id = store.grantLease(config.lease());
        if (!store.takeOver(view.epoch(), me, id)) {
            throw new IllegalStateException("another home took over first");
        }
        holding(me, id, sent, PairState.PRIMARY);
        return me.epoch();
    }

    /**
     * The standby's part of a switchover, once its replicas applied everything the primary wrote at {@code from}
     * (the primary is read-only and holds its statements): the primary's live claim moves to this home at
     * {@code from + 1} in one compare-and-set, so exactly one home holds the primary at any moment. Returns the
     * new epoch; this home is {@link PairState#PROMOTING} until {@link #promoted} or {@link #promotionFailed}.
     * Refused, with nothing changed, unless this home is the standby at {@code from} and the primary's claim at
     * {@code from} lives.
     */
    public synchronized long takeOverLive(long from) throws EtcdUnavailable {
        if (state != PairState.STANDBY || localEpoch != from) {
            throw new IllegalStateException("this home is " + state + " at epoch " + localEpoch + " in etcd's view of the"
                    + " pair, not the standby at epoch " + from + ": nothing was changed");
        }
        PairView view = store.read();
        PrimaryClaim live = view.primary().orElseThrow(() -> new IllegalStateException("no primary holds the lease in"
                + " etcd (epoch " + view.epoch() + "): a switchover moves a live primary's claim; nothing was changed"));
        if (view.epoch() != from || live.epoch() != from) {
            throw new IllegalStateException("the pair is at epoch " + view.epoch() + " in etcd (primary " + live
                    + "), not " + from + ": nothing was changed");
        }
        PrimaryClaim me = new PrimaryClaim(host, admin, from + 1);
        long sent = nanos.getAsLong();
        long id = store.grantLease(config.lease());
        if (!store.handOver(live, me, id)) {
            throw new IllegalStateException("the primary's claim in etcd changed while it was being moved here: nothing"
                    + " was changed");
        }
        holding(me, id, sent, PairState.PROMOTING);
        log.info("took the primary's claim over from {} in etcd at epoch {} (switchover)", live, me.epoch());
        return me.epoch();
    }

    /** The promotion at the epoch this home took over is done: it is the primary. */
    public synchronized void promoted() {
        if (state == PairState.PROMOTING) {
            state = PairState.PRIMARY;
        }
    }

    /**
     * The promotion at {@code at} failed after this home took the claim (a takeover's or a switchover's): it holds
     * the primary and tries again in a while.
     */
    public void promotionFailed(long at, Exception e) {
        reason = "promotion at epoch " + at + " failed, trying again in " + RETRY_SECONDS + " s: " + e.getMessage();
        log.error("{}", reason, e);
        if (timer != null && !timer.isShutdown()) {
            timer.schedule(() -> worker.execute(() -> promote(at)), RETRY_SECONDS, TimeUnit.SECONDS);
        }
    }

    /**
     * This primary's switchover handed its claim to the standby, now the primary at {@code epoch}: this home
     * watches that primary's key as its standby, neither fenced nor superseded. Its own lease, no key on it any
     * more, is left to lapse.
     */
    public synchronized void handedOver(long epoch) {
        holdsLease = false;
        localEpoch = epoch;
        this.epoch = epoch;
        reason = null;
        absentSince = 0;
        state = PairState.STANDBY;
        log.info("handed the primary's claim over in etcd (switchover): the standby of epoch {}", epoch);
    }

    /** This home won the primary at {@code me.epoch()} on {@code id}, granted at {@code sent}. */
    private void holding(PrimaryClaim me, long id, long sent, PairState next) {
        lease = id;
        leaseValidUntil = sent + config.lease().toNanos();
        holdsLease = true;
        epoch = me.epoch();
        primary = me;
        localEpoch = me.epoch();
        reason = null;
        state = next;
        actions.leaseUntil(fenceDeadline());
    }

    /**
     * When this home must have stopped serving: a margin before its lease could lapse at etcd (System.nanoTime());
     * now, without a lease.
     */
    public long fenceDeadline() {
        return holdsLease ? leaseValidUntil - marginNanos : nanos.getAsLong();
    }

    /** This home rejoined the pair as the standby of the primary at {@code epoch}: it watches that primary's key. */
    public synchronized void rejoined(long epoch) {
        rejoinNote = null;
        localEpoch = epoch;
        holdsLease = false;
        reason = null;
        absentSince = 0;
        state = PairState.STANDBY;
    }

    public PairState state() {
        return state;
    }

    /** What rejoining by itself came to, said after the reason while this home is superseded; null: nothing. */
    public void rejoinNote(String note) {
        rejoinNote = note;
    }

    public CoordinationReport report() {
        long left = holdsLease ? Math.max(0, TimeUnit.NANOSECONDS.toMillis(leaseValidUntil - nanos.getAsLong())) : 0;
        String note = rejoinNote;
        String why = state == PairState.SUPERSEDED && note != null ? reason + " " + note : reason;
        return new CoordinationReport(state, epoch, primary, holdsLease, left, why, config.cluster(), config.etcd(), null);
    }

    /** Stops coordinating. The lease is left to lapse, not revoked: a stopped primary's standby takes over. */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        worker.shutdownNow();
        store.close();
    }

    private static java.util.concurrent.ThreadFactory threads(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
