package io.cleave.manager.supervisor;

import java.time.Duration;

/** Where supervisors report probe timings; does nothing unless a metrics backend is bound. */
public interface SupervisorMetrics {

    SupervisorMetrics NONE = new SupervisorMetrics() {
    };

    default void probed(String instance, Duration latency, boolean ok) {
    }
}
