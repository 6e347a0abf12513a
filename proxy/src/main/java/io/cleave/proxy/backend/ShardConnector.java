package io.cleave.proxy.backend;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;

/**
 * Opens logged-in connections to one shard for the backend pools: {@link BackendConnector} over a
 * socket to a real server; in tests, a scripted shard.
 */
public interface ShardConnector {

    ShardEndpoint endpoint();

    /** A connection whose responses are shaped for clients of {@code profile}, on {@code loop}. */
    Future<BackendConnection> connect(EventLoop loop, int profile);
}
