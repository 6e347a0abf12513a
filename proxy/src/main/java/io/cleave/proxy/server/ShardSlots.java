package io.cleave.proxy.server;

import io.cleave.proxy.backend.ShardConnector;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The shards the proxy can reach, by index: local shards and servers attached for an import. Shards
 * come and go while clients are served ({@code cleave scale}, an import's source attached and then
 * detached), so every per-shard array of the proxy is sized by {@link #CAPACITY} once and a slot's
 * connector is looked up each time; a connector replaced in a slot tells the loops' pools to start
 * afresh (see {@link LoopResources#pool}).
 */
public final class ShardSlots {

    /** Most shards (local and attached) one proxy serves. */
    public static final int CAPACITY = 128;

    private final AtomicReferenceArray<ShardConnector> connectors = new AtomicReferenceArray<>(CAPACITY);

    /** Slots holding {@code connectors} by their endpoints' shard numbers (flow tests over scripted shards). */
    public static ShardSlots of(ShardConnector... connectors) {
        ShardSlots slots = new ShardSlots();
        for (ShardConnector c : connectors) {
            slots.set(c.endpoint().shard(), c);
        }
        return slots;
    }

    /** The connector of {@code shard}, or null when no shard has that index now. */
    public ShardConnector get(int shard) {
        return shard >= 0 && shard < CAPACITY ? connectors.get(shard) : null;
    }

    void set(int shard, ShardConnector connector) {
        if (shard < 0 || shard >= CAPACITY) {
            throw new IllegalArgumentException("shard " + shard + " is beyond the " + CAPACITY + " shards a proxy serves");
        }
        connectors.set(shard, connector);
    }

    void clear(int shard) {
        connectors.set(shard, null);
    }

    /** One more than the highest index in use. */
    public int extent() {
        for (int s = CAPACITY - 1; s >= 0; s--) {
            if (connectors.get(s) != null) {
                return s + 1;
            }
        }
        return 0;
    }

    /** Whether {@code shard} is in use and local (not an attached server). */
    public boolean isLocal(int shard) {
        ShardConnector c = get(shard);
        return c != null && !c.endpoint().attached();
    }
}
