package io.cleave.manager.supervisor;

import java.time.Duration;

/**
 * How crashed instances are restarted: exponential backoff from {@code initialDelay} doubling up
 * to {@code maxDelay}; more than {@code maxCrashes} crashes within {@code window} is a crash loop.
 * A run that lasted {@code stableAfter} resets the backoff.
 *
 * @param startTimeout how long a start may take to answer a query before it counts as failed
 */
public record RestartPolicy(Duration initialDelay, Duration maxDelay, int maxCrashes, Duration window,
                            Duration stableAfter, Duration startTimeout) {

    public static RestartPolicy standard() {
        return new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), 5, Duration.ofMinutes(5),
                Duration.ofMinutes(1), Duration.ofMinutes(5));
    }

    public RestartPolicy {
        if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0 || maxCrashes < 1) {
            throw new IllegalArgumentException("restart policy needs 0 <= initialDelay <= maxDelay and maxCrashes >= 1");
        }
    }

    /** The delay before restart number {@code attempt} (1 = first restart after a crash). */
    public Duration delay(int attempt) {
        Duration d = initialDelay;
        for (int i = 1; i < attempt && d.compareTo(maxDelay) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }
}
