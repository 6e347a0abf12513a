package io.cleave.manager.backup.throttle;

/**
 * A bound on bytes written per second, shared by every writer of one backup. Each write reserves
 * its bytes before it is made and is told how long to wait first: a write takes the time its bytes
 * need at the rate, counted from when the writes before it are paid for. So over any span of T
 * seconds at most {@code rate * T} bytes plus one write's are written, whatever the number of
 * writers; idle time is not saved up for a burst later. Pure arithmetic on the times it is given
 * ({@link ThrottledStore} passes the clock and sleeps).
 */
public final class ByteRate {

    private static final double NANOS_PER_SECOND = 1e9;

    private final double bytesPerSecond;
    /** When every byte reserved so far is paid for (nanoTime scale). */
    private long paidUntil = Long.MIN_VALUE;

    public ByteRate(double bytesPerSecond) {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("a rate of " + bytesPerSecond + " bytes/s bounds nothing");
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    /** {@code mbPerSecond} megabytes (2^20 bytes) per second. */
    public static ByteRate ofMegabytesPerSecond(double mbPerSecond) {
        return new ByteRate(mbPerSecond * 1024 * 1024);
    }

    public double bytesPerSecond() {
        return bytesPerSecond;
    }

    /** Reserves {@code bytes} at {@code now} (nanos); returns how many nanos the write waits before it is made. */
    public synchronized long reserve(long bytes, long now) {
        long start = paidUntil == Long.MIN_VALUE || paidUntil < now ? now : paidUntil;
        paidUntil = start + (long) Math.ceil(bytes * NANOS_PER_SECOND / bytesPerSecond);
        return start - now;
    }
}
