package io.cleave.manager.config;

import java.util.Map;

/**
 * How the shard servers run.
 *
 * @param binary   the mysqld/mariadbd to run: {@code auto}, {@code embedded} or a path
 * @param basePort shard i listens on loopback port {@code basePort + i}
 * @param options  extra my.cnf options appended to every shard's [mysqld] section
 */
public record ServerConfig(ServerChoice binary, int basePort, Map<String, String> options) {

    public static final int DEFAULT_BASE_PORT = 3307;

    public ServerConfig {
        options = Map.copyOf(options);
    }
}
