package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Capabilities;

/** What a shard said about itself in its handshake. */
public record ServerInfo(String version, Capabilities capabilities, int defaultCollation) {

    public boolean isMariaDb() {
        return version.contains("MariaDB");
    }
}
