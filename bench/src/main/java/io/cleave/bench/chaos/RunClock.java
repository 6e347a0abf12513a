package io.cleave.bench.chaos;

import java.time.Instant;

/** The run's time line: milliseconds since the workloads started, and the wall clock for logs. */
public final class RunClock {
    private final long originNanos = System.nanoTime();
    private final Instant origin = Instant.now();

    public long millis() {
        return (System.nanoTime() - originNanos) / 1_000_000;
    }

    public Instant origin() {
        return origin;
    }

    public Instant wallClock(long millis) {
        return origin.plusMillis(millis);
    }
}
