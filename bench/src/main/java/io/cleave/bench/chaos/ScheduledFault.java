package io.cleave.bench.chaos;

/**
 * One fault of a schedule: the {@code index}-th, due {@code atMillis} after the workloads started,
 * of {@code kind}. {@code draw} is the fault's own random number: what it hits (which shard, which
 * keys, how long a stop lasts) is picked from it against the state the home is in when it fires,
 * so the same schedule picks the same way on a replay that reaches the same state.
 */
public record ScheduledFault(int index, long atMillis, FaultKind kind, long draw) {

    /** A number in [0, bound) drawn from this fault's draw; {@code salt} separates several picks of one fault. */
    public int pick(int salt, int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("nothing to pick from");
        }
        long mixed = draw ^ (0x9E3779B97F4A7C15L * (salt + 1));
        mixed ^= mixed >>> 31;
        mixed *= 0xBF58476D1CE4E5B9L;
        mixed ^= mixed >>> 29;
        return (int) Long.remainderUnsigned(mixed, bound);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "#%d %s at %.1f s", index, kind.label(), atMillis / 1000.0);
    }
}
