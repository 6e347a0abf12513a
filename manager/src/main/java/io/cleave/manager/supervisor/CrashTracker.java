package io.cleave.manager.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Decides what follows a crash: restart after which delay, or give up as a crash loop. Time comes
 * from an injectable clock so the policy can be checked without waiting.
 */
public final class CrashTracker {

    private final RestartPolicy policy;
    private final Clock clock;
    private final Deque<Instant> crashes = new ArrayDeque<>();
    private int consecutive;

    public CrashTracker(RestartPolicy policy, Clock clock) {
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * Records a crash of a run that started at {@code runStarted}.
     *
     * @return the delay before restarting, or empty when this crash makes a crash loop
     */
    public synchronized Optional<Duration> onCrash(Instant runStarted) {
        Instant now = clock.instant();
        if (runStarted != null && Duration.between(runStarted, now).compareTo(policy.stableAfter()) >= 0) {
            consecutive = 0;
        }
        consecutive++;
        crashes.addLast(now);
        while (!crashes.isEmpty() && Duration.between(crashes.peekFirst(), now).compareTo(policy.window()) > 0) {
            crashes.removeFirst();
        }
        if (crashes.size() > policy.maxCrashes()) {
            return Optional.empty();
        }
        return Optional.of(policy.delay(consecutive));
    }

    /** Forgets the history, e.g. when an operator starts the instance again. */
    public synchronized void reset() {
        crashes.clear();
        consecutive = 0;
    }

    public synchronized int crashesInWindow() {
        return crashes.size();
    }
}
