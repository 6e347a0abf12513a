package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * When processes were away: from the injection of each disruptive fault (a kill or a stop) until
 * it settled, plus a grace for the recovery pass that follows. Clients ask it whether a read that
 * missed an acknowledged write fell into such a window, where the proxy documents the exception
 * (a branch whose shard or coordinator died stays prepared until recovery commits it).
 */
public final class FaultTimeline {
    /** Recovery runs when a shard is back and every few seconds (the home's xa_recovery_interval_s). */
    static final long GRACE_MILLIS = 15_000;

    private final List<long[]> windows = new ArrayList<>();

    /** A disruptive fault began; returns its window, to be closed by {@link #settled}. */
    public synchronized long[] began(long atMillis) {
        long[] window = {atMillis, Long.MAX_VALUE};
        windows.add(window);
        return window;
    }

    public synchronized void settled(long[] window, long atMillis) {
        window[1] = atMillis;
    }

    /** Whether [from, to] overlaps a window of a disruptive fault (with its grace). */
    public synchronized boolean disrupted(long fromMillis, long toMillis) {
        for (long[] w : windows) {
            long end = w[1] == Long.MAX_VALUE ? Long.MAX_VALUE : w[1] + GRACE_MILLIS;
            if (fromMillis <= end && toMillis >= w[0]) {
                return true;
            }
        }
        return false;
    }
}
