package io.cleave.manager.daemon;

/**
 * Where the daemon's parts learn of shards that come and go while it runs: a shard a scale adds or
 * removes, the server an import attaches and detaches. The mover's connections and the proxy's
 * backends follow; the shard map names a shard only between {@link #add} and {@link #remove}.
 */
public interface ShardRegistry {

    /** Reaches {@code shard} from now on (mover and proxy); for a local shard, the proxy's own tables are created there. */
    void add(ShardEndpoint shard);

    /** Forgets {@code shard}: its pooled connections close, the next statement naming it fails. */
    void remove(int shard);

    /** Proxy connections to {@code shard} that statements or transactions hold now (0 when no proxy runs). */
    int connectionsInUse(int shard);
}
