package io.cleave.bench.chaos;

/**
 * One fault as it went: when it was due and when it fired (milliseconds since the workloads
 * started, and the wall clock), whether it was injected or refused in the state the home was in,
 * what it hit, and when the home had settled after it.
 */
public record FaultEvent(int index, FaultKind kind, long dueMillis, long firedMillis, String wallClock, Outcome outcome,
                         String detail, long settledMillis) {

    /** Injected, or refused by the product (or held back by the soak) in the state the home was in. */
    public enum Outcome { INJECTED, REFUSED }

    public String line() {
        return String.format(java.util.Locale.ROOT, "%s  +%8.1f s  #%-4d %-24s %-8s %s%s", wallClock, firedMillis / 1000.0,
            index, kind.label(), outcome.name().toLowerCase(java.util.Locale.ROOT), detail,
            settledMillis > firedMillis ? String.format(java.util.Locale.ROOT, " (settled after %.1f s)",
                (settledMillis - firedMillis) / 1000.0) : "");
    }
}
