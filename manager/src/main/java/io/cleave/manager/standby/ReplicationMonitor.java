package io.cleave.manager.standby;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Reads every shard's replication every 2 s for status and /metrics. On a standby it also turns the
 * primary's semi-sync on once every replica runs: before that a primary waiting for acknowledgements
 * would block its commits while the standby is still being seeded or started.
 */
public final class ReplicationMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicationMonitor.class);
    public static final String PRIMARY_TOKEN = "primary-admin-token";
    /** The per-shard gauges, by name. */
    private static final List<String> PER_SHARD = List.of("cleave_standby_replica_lag_seconds",
            "cleave_standby_replica_running", "cleave_standby_semi_sync", "cleave_standby_waiting_commits",
            "cleave_standby_async_commits", "cleave_standby_replica_tls");

    private final CleaveHome home;
    private final ShardLinks links;
    private final Supplier<List<ShardEndpoint>> shards;
    private final Map<Integer, ShardReplication> last = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final ScheduledExecutorService scheduler;
    private volatile java.util.concurrent.ScheduledFuture<?> task;
    private volatile boolean primarySemiSyncAsked;
    private volatile long replicatedMapVersion;

    public ReplicationMonitor(CleaveHome home, ShardLinks links, Supplier<List<ShardEndpoint>> shards,
                              MeterRegistry registry, ScheduledExecutorService scheduler) {
        this.home = home;
        this.links = links;
        this.shards = shards;
        this.registry = registry;
        this.scheduler = scheduler;
    }

    public void start() {
        Gauge.builder("cleave_standby_epoch", home, h -> StandbyState.of(h).map(StandbyState::epoch).orElse(0L))
                .description("the standby pair's epoch; 0 without a standby").register(registry);
        Gauge.builder("cleave_standby_primary", home, h -> StandbyState.of(h).map(st -> st.role() == HostRole.PRIMARY ? 1 : 0)
                .orElse(0)).description("1 when this home is the pair's primary").register(registry);
        Gauge.builder("cleave_standby_shard_map_version", this, m -> m.replicatedMapVersion).tag("kind", "replicated")
                .description("the newest shard map version written for the standby on the default shard (as last read)")
                .register(registry);
        Gauge.builder("cleave_standby_shard_map_version", this, m -> m.routedMapVersion()).tag("kind", "routed")
                .description("the shard map version this home routes by").register(registry);
        task = scheduler.scheduleWithFixedDelay(this::poll, 0, 2, TimeUnit.SECONDS);
    }

    /** What the standby's proxy port does (its relay to the primary's proxy); null when it does not relay. */
    private volatile java.util.function.Supplier<io.cleave.manager.standby.relay.RelayReport> relay = () -> null;

    public void relay(java.util.function.Supplier<io.cleave.manager.standby.relay.RelayReport> relay) {
        this.relay = relay;
    }

    /** The report, or null when this home has no standby pair. */
    public StandbyReport report() {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null) {
            return null;
        }
        // Shards gone since the last reading (a scale down) are left out at once.
        java.util.Set<Integer> running = new java.util.HashSet<>();
        shards.get().forEach(e -> running.add(e.index()));
        List<ShardReplication> list = new ArrayList<>(last.values().stream().filter(r -> running.contains(r.shard())).toList());
        list.sort(java.util.Comparator.comparingInt(ShardReplication::shard));
        return new StandbyReport(state.role(), state.epoch(), state.role() == HostRole.PRIMARY ? "this host"
                : state.primary(), state.semiSync(), list, new StandbyReport.MapVersions(routedMapVersion(),
                replicatedMapVersion), relay.get(), state.role() == HostRole.PRIMARY ? standbyAdmin() : null);
    }

    private String standbyAdmin() {
        try {
            return PairPeer.of(home).map(PairPeer::url).orElse(null);
        } catch (RuntimeException e) {
            return null; // an unreadable token file: the status still answers
        }
    }

    private long routedMapVersion() {
        return java.nio.file.Files.exists(home.shardMapFile())
                ? new io.cleave.manager.home.ShardMapStore(home.shardMapFile()).read().version() : 0;
    }

    /** Reads every shard now (tests and the admin API use it to see a change at once). */
    public void poll() {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null) {
            return;
        }
        long mapVersion = 0;
        List<ShardEndpoint> now = shards.get();
        forgetGone(now);
        for (ShardEndpoint e : now) {
            try (Connection c = links.open(e.index())) {
                ShardReplication r = ReplicationProbe.read(e.index(), c, state.role());
                if (last.put(e.index(), r) == null) {
                    bind(e.index());
                }
                // Only the default shard holds rows: the newest of all is its.
                mapVersion = Math.max(mapVersion, io.cleave.manager.standby.layout.MapRows.newestVersion(c));
            } catch (SQLException ex) {
                log.debug("shard {}: replication not readable: {}", e.index(), ex.getMessage());
            }
        }
        replicatedMapVersion = mapVersion;
        if (state.role() == HostRole.STANDBY && !primarySemiSyncAsked && !last.isEmpty()
                && last.values().stream().allMatch(ShardReplication::replicating)) {
            askPrimaryForSemiSync(state);
        }
    }

    private void askPrimaryForSemiSync(StandbyState state) {
        try {
            String token = Files.readString(home.state().resolve(PRIMARY_TOKEN)).trim();
            AdminClient.remote(state.primary(), token).semiSync(true);
            primarySemiSyncAsked = true;
            StandbyState.file(home).save(state.withSemiSync(true));
            log.info("every replica runs: the primary at {} now waits for their acknowledgements (semi-sync)", state.primary());
        } catch (java.io.IOException | RuntimeException ex) {
            log.warn("could not turn semi-sync on at the primary {}: {}", state.primary(), ex.getMessage());
        }
    }

    /**
     * Drops what was read of shards that no longer run here (a scale down took them away, or this standby let go of
     * its replica of one): their last reading would show a replica or a primary shard that is gone as it was, or as
     * broken.
     */
    private void forgetGone(List<ShardEndpoint> now) {
        java.util.Set<Integer> running = new java.util.HashSet<>();
        now.forEach(e -> running.add(e.index()));
        for (Integer shard : List.copyOf(last.keySet())) {
            if (!running.contains(shard)) {
                last.remove(shard);
                for (String name : PER_SHARD) {
                    registry.find(name).tag("shard", String.valueOf(shard)).meters().forEach(registry::remove);
                }
            }
        }
    }

    private void bind(int shard) {
        String s = String.valueOf(shard);
        Gauge.builder(PER_SHARD.get(0), last, m -> value(m, shard, r -> r.lagSeconds()))
                .tag("shard", s).description("the replica's Seconds_Behind_Master; -1 when it cannot tell")
                .register(registry);
        Gauge.builder(PER_SHARD.get(1), last, m -> value(m, shard, r -> r.replicating() ? 1 : 0))
                .tag("shard", s).description("1 while the replica's IO and SQL threads both run").register(registry);
        Gauge.builder(PER_SHARD.get(2), last, m -> value(m, shard, r -> "ON".equals(r.semiSync()) ? 1 : 0))
                .tag("shard", s).description("1 while the shard's semi-sync is on (primary: waiting for acknowledgements;"
                        + " replica: acknowledging)").register(registry);
        Gauge.builder(PER_SHARD.get(3), last, m -> value(m, shard, r -> r.waitingCommits()))
                .tag("shard", s).description("commits waiting for the standby's acknowledgement (primary)").register(registry);
        Gauge.builder(PER_SHARD.get(4), last, m -> value(m, shard, r -> r.asyncCommits()))
                .tag("shard", s).description("commits answered without the standby's acknowledgement since the shard started"
                        + " (primary; stays 0: semi-sync never falls back)").register(registry);
        Gauge.builder(PER_SHARD.get(5), last, m -> value(m, shard, r -> r.tls() == null ? Double.NaN
                        : "verified".equals(r.tls()) ? 1 : 0))
                .tag("shard", s).description("1 while the replica's connection to its primary shard is TLS with the primary's"
                        + " certificate verified, 0 otherwise (standby)").register(registry);
    }

    private static double value(Map<Integer, ShardReplication> m, int shard,
                                java.util.function.ToDoubleFunction<ShardReplication> f) {
        ShardReplication r = m.get(shard);
        return r == null ? Double.NaN : f.applyAsDouble(r);
    }

    @Override
    public void close() {
        java.util.concurrent.ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }
}
