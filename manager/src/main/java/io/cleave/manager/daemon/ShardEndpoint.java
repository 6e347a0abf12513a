package io.cleave.manager.daemon;

import java.nio.file.Path;

/**
 * How to reach one shard: its Unix socket (preferred, local) or loopback TCP port, with the shard
 * account that has all privileges on it; or a server attached for an import (TCP, the account the
 * operator gave, no socket). {@link #toString()} leaves the secret out: endpoints appear in logs.
 *
 * @param attached a server Cleave does not run (an import's source)
 */
public record ShardEndpoint(int index, String name, Path socket, String host, int port, String user, String secret,
                            boolean attached) {

    /** A local shard. */
    public ShardEndpoint(int index, String name, Path socket, String host, int port, String user, String secret) {
        this(index, name, socket, host, port, user, secret, false);
    }

    /** This endpoint reached at {@code host} (the address another host uses) instead. */
    public ShardEndpoint withHost(String host) {
        return new ShardEndpoint(index, name, socket, host, port, user, secret, attached);
    }

    @Override
    public String toString() {
        return name + " (" + (socket != null ? socket : host + ":" + port) + ", user " + user + ")";
    }
}
