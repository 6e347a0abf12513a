package io.cleave.proxy.server;

import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.PoolMetrics;
import io.cleave.proxy.backend.ShardConnector;
import io.netty.channel.EventLoop;

import java.util.concurrent.TimeUnit;

/**
 * What one event loop owns: a backend pool per shard. Clients served by the loop borrow from
 * these pools, so a statement's whole way through stays on one thread.
 */
public final class LoopResources {

    private static final long MAX_IDLE_NANOS = TimeUnit.MINUTES.toNanos(5);
    private static final int MAX_REUSED_SQL = 1 << 20;

    private final EventLoop loop;
    private final BackendPool[] pools;
    private final io.cleave.router.plan.Analysis analysis = new io.cleave.router.plan.Analysis();
    private byte[] sqlBuffer = new byte[1024];
    private final ShardAvailability availability;
    private int nextAnyShard;

    LoopResources(EventLoop loop, ShardConnector[] connectors, int perLoopLimit, long acquireTimeoutMillis,
                  PoolMetrics metrics, ShardAvailability availability) {
        this.loop = loop;
        this.availability = availability;
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

    /**
     * The loop's router buffers. Valid only until the next statement on this loop is analyzed:
     * whatever a statement needs from its analysis is taken before anything asynchronous happens.
     */
    public io.cleave.router.plan.Analysis analysis() {
        return analysis;
    }

    /** A byte array of at least {@code length} for statement text, reused (same lifetime as {@link #analysis()}). */
    public byte[] sqlBuffer(int length) {
        if (length > MAX_REUSED_SQL) {
            // A rare huge statement (a large literal) is not worth keeping its buffer for.
            return new byte[length];
        }
        if (sqlBuffer.length < length) {
            sqlBuffer = new byte[Math.max(length, sqlBuffer.length * 2)];
        }
        return sqlBuffer;
    }

    /**
     * Round robin over the shards for statements any shard can answer, so no shard gets them all;
     * shards known to be down are skipped while another one is up.
     */
    public int nextAnyShard() {
        for (int tried = 0; tried < pools.length; tried++) {
            int s = nextAnyShard;
            nextAnyShard = (s + 1) % pools.length;
            if (availability.isUp(s)) {
                return s;
            }
        }
        return nextAnyShard;
    }

    void close() {
        for (BackendPool pool : pools) {
            pool.close();
        }
    }
}
