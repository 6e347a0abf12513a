package io.cleave.manager.config;

import java.util.Map;

/**
 * How the shard servers run.
 *
 * @param binary   the mysqld/mariadbd to run: {@code auto}, {@code embedded} or a path
 * @param basePort shard i listens on loopback port {@code basePort + i}
 * @param options  extra my.cnf options appended to every shard's [mysqld] section
 * @param osUser   the OS user the shards run as when the daemon runs as root ({@code os_user}; made
 *                 when missing; {@code root} keeps them root); a daemon of another user runs them as itself
 * @param serverIdBase shard i has {@code server_id = serverIdBase + i}; a standby home takes another base than
 *                 its primary's, as replication skips events that carry the replica's own server_id
 */
public record ServerConfig(ServerChoice binary, int basePort, Map<String, String> options, String osUser,
                           int serverIdBase) {

    public static final int DEFAULT_BASE_PORT = 3307;
    public static final String DEFAULT_OS_USER = "cleave";
    public static final int DEFAULT_SERVER_ID_BASE = 1000;

    public ServerConfig {
        options = Map.copyOf(options);
    }

    public ServerConfig(ServerChoice binary, int basePort, Map<String, String> options, String osUser) {
        this(binary, basePort, options, osUser, DEFAULT_SERVER_ID_BASE);
    }

    public ServerConfig(ServerChoice binary, int basePort, Map<String, String> options) {
        this(binary, basePort, options, DEFAULT_OS_USER);
    }
}
