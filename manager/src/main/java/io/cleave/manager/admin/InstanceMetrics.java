package io.cleave.manager.admin;

import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceSupervisor;
import io.cleave.manager.supervisor.SupervisorMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Instance meters, read from the supervisors when scraped; probe timings pushed by them. */
public final class InstanceMetrics implements SupervisorMetrics {

    private final MeterRegistry registry;

    public InstanceMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void bind(List<InstanceSupervisor> supervisors) {
        for (InstanceSupervisor s : supervisors) {
            String name = s.plan().name();
            for (InstanceState state : InstanceState.values()) {
                Gauge.builder(MetricNames.INSTANCE_STATE, s, sup -> sup.state() == state ? 1 : 0)
                        .tag(MetricNames.TAG_INSTANCE, name).tag(MetricNames.TAG_STATE, state.name())
                        .description("1 when the instance is in this state").register(registry);
            }
            FunctionCounter.builder(MetricNames.INSTANCE_RESTARTS, s, sup -> sup.status().restarts())
                    .tag(MetricNames.TAG_INSTANCE, name).description("restarts after crashes").register(registry);
            TimeGauge.builder(MetricNames.INSTANCE_UPTIME, s, TimeUnit.SECONDS, sup -> sup.status().uptimeSeconds())
                    .tag(MetricNames.TAG_INSTANCE, name).description("time since the running server started").register(registry);
        }
    }

    @Override
    public void probed(String instance, Duration latency, boolean ok) {
        Timer.builder(MetricNames.INSTANCE_PROBE)
                .tag(MetricNames.TAG_INSTANCE, instance).tag(MetricNames.TAG_OUTCOME, ok ? "ok" : "error")
                .description("readiness and health probe latency (connect + SELECT VERSION())")
                .publishPercentileHistogram()
                .register(registry)
                .record(latency);
    }
}
