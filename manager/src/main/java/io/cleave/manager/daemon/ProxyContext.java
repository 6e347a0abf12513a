package io.cleave.manager.daemon;

import io.cleave.manager.config.ProxyConfig;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;
import io.micrometer.core.instrument.MeterRegistry;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything the daemon hands the proxy when it starts it.
 *
 * @param proxy         the proxy section of the config (listen address, socket, users, TLS, limits)
 * @param shards        one endpoint per shard, index order
 * @param meterRegistry the daemon's registry, scraped at /metrics: register proxy meters here
 * @param stateDir      the home's private state directory (a generated TLS pair goes here)
 * @param runDir        the home's run directory (the default Unix socket goes here)
 * @param schemaDrift   where structure changes that applied on some shards only are recorded
 * @param refusedDatabaseDropped told (on an event loop) of a database the shard map refused that a client dropped
 */
public record ProxyContext(ProxyConfig proxy, Topology topology, ShardMapHolder shardMaps, List<ShardEndpoint> shards,
                           InstanceEvents instanceEvents, MeterRegistry meterRegistry, Path stateDir, Path runDir,
                           io.cleave.proxy.server.SchemaDriftLog schemaDrift,
                           java.util.function.Consumer<String> refusedDatabaseDropped) {

    public ProxyContext {
        shards = List.copyOf(shards);
    }
}
