package io.cleave.proxy.server;

import io.cleave.proxy.backend.BackendConnector;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.PoolMetrics;
import io.netty.channel.EventLoop;

import java.util.concurrent.TimeUnit;

/**
 * What one event loop owns: a backend pool per shard. Clients served by the loop borrow from
 * these pools, so a statement's whole way through stays on one thread.
 */
public final class LoopResources {

    private static final long MAX_IDLE_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final EventLoop loop;
    private final BackendPool[] pools;

    LoopResources(EventLoop loop, BackendConnector[] connectors, int perLoopLimit, long acquireTimeoutMillis,
                  PoolMetrics metrics) {
        this.loop = loop;
        this.pools = new BackendPool[connectors.length];
        for (int s = 0; s < connectors.length; s++) {
            pools[s] = new BackendPool(loop, connectors[s], perLoopLimit, acquireTimeoutMillis, metrics);
        }
        loop.scheduleAtFixedRate(() -> {
            for (BackendPool pool : pools) {
                pool.evictIdle(MAX_IDLE_NANOS);
            }
        }, 1, 1, TimeUnit.MINUTES);
    }

    public EventLoop loop() {
        return loop;
    }

    public BackendPool pool(int shard) {
        return pools[shard];
    }

    public int shardCount() {
        return pools.length;
    }

    void close() {
        for (BackendPool pool : pools) {
            pool.close();
        }
    }
}
