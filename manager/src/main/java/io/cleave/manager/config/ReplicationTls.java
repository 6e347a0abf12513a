package io.cleave.manager.config;

import java.util.Locale;
import java.util.Optional;

/**
 * {@code server.replication_tls}: whether a standby pair's replication between this home's shards and the other
 * home's travels over TLS. {@link #REQUIRED}: this home's shards offer TLS with a certificate of their own, the
 * replication account logs in only over TLS, and a replica here verifies the other home's shard certificate (and
 * refuses a primary whose shards offer none). {@link #OFF}: the shards run without TLS. The default is
 * {@link #REQUIRED} when the shards listen beyond loopback (another host reaches them), else {@link #OFF}.
 */
public enum ReplicationTls {
    REQUIRED,
    OFF;

    /** The default for shards bound to {@code shardBind} ({@code server.bind_address}). */
    public static ReplicationTls defaultFor(String shardBind) {
        return ListenAddresses.isLoopback(shardBind) ? OFF : REQUIRED;
    }

    /**
     * The setting as written in a config; {@code false} too, which is how a YAML 1.1 writer (SnakeYAML) dumps an
     * unquoted {@code off} it read as a boolean.
     */
    public static Optional<ReplicationTls> parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "required" -> Optional.of(REQUIRED);
            case "off", "false" -> Optional.of(OFF);
            default -> Optional.empty();
        };
    }

    /** As written in a config. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
