package io.cleave.proxy.server;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Which shards the proxy believes are down (not started, crashed, restarting), as the daemon's
 * supervisor reports them. Only statements that any shard could answer use it, to avoid a shard
 * that cannot answer; a statement that needs a down shard still goes there and gets its error.
 */
public final class ShardAvailability {

    private final AtomicIntegerArray down;

    ShardAvailability(int shards) {
        this.down = new AtomicIntegerArray(shards);
    }

    public boolean isUp(int shard) {
        return down.get(shard) == 0;
    }

    void markDown(int shard) {
        down.set(shard, 1);
    }

    void markUp(int shard) {
        down.set(shard, 0);
    }
}
