package io.cleave.manager.supervisor;

/** Where a supervised instance is in its life. */
public enum InstanceState {
    /** Not running, and not meant to be. */
    STOPPED(0),
    /** Launched or adopted, not yet answering queries. */
    STARTING(1),
    /** Answering queries. */
    RUNNING(2),
    /** Crashed; waiting out the backoff delay before the next start. */
    BACKOFF(3),
    /** Crashed too often in a short time; no more restarts until an operator acts. */
    CRASH_LOOP(4),
    /** Shutting down on purpose. */
    STOPPING(5);

    private final int code;

    InstanceState(int code) {
        this.code = code;
    }

    /** A stable number for metrics. */
    public int code() {
        return code;
    }
}
