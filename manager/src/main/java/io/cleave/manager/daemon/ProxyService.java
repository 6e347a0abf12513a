package io.cleave.manager.daemon;

/**
 * The client-facing proxy as the daemon runs it: started once every shard answers queries,
 * closed before the shards are stopped.
 */
public interface ProxyService extends AutoCloseable {

    /** Binds the listen address and starts serving; throws when it cannot (the daemon then stops). */
    void start() throws Exception;

    /** A short description for status, e.g. "listening on 127.0.0.1:6033". */
    String describe();

    /** Stops accepting clients and closes their sessions and backend connections. */
    @Override
    void close();
}
