package io.cleave.manager.move;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How hard a move works.
 *
 * @param chunkRows      rows per copy, verify and cleanup chunk
 * @param duty           share of the time the copy and cleanup work (the rest they sleep), 0-1
 * @param drainDeadline  how long a cutover waits for transactions on the moving keys before it gives up and retries
 * @param catchUpLag     catch-up events still to apply below which a move goes on to verify and cut over
 */
public record MoveSettings(int chunkRows, double duty, Duration drainDeadline, int catchUpLag) {

    public static final MoveSettings DEFAULT = new MoveSettings(1000, 0.5, Duration.ofMillis(300), 50);

    public MoveSettings {
        if (chunkRows < 1 || duty <= 0 || duty > 1) {
            throw new IllegalArgumentException("chunk rows must be positive and duty within (0, 1]");
        }
    }

    /** The defaults, with {@code cleave.move.chunk_rows}, {@code cleave.move.duty}, {@code cleave.move.drain_ms} overrides. */
    public static MoveSettings fromSystemProperties() {
        return new MoveSettings(Integer.getInteger("cleave.move.chunk_rows", DEFAULT.chunkRows),
                Double.parseDouble(System.getProperty("cleave.move.duty", String.valueOf(DEFAULT.duty))),
                Duration.ofMillis(Long.getLong("cleave.move.drain_ms", DEFAULT.drainDeadline.toMillis())),
                DEFAULT.catchUpLag);
    }

    /** Sleeps after a chunk that took {@code workedNanos}, so work is {@link #duty} of the time. */
    void throttle(long workedNanos) throws InterruptedException {
        if (duty < 1) {
            TimeUnit.NANOSECONDS.sleep((long) (workedNanos * (1 - duty) / duty));
        }
    }
}
