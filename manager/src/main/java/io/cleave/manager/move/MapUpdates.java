package io.cleave.manager.move;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;

import java.util.function.UnaryOperator;

/**
 * The one way moves change the shard map: the next version is written durably to
 * {@code state/shard-map.json} first, then published to the routers. A crash between the two
 * leaves the file ahead, which the next start reads.
 */
public final class MapUpdates {

    private final ShardMapHolder holder;
    private final ShardMapStore store;
    private final Topology topology;

    public MapUpdates(ShardMapHolder holder, ShardMapStore store, Topology topology) {
        this.holder = holder;
        this.store = store;
        this.topology = topology;
    }

    public ShardMap current() {
        return holder.current();
    }

    /** The configured routing model (keyspaces and their functions, the config's table rules). */
    public Topology topology() {
        return topology;
    }

    /** The routing model now: the config's with the map's rules and shard count over it. */
    public Topology routing() {
        return holder.current().routing(topology);
    }

    /** Writes and publishes {@code change} of the current map as the next version. */
    public synchronized ShardMap update(UnaryOperator<ShardMap> change) {
        ShardMap current = holder.current();
        ShardMap next = change.apply(current).asVersion(current.version() + 1);
        store.save(next, topology);
        holder.publish(next);
        return next;
    }
}
