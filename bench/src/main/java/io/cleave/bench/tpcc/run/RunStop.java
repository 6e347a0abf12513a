package io.cleave.bench.tpcc.run;

/**
 * Ends a run before its duration, from another thread: for a run that lasts as long as something else does (a
 * failover test's steps). The measurement window closes at {@link #stop()}, the terminals finish the transaction in
 * flight and the result counts the time measured until then.
 */
public final class RunStop {
    private volatile boolean stopped;
    private volatile MeasurementWindow window;

    public void stop() {
        stopped = true;
        MeasurementWindow running = window;
        if (running != null) {
            running.endBy(System.nanoTime());
        }
    }

    /** Either stop() sees the window or this sees stopped: a stop before the run starts ends it at once. */
    void attach(MeasurementWindow running) {
        window = running;
        if (stopped) {
            running.endBy(System.nanoTime());
        }
    }
}
