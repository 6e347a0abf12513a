package io.cleave.proxy.auth;

import javax.crypto.Cipher;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * The RSA side of caching_sha2_password full authentication without TLS: the server hands out a
 * PEM public key, the client encrypts (password XOR scramble) with OAEP padding (PKCS#1 v1.5 when it
 * takes the server for one before MySQL 8.0.5).
 */
public final class RsaKeys {

    private static final String TRANSFORMATION = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";
    private static final String PKCS1_TRANSFORMATION = "RSA/ECB/PKCS1Padding";

    private RsaKeys() {
    }

    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is part of every Java runtime", e);
        }
    }

    public static String toPem(PublicKey key) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded());
        return "-----BEGIN PUBLIC KEY-----\n" + base64 + "\n-----END PUBLIC KEY-----\n";
    }

    public static PublicKey fromPem(String pem) throws GeneralSecurityException {
        String base64 = pem.replace("-----BEGIN PUBLIC KEY-----", "")
                .replace("-----END PUBLIC KEY-----", "")
                .replaceAll("\\s", "");
        byte[] der = Base64.getDecoder().decode(base64);
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
    }

    public static byte[] encrypt(PublicKey key, byte[] plain) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(TRANSFORMATION);
        cipher.init(Cipher.ENCRYPT_MODE, key);
        return cipher.doFinal(plain);
    }

    /** @param oaep OAEP padding, as clients use it; else PKCS#1 v1.5 (MySQL Connector/J for servers before 8.0.5) */
    public static byte[] decrypt(PrivateKey key, byte[] encrypted, boolean oaep) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(oaep ? TRANSFORMATION : PKCS1_TRANSFORMATION);
        cipher.init(Cipher.DECRYPT_MODE, key);
        return cipher.doFinal(encrypted);
    }
}
