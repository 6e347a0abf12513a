package io.cleave.manager.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How a pair's daemon speaks TLS to etcd when its {@code coordination.etcd} URLs are https. Without a CA file the
 * JVM's default trust verifies the members; a client certificate and key go together, for etcd's
 * {@code --client-cert-auth}.
 *
 * @param caFile   PEM certificates that verify the members' certificates
 * @param certFile PEM client certificate (and any intermediates after it)
 * @param keyFile  the client certificate's unencrypted PEM key: PKCS#8, PKCS#1 (RSA) or SEC1 (EC)
 */
public record EtcdTls(Optional<Path> caFile, Optional<Path> certFile, Optional<Path> keyFile) {

    /** Plain http: the URLs are http and nothing TLS is configured. */
    public static final EtcdTls NONE = new EtcdTls(Optional.empty(), Optional.empty(), Optional.empty());

    public boolean presentsClientCertificate() {
        return certFile.isPresent() && keyFile.isPresent();
    }
}
