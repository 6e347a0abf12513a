package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * What clients saw that one server would never show them (an acknowledged write missing from a
 * later read, an invariant broken inside one transaction): collected as they happen, reported and
 * failed by the next check round. Reads that missed a write inside a fault's documented window are
 * kept apart as excused, and only counted.
 */
public final class Violations {
    private static final int KEPT = 50;

    private final List<String> seen = new ArrayList<>();
    private long count;
    private long excused;

    public synchronized void add(long atMillis, String what) {
        count++;
        if (seen.size() < KEPT) {
            seen.add(String.format(java.util.Locale.ROOT, "at %.1f s: %s", atMillis / 1000.0, what));
        }
    }

    public synchronized void excused() {
        excused++;
    }

    public synchronized long count() {
        return count;
    }

    public synchronized long excusedCount() {
        return excused;
    }

    /** The first violations seen (at most 50). */
    public synchronized List<String> first() {
        return List.copyOf(seen);
    }
}
