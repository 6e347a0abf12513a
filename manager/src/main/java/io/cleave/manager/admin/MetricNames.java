package io.cleave.manager.admin;

/** Every meter name Cleave's daemon registers, in one place (Prometheus adds units and _total). */
public final class MetricNames {

    /** 1 for the state an instance is in, 0 for the others; tags: instance, state. */
    public static final String INSTANCE_STATE = "cleave.instance.state";
    /** Restarts after crashes; tag: instance. */
    public static final String INSTANCE_RESTARTS = "cleave.instance.restarts";
    /** Seconds since the running server started; 0 when not running; tag: instance. */
    public static final String INSTANCE_UPTIME = "cleave.instance.uptime";
    /** Readiness and health probe latency; tags: instance, outcome (ok|error). */
    public static final String INSTANCE_PROBE = "cleave.instance.probe";

    public static final String TAG_INSTANCE = "instance";
    public static final String TAG_STATE = "state";
    public static final String TAG_OUTCOME = "outcome";

    private MetricNames() {
    }
}
