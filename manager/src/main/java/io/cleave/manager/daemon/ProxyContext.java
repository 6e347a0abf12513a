package io.cleave.manager.daemon;

import io.cleave.manager.config.HostPort;
import io.cleave.manager.config.ProxyUser;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;
import io.micrometer.core.instrument.MeterRegistry;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything the daemon hands the proxy when it starts it.
 *
 * @param tlsCert      PEM certificate from the config; empty means generate a self-signed one
 *                     (keep it under {@code stateDir})
 * @param shards       one endpoint per shard, index order
 * @param meterRegistry the daemon's registry, scraped at /metrics: register proxy meters here
 * @param stateDir     the home's private state directory
 */
public record ProxyContext(HostPort listen, List<ProxyUser> users, Optional<Path> tlsCert, Optional<Path> tlsKey,
                           int maxBackendConnectionsPerShard, Topology topology, ShardMapHolder shardMaps,
                           List<ShardEndpoint> shards, InstanceEvents instanceEvents, MeterRegistry meterRegistry,
                           Path stateDir) {

    public ProxyContext {
        users = List.copyOf(users);
        shards = List.copyOf(shards);
    }
}
