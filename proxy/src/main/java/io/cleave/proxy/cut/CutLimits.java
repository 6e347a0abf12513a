package io.cleave.proxy.cut;

/**
 * How long the parties of {@link CutWindows} may wait for one another.
 *
 * @param priorityAfterNanos how long a cut waits for decisions in flight before new ones wait
 *                           for it
 * @param commitHoldNanos    the longest a decision waits for a cut that is itself still waiting
 *                           for decisions in flight (never cut short while a window is open)
 * @param windowNanos        how long a window may stay open before it is given up
 * @param cutWaitNanos       how long a cut may wait for its window before it is given up
 */
public record CutLimits(long priorityAfterNanos, long commitHoldNanos, long windowNanos, long cutWaitNanos) {

    public static final CutLimits DEFAULT = new CutLimits(millis(2), millis(50), millis(500), millis(10_000));

    private static long millis(long ms) {
        return ms * 1_000_000L;
    }
}
