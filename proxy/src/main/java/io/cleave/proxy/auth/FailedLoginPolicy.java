package io.cleave.proxy.auth;

import java.time.Duration;

/**
 * How failed logins as one account from one host slow the next attempts for that 'user'@'host'
 * down (the idea of MySQL's connection_control plugin): the first {@code freeFailures} cost
 * nothing; after them every attempt waits {@code delay} times the failures beyond them, at most
 * {@code maxDelay}, and waiting attempts go one {@code delay} apart, so opening many connections
 * at once does not multiply the guesses. An attempt that would have to wait longer than
 * {@code maxDelay} is refused.
 *
 * @param freeFailures failures of a 'user'@'host' before its logins are delayed
 * @param delay        the added wait per failure beyond the free ones, and the spacing of waiting attempts;
 *                     zero turns throttling off
 * @param maxDelay     the longest an attempt waits
 */
public record FailedLoginPolicy(int freeFailures, Duration delay, Duration maxDelay) {

    /** Three free failures, then one more second per failure, up to 30 s. */
    public static final FailedLoginPolicy DEFAULT = new FailedLoginPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(30));

    public static final FailedLoginPolicy OFF = new FailedLoginPolicy(0, Duration.ZERO, Duration.ZERO);

    public FailedLoginPolicy {
        if (freeFailures < 0) {
            throw new IllegalArgumentException("free failures cannot be negative");
        }
        if (delay.isNegative() || maxDelay.compareTo(delay) < 0) {
            throw new IllegalArgumentException("expected 0 <= delay <= max delay, got " + delay + " and " + maxDelay);
        }
    }

    public boolean enabled() {
        return !delay.isZero();
    }

    /** The wait of an attempt for a 'user'@'host' with {@code failures} consecutive failed logins. */
    long delayNanos(int failures) {
        if (!enabled() || failures < freeFailures) {
            return 0;
        }
        long beyond = failures - freeFailures + 1L;
        return Math.min(maxDelay.toNanos(), delay.toNanos() * Math.min(beyond, Integer.MAX_VALUE));
    }
}
