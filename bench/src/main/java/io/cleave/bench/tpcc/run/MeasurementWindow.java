package io.cleave.bench.tpcc.run;

/**
 * The run's clock on System.nanoTime(): started, measurement start (after warm-up) and end. The end only moves
 * earlier, when a {@link RunStop} ends the run before its duration; terminals and the sampler read it each time.
 */
final class MeasurementWindow {
    private final long startNanos;
    private final long measureStartNanos;
    private volatile long endNanos;

    MeasurementWindow(long startNanos, long measureStartNanos, long endNanos) {
        this.startNanos = startNanos;
        this.measureStartNanos = measureStartNanos;
        this.endNanos = endNanos;
    }

    long startNanos() {
        return startNanos;
    }

    long measureStartNanos() {
        return measureStartNanos;
    }

    long endNanos() {
        return endNanos;
    }

    /** Ends the window at {@code nanos} if that is before its end; a stop in the warm-up ends it when measuring would start. */
    synchronized void endBy(long nanos) {
        endNanos = Math.min(endNanos, Math.max(nanos, measureStartNanos));
    }

    /** Measured seconds: from the measurement's start to the end, as the end stands now. */
    double measuredSeconds() {
        return (endNanos - measureStartNanos) / 1e9;
    }

    boolean contains(long nanos) {
        return nanos >= measureStartNanos && nanos < endNanos;
    }

    double secondsFromMeasureStart(long nanos) {
        return (nanos - measureStartNanos) / 1e9;
    }
}
