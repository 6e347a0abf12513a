package io.cleave.manager.daemon;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.CoordinationConfig;
import io.cleave.manager.coordination.EtcdPairStore;
import io.cleave.manager.coordination.PairActions;
import io.cleave.manager.coordination.PairCoordinator;
import io.cleave.manager.coordination.PairState;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.StandbyState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** How the daemon builds its pair coordinator from the config, and the coordinator's meters. */
final class PairCoordination {

    private PairCoordination() {
    }

    /** The coordinator of this home's pair, not started yet; null when the config has no coordination section. */
    static PairCoordinator create(CleaveConfig config, CleaveHome home, String adminUrl, PairActions actions,
                                  MeterRegistry registry) {
        if (config.coordination().isEmpty()) {
            return null;
        }
        CoordinationConfig c = config.coordination().get();
        PairCoordinator coordinator = new PairCoordinator(c, new EtcdPairStore(c, PairCoordinator.callTimeout(c)), actions,
                hostName(), adminUrl, System::nanoTime);
        Gauge.builder("cleave_coordination_epoch", coordinator, k -> k.report().epoch())
                .description("The standby pair's epoch in etcd, as last read").register(registry);
        Gauge.builder("cleave_coordination_holds_lease", coordinator, k -> k.report().holdsLease() ? 1 : 0)
                .description("1 while this daemon holds the primary's lease in etcd").register(registry);
        Gauge.builder("cleave_coordination_fenced", coordinator, k -> k.state() == PairState.FENCED
                        || k.state() == PairState.SUPERSEDED ? 1 : 0)
                .description("1 while this home refuses writes: it lost the primary's lease or a newer epoch exists")
                .register(registry);
        Gauge.builder("cleave_coordination_lease_left_seconds", coordinator, k -> k.report().leaseLeftMillis() / 1000.0)
                .description("How long this daemon's lease surely lives (it fences a margin before); 0 without one")
                .register(registry);
        return coordinator;
    }

    /** This home's epoch: its standby.json's, or 1 for a home that has no standby yet. */
    static long localEpoch(CleaveHome home) {
        return StandbyState.of(home).map(StandbyState::epoch).orElse(1L);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
