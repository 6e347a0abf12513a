package io.cleave.manager.config;

import io.cleave.router.topology.Topology;

import java.util.HashMap;
import java.util.Map;

/**
 * The routing model of a config: the router's topology, plus for each keyspace whose config says
 * which shard holds which range, that assignment (bucket -> shard). Keyspaces absent from
 * {@code explicitAssignments} are spread evenly by {@code ShardMap.initial}.
 */
public record ShardingConfig(Topology topology, Map<String, int[]> explicitAssignments) {

    public ShardingConfig {
        Map<String, int[]> copy = new HashMap<>();
        explicitAssignments.forEach((k, v) -> copy.put(k, v.clone()));
        explicitAssignments = Map.copyOf(copy);
    }
}
