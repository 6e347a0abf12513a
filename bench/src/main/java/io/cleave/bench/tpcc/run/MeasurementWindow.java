package io.cleave.bench.tpcc.run;

/** The run's clock on System.nanoTime(): started, measurement start (after warm-up) and end. */
record MeasurementWindow(long startNanos, long measureStartNanos, long endNanos) {

    boolean contains(long nanos) {
        return nanos >= measureStartNanos && nanos < endNanos;
    }

    double secondsFromMeasureStart(long nanos) {
        return (nanos - measureStartNanos) / 1e9;
    }
}
