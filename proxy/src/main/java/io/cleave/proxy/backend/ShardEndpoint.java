package io.cleave.proxy.backend;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * How to reach one shard: its Unix socket when local (preferred: no TCP stack, and the socket
 * counts as a secure transport for caching_sha2_password), else TCP; and the proxy's account.
 *
 * @param attached a server Cleave does not run (an import's source): the proxy keeps nothing of its
 *                 own there (no tables of its own, no XA decisions) and recovery does not look there
 */
public record ShardEndpoint(int shard, Path socket, InetSocketAddress tcp, String user, byte[] password,
                            boolean attached) {

    public ShardEndpoint {
        if (socket == null && tcp == null) {
            throw new IllegalArgumentException("shard " + shard + " needs a socket path or a TCP address");
        }
    }

    /** A local shard. */
    public ShardEndpoint(int shard, Path socket, InetSocketAddress tcp, String user, byte[] password) {
        this(shard, socket, tcp, user, password, false);
    }

    public String describe() {
        return (attached ? "attached server " : "shard ") + shard + " (" + (socket != null ? socket : tcp) + ")";
    }
}
