package io.cleave.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;

/**
 * Opens logged-in connections to one shard for the backend pools: {@link BackendConnector} over a
 * socket to a real server; in tests, a scripted shard.
 */
public interface ShardConnector {

    ShardEndpoint endpoint();

    /**
     * A connection logged in as {@code login}'s account, its responses shaped for clients of its
     * profile, on {@code loop}; {@code generation}: of the grant tables it logs in under (see
     * {@link ShardLogins#generation()}).
     */
    Future<BackendConnection> connect(EventLoop loop, ShardLogin login, int generation);
}
