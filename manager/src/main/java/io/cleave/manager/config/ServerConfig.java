package io.cleave.manager.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * How the shard servers run.
 *
 * @param binary   the mysqld/mariadbd to run; empty means {@code auto} (PATH, then the embedded server)
 * @param basePort shard i listens on loopback port {@code basePort + i}
 * @param options  extra my.cnf options appended to every shard's [mysqld] section
 */
public record ServerConfig(Optional<Path> binary, int basePort, Map<String, String> options) {

    public static final int DEFAULT_BASE_PORT = 3307;

    public ServerConfig {
        options = Map.copyOf(options);
    }
}
