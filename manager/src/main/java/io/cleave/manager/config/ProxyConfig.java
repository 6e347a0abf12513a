package io.cleave.manager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The client-facing MySQL endpoint. */
public record ProxyConfig(HostPort listen, int maxBackendConnectionsPerShard, Optional<Path> tlsCert,
                          Optional<Path> tlsKey, List<ProxyUser> users) {

    public ProxyConfig {
        users = List.copyOf(users);
    }
}
