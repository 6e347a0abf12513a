package io.cleave.manager.coordination;

import io.cleave.manager.config.EtcdTls;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * The TLS side of a pair's etcd client, from {@link EtcdTls}: the CA that verifies the members (else the JVM's
 * default trust) and the client certificate for etcd's {@code --client-cert-auth}. The members' names are checked
 * against their certificates by gRPC (the address each URL names, IP or DNS, against the SAN).
 * <p>
 * The files are read here rather than by Netty so that a bad one is named with what is wrong with it, and so that
 * every unencrypted PEM key openssl writes works: PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}) and SEC1 ({@code BEGIN EC PRIVATE KEY}).
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

    static X509Certificate[] certificates(Path file, String key) {
        try (InputStream in = Files.newInputStream(file)) {
            X509Certificate[] certs = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
            if (certs.length == 0) {
                throw new IllegalArgumentException(key + ": " + file + " holds no certificate: expected PEM"
                        + " (-----BEGIN CERTIFICATE-----)");
            }
            return certs;
        } catch (IOException e) {
            throw new IllegalArgumentException(key + ": cannot read " + file + ": " + e.getMessage(), e);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(key + ": " + file + " is not a PEM certificate: " + e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(Path file) {
        Object pem;
        try (Reader reader = Files.newBufferedReader(file); PEMParser parser = new PEMParser(reader)) {
            pem = parser.readObject();
        } catch (IOException e) {
            throw new IllegalArgumentException("coordination.key_file: cannot read " + file + " as PEM: " + e.getMessage(), e);
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try {
            if (pem instanceof PrivateKeyInfo pkcs8) {
                return converter.getPrivateKey(pkcs8);
            }
            if (pem instanceof PEMKeyPair pair) {
                // The private part alone: a SEC1 key may come without its public key.
                return converter.getPrivateKey(pair.getPrivateKeyInfo());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("coordination.key_file: " + file + " holds a key Java cannot use: "
                    + e.getMessage(), e);
        }
        if (pem instanceof PEMEncryptedKeyPair || pem instanceof PKCS8EncryptedPrivateKeyInfo) {
            throw new IllegalArgumentException("coordination.key_file: " + file + " is encrypted: expected an"
                    + " unencrypted key (openssl pkey -in KEY -out PLAIN.pem), readable by the daemon's user only");
        }
        throw new IllegalArgumentException("coordination.key_file: " + file + " holds no private key: expected PEM"
                + " (BEGIN PRIVATE KEY, BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)");
    }
}
