package io.cleave.manager.coordination;

import io.cleave.manager.config.EtcdTls;
import io.cleave.manager.config.PemFiles;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * The TLS side of a pair's etcd client, from {@link EtcdTls}: the CA that verifies the members (else the JVM's
 * default trust) and the client certificate for etcd's {@code --client-cert-auth}. The members' names are checked
 * against their certificates by gRPC (the address each URL names, IP or DNS, against the SAN).
 * <p>
 * The files are read by {@link PemFiles} rather than by Netty so that a bad one is named with what is wrong with
 * it, and so that every unencrypted PEM key form openssl writes works.
 */
final class EtcdSslContext {

    private EtcdSslContext() {
    }

    /** The client's SslContext; an {@link IllegalArgumentException} naming the file when one cannot be used. */
    static SslContext of(EtcdTls tls) {
        SslContextBuilder builder = GrpcSslContexts.forClient();
        if (tls.caFile().isPresent()) {
            builder.trustManager(certificates(tls.caFile().get(), "coordination.ca_file"));
        }
        if (tls.presentsClientCertificate()) {
            builder.keyManager(privateKey(tls.keyFile().get()), certificates(tls.certFile().get(), "coordination.cert_file"));
        }
        try {
            return builder.build();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot set up TLS to etcd: " + e.getMessage(), e);
        }
    }

    /** The certificates in {@code file}; a failure names the config key ({@code coordination.ca_file}) first. */
    static X509Certificate[] certificates(Path file, String key) {
        try {
            return PemFiles.certificates(file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(Path file) {
        try {
            return PemFiles.privateKey(file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("coordination.key_file: " + e.getMessage(), e);
        }
    }
}
