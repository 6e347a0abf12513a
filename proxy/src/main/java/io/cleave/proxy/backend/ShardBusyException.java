package io.cleave.proxy.backend;

/** No backend connection to a shard became free within the acquire timeout. */
public final class ShardBusyException extends RuntimeException {

    public ShardBusyException(int shard, long waitedMillis, int limit) {
        super("shard " + shard + " is saturated: no backend connection became free within " + waitedMillis
                + " ms (at most " + limit + " per shard on this proxy thread; raise"
                + " proxy.max_backend_connections_per_shard or proxy.backend_wait_timeout_ms, or lower the client"
                + " concurrency)");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
