package io.cleave.proxy.server;

import io.cleave.proxy.backend.BackendConnector;
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
    private final ShardSlots slots;
    private final int perLoopLimit;
    private final int pipelineDepth;
    private final long acquireTimeoutMillis;
    private final PoolMetrics metrics;
    private final io.cleave.router.shardmap.ShardMapHolder maps;
    private final io.cleave.proxy.backend.ShardLogins logins;
    /** By shard index; made when a shard is first used, made again when its slot got another connector. */
    private final BackendPool[] pools = new BackendPool[ShardSlots.CAPACITY];
    private final io.cleave.router.plan.Analysis analysis = new io.cleave.router.plan.Analysis();
    private byte[] sqlBuffer = new byte[1024];
    private final ShardAvailability availability;
    private int nextAnyShard;

    LoopResources(EventLoop loop, ShardSlots slots, int perLoopLimit, int pipelineDepth, long acquireTimeoutMillis,
                  PoolMetrics metrics, ShardAvailability availability, io.cleave.router.shardmap.ShardMapHolder maps,
                  io.cleave.proxy.backend.ShardLogins logins) {
        this.logins = logins;
        this.loop = loop;
        this.slots = slots;
        this.perLoopLimit = perLoopLimit;
        this.pipelineDepth = pipelineDepth;
        this.acquireTimeoutMillis = acquireTimeoutMillis;
        this.metrics = metrics;
        this.availability = availability;
        this.maps = maps;
        loop.scheduleAtFixedRate(() -> {
            for (BackendPool pool : pools) {
                if (pool != null) {
                    pool.evictIdle(MAX_IDLE_NANOS);
                }
            }
        }, 1, 1, TimeUnit.MINUTES);
    }

    public EventLoop loop() {
        return loop;
    }

    /**
     * The loop's pool for {@code shard}; on the loop's thread. A shard that is gone (or never was)
     * gets a pool whose connections fail, naming it.
     */
    public BackendPool pool(int shard) {
        BackendPool pool = pools[shard];
        ShardConnector connector = slots.get(shard);
        if (pool != null && (connector == null || pool.connector() == connector)) {
            return pool;
        }
        if (pool != null) {
            // The slot has another connector now (a shard was removed and another took its index).
            pool.close();
        }
        if (connector == null) {
            connector = BackendConnector.missing(shard);
        }
        pool = new BackendPool(loop, connector, perLoopLimit, acquireTimeoutMillis, metrics, pipelineDepth, logins);
        pools[shard] = pool;
        return pool;
    }

    /** The pools the loop has made so far (on the loop's thread). */
    public java.util.List<BackendPool> existingPools() {
        java.util.List<BackendPool> out = new java.util.ArrayList<>();
        for (BackendPool p : pools) {
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    /** The loop's pool for {@code shard} if it has one (for gauges; any thread). */
    BackendPool existingPool(int shard) {
        return pools[shard];
    }

    /** Closes the loop's pool for {@code shard}: it left (idle connections close, busy ones when released). */
    void dropPool(int shard) {
        BackendPool pool = pools[shard];
        if (pool != null) {
            pools[shard] = null;
            pool.close();
        }
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
        int shards = maps.current().shardCount();
        for (int tried = 0; tried < shards; tried++) {
            int s = nextAnyShard % shards;
            nextAnyShard = (s + 1) % shards;
            if (availability.isUp(s)) {
                return s;
            }
        }
        return nextAnyShard % shards;
    }

    void close() {
        for (BackendPool pool : pools) {
            if (pool != null) {
                pool.close();
            }
        }
    }
}
