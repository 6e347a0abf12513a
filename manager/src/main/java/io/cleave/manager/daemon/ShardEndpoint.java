package io.cleave.manager.daemon;

import java.nio.file.Path;

/**
 * How to reach one shard: its Unix socket (preferred, local) or loopback TCP port, with the shard
 * account that has all privileges on it.
 */
public record ShardEndpoint(int index, String name, Path socket, String host, int port, String user, String secret) {
}
