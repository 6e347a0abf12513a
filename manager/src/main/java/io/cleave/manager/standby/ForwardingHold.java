package io.cleave.manager.standby;

import io.cleave.proxy.cutover.Cutover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * On a standby whose proxy forwards its clients to the primary's shards (it was the primary before a
 * switchover), the primary's next switchover holds that proxy's statements too: they would otherwise
 * reach the primary's shards after its GTID positions were read. The hold runs on a thread of its own
 * until the switchover decides: this home takes over (the proxy then serves this home's shards) or the
 * switchover is abandoned (the proxy goes on forwarding). It never outlasts its bound: past it the
 * statements run as before, and a take-over after that is refused by the primary's read-only shards.
 */
public final class ForwardingHold {

    private static final Logger log = LoggerFactory.getLogger(ForwardingHold.class);

    private final SwitchingProxy proxy;
    private CompletableFuture<Runnable> decision;
    private CompletableFuture<Boolean> drained;
    private boolean claimed;
    private boolean expired;

    public ForwardingHold(SwitchingProxy proxy) {
        this.proxy = proxy;
    }

    /**
     * Holds the proxy's statements once its open transactions have ended; returns then. Refused when they
     * do not end within {@code drainMillis} (nothing is held then).
     */
    public synchronized void hold(long drainMillis, long holdMillis) throws Exception {
        if (decision != null && !decision.isDone()) {
            throw new IllegalStateException("this home's proxy is already held for a switchover");
        }
        CompletableFuture<Runnable> decided = new CompletableFuture<>();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        decision = decided;
        drained = ready;
        claimed = false;
        expired = false;
        Thread t = new Thread(() -> {
            try {
                Cutover.Outcome o = proxy.gate().run(Cutover.allShards(0, Duration.ofMillis(drainMillis)), () -> {
                    ready.complete(true);
                    Runnable then;
                    try {
                        then = decided.get(holdMillis, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException e) {
                        if (!expire()) {
                            then = decided.get();
                        } else {
                            log.warn("the switchover did not decide within {} ms: the forwarding proxy's statements"
                                    + " run as before", holdMillis);
                            return;
                        }
                    }
                    then.run();
                });
                if (!o.switched()) {
                    decided.complete(() -> { });
                    ready.completeExceptionally(new IllegalStateException("this home's forwarding proxy could not hold"
                            + " its statements: " + o.reason()));
                }
                log.info("forwarding proxy held {} ms ({} statements)", o.pauseNanos() / 1_000_000, o.held());
            } catch (Exception e) {
                decided.complete(() -> { });
                ready.completeExceptionally(e);
            }
        }, "forwarding-hold");
        t.setDaemon(true);
        t.start();
        try {
            ready.get(drainMillis + 10_000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception c ? c : e;
        } catch (TimeoutException e) {
            // Whatever the gate does later, it lets go at once: the switchover goes on without this hold.
            decided.complete(() -> { });
            throw new IllegalStateException("this home's forwarding proxy did not hold its statements within "
                    + (drainMillis + 10_000) + " ms", e);
        }
    }

    /**
     * Takes the hold for a take-over: from now on it lasts until {@link #release}, whatever its bound. False
     * when nothing is held (the bound passed, or no hold was asked for): the proxy's statements may have
     * reached the primary's shards since, so this home must not take over.
     */
    public synchronized boolean claim() {
        boolean held = decision != null && !decision.isDone() && drained != null && drained.isDone()
                && !drained.isCompletedExceptionally() && !expired;
        claimed = held;
        return held;
    }

    /** The bound passed: true when the hold ends now, false when a take-over claimed it first. */
    private synchronized boolean expire() {
        expired = !claimed;
        return expired;
    }

    /** Ends the hold: {@code then} runs while the statements are still held (nothing: they go on as before). */
    public synchronized void release(Runnable then) {
        if (decision != null) {
            decision.complete(then);
        }
    }
}
