package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;

import java.util.Map;

/**
 * What every instance's choices depend on beyond the instance itself.
 *
 * @param serverUser  the OS user the servers run as (the daemon is root), or null: the daemon's own
 * @param files       the servers' secure_file_priv directory
 * @param dataSharing how many instances keep their datadir on each device (by device name): they share its io capacity
 * @param tlsCertificate the shards' TLS certificate file, offered when {@code server.replication_tls} is required
 * @param tlsKey      its private key
 */
record PlanContext(CleaveConfig config, ServerBinary binary, String serverUser, java.nio.file.Path files,
                   Map<String, Integer> dataSharing, java.nio.file.Path tlsCertificate, java.nio.file.Path tlsKey) {

    Flavour flavour() {
        return binary.flavour();
    }

    ServerVersion version() {
        return binary.version();
    }

    boolean mariadb() {
        return binary.flavour() == Flavour.MARIADB;
    }

    String server() {
        return binary.flavour().displayName() + " " + binary.version();
    }
}
