package io.cleave.manager.config;

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
 * Certificates and private keys in PEM files, read so that a bad file is named with what is wrong with it (at
 * config load, and again where they are used). Every unencrypted key form openssl writes is read: PKCS#8
 * ({@code BEGIN PRIVATE KEY}), PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) and SEC1 ({@code BEGIN EC PRIVATE KEY}).
 * Each failure is an {@link IllegalArgumentException} whose message starts with the file.
 */
public final class PemFiles {

    private PemFiles() {
    }

    /** Every certificate in {@code file}, in order; at least one. */
    public static X509Certificate[] certificates(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            X509Certificate[] certs = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
            if (certs.length == 0) {
                throw new IllegalArgumentException(file + " holds no certificate: expected PEM"
                        + " (-----BEGIN CERTIFICATE-----)");
            }
            return certs;
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage(), e);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(file + " holds no certificate: expected PEM"
                    + " (-----BEGIN CERTIFICATE-----): " + e.getMessage(), e);
        }
    }

    /** The first private key in {@code file}, which must not be encrypted. */
    public static PrivateKey privateKey(Path file) {
        Object pem;
        try (Reader reader = Files.newBufferedReader(file); PEMParser parser = new PEMParser(reader)) {
            pem = parser.readObject();
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " cannot be read as PEM: " + e.getMessage(), e);
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
            throw new IllegalArgumentException(file + " holds a key Java cannot use: " + e.getMessage(), e);
        }
        if (pem instanceof PEMEncryptedKeyPair || pem instanceof PKCS8EncryptedPrivateKeyInfo) {
            throw new IllegalArgumentException(file + " is encrypted: expected an unencrypted key (openssl pkey -in"
                    + " KEY -out PLAIN.pem), readable by the daemon's user only");
        }
        throw new IllegalArgumentException(file + " holds no private key: expected PEM (BEGIN PRIVATE KEY, BEGIN RSA"
                + " PRIVATE KEY or BEGIN EC PRIVATE KEY)");
    }
}
