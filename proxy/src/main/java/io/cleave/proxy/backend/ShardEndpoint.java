package io.cleave.proxy.backend;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * How to reach one shard: its Unix socket when local (preferred: no TCP stack, and the socket
 * counts as a secure transport for caching_sha2_password), else TCP; and the proxy's account.
 */
public record ShardEndpoint(int shard, Path socket, InetSocketAddress tcp, String user, byte[] password) {

    public ShardEndpoint {
        if (socket == null && tcp == null) {
            throw new IllegalArgumentException("shard " + shard + " needs a socket path or a TCP address");
        }
    }

    public String describe() {
        return "shard " + shard + " (" + (socket != null ? socket : tcp) + ")";
    }
}
