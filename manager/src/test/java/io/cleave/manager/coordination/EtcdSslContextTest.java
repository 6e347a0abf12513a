package io.cleave.manager.coordination;

import io.cleave.manager.config.EtcdTls;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client key in each PEM form openssl writes, and the files that cannot be used, named. */
class EtcdSslContextTest {

    @Test
    void readsPkcs8Pkcs1AndSec1Keys(@TempDir Path dir) throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair rsaPair = rsa.generateKeyPair();
        // Bouncy Castle's EC keys carry their curve in the SEC1 structure, as openssl ecparam -genkey writes it.
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC", new BouncyCastleProvider());
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ecPair = ec.generateKeyPair();

        Path pkcs8 = Files.writeString(dir.resolve("pkcs8.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(rsaPair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        Path pkcs1 = Files.writeString(dir.resolve("pkcs1.pem"), traditional(rsaPair.getPrivate()));
        Path sec1 = Files.writeString(dir.resolve("sec1.pem"), traditional(ecPair.getPrivate()));
        assertThat(Files.readString(pkcs1)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(Files.readString(sec1)).startsWith("-----BEGIN EC PRIVATE KEY-----");

        RSAPrivateKey rsaKey = (RSAPrivateKey) rsaPair.getPrivate();
        assertThat(((RSAPrivateKey) EtcdSslContext.privateKey(pkcs8)).getPrivateExponent())
                .isEqualTo(rsaKey.getPrivateExponent());
        assertThat(((RSAPrivateKey) EtcdSslContext.privateKey(pkcs1)).getPrivateExponent())
                .isEqualTo(rsaKey.getPrivateExponent());
        assertThat(((ECPrivateKey) EtcdSslContext.privateKey(sec1)).getS())
                .isEqualTo(((ECPrivateKey) ecPair.getPrivate()).getS());
    }

    @Test
    void refusesEncryptedKeysAndFilesWithoutAKeyOrCertificate(@TempDir Path dir) throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(ec.generateKeyPair().getPrivate(),
                    new JcePEMEncryptorBuilder("AES-128-CBC").setProvider(new BouncyCastleProvider()).build("secret".toCharArray()));
        }
        Path encrypted = Files.writeString(dir.resolve("encrypted.pem"), text.toString());
        assertThatThrownBy(() -> EtcdSslContext.privateKey(encrypted)).hasMessageContaining("coordination.key_file")
                .hasMessageContaining(encrypted + " is encrypted: expected an unencrypted key");

        Path notPem = Files.writeString(dir.resolve("notes.txt"), "not a key\n");
        assertThatThrownBy(() -> EtcdSslContext.privateKey(notPem))
                .hasMessageContaining(notPem + " holds no private key: expected PEM");
        assertThatThrownBy(() -> EtcdSslContext.certificates(notPem, "coordination.ca_file"))
                .hasMessageStartingWith("coordination.ca_file: " + notPem);
        Path empty = Files.writeString(dir.resolve("empty.pem"), "");
        assertThatThrownBy(() -> EtcdSslContext.certificates(empty, "coordination.cert_file"))
                .hasMessageContaining("coordination.cert_file: " + empty + " holds no certificate");
    }

    @Test
    void withoutFilesTheJvmsDefaultTrustVerifiesTheMembers() {
        assertThat(EtcdSslContext.of(EtcdTls.NONE).isClient()).isTrue();
    }

    /** PKCS#1 for RSA, SEC1 for EC: what openssl's genrsa (before 3.0) and ecparam -genkey write. */
    private static String traditional(PrivateKey key) throws Exception {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(key);
        }
        return text.toString();
    }
}
