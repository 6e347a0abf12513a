package io.cleave.manager.move;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;

import java.util.function.UnaryOperator;

/**
 * The one way moves change the shard map: the next version is written durably to
 * {@code state/shard-map.json} first, then published to the routers. A crash between the two
 * leaves the file ahead, which the next start reads. A standby pair's primary also writes each version
 * where replication carries it ({@link #beforePublish}) before publishing it.
 */
public final class MapUpdates {

    private final ShardMapHolder holder;
    private final ShardMapStore store;
    private final Topology topology;
    private volatile BeforePublish beforePublish = BeforePublish.NONE;

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
        try {
            beforePublish.written(current, next);
        } catch (RuntimeException e) {
            // Routers keep the current version: so must the file, or the next start would route by one never used.
            store.save(current, topology);
            throw e;
        }
        holder.publish(next);
        return next;
    }

    /**
     * Makes {@code newer}, a version that did not follow from the current one here (a promoted standby's
     * primary wrote it), current: written durably, then published.
     */
    public synchronized void adopt(ShardMap newer) {
        if (newer.version() <= holder.current().version()) {
            throw new IllegalStateException("shard map version " + newer.version() + " is not newer than "
                    + holder.current().version());
        }
        store.save(newer, topology);
        holder.adopt(newer);
    }

    /**
     * Runs {@code hook} with every version once it is written to the state and before routers see it
     * (a standby pair's primary replicates it there); a failure fails the update, nothing published.
     */
    public void beforePublish(BeforePublish hook) {
        this.beforePublish = hook;
    }

    /** What must hold a version before routers follow it. */
    @FunctionalInterface
    public interface BeforePublish {
        BeforePublish NONE = (current, next) -> {
        };

        /** Called with the version routers follow now and the next one; throws when {@code next} must not be published. */
        void written(ShardMap current, ShardMap next);
    }
}
