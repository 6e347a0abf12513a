package io.cleave.proxy.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * The challenge-response arithmetic of mysql_native_password and caching_sha2_password, for both
 * sides: the proxy verifying its clients and the proxy logging in to its shards.
 */
public final class Scrambles {

    public static final int SCRAMBLE_LENGTH = 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Scrambles() {
    }

    /** A fresh 20-byte scramble of printable, non-NUL bytes (as servers send; some clients expect it). */
    public static byte[] newScramble() {
        byte[] bytes = new byte[SCRAMBLE_LENGTH];
        RANDOM.nextBytes(bytes);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (0x21 + ((bytes[i] & 0xff) % 0x5d));
        }
        return bytes;
    }

    /** mysql_native_password client token: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))). */
    public static byte[] nativeToken(byte[] password, byte[] scramble) {
        if (password.length == 0) {
            return new byte[0];
        }
        byte[] stage1 = sha1(password);
        byte[] stage2 = sha1(stage1);
        byte[] mix = sha1(concat(scramble, stage2));
        return xor(stage1, mix);
    }

    /**
     * Checks a mysql_native_password token against the stored SHA1(SHA1(pw)) (the 20 bytes of the
     * "*HEX" form) without ever knowing the password.
     */
    public static boolean verifyNative(byte[] token, byte[] scramble, byte[] storedDoubleSha1) {
        return nativeStage1(token, scramble, storedDoubleSha1) != null;
    }

    /**
     * What a correct mysql_native_password token reveals: SHA1(pw) = token XOR SHA1(scramble +
     * SHA1(SHA1(pw))), confirmed by hashing it to the stored SHA1(SHA1(pw)). Null when the token is
     * wrong. With it the proxy answers other scrambles as the client would ({@link #nativeTokenFromStage1}).
     */
    public static byte[] nativeStage1(byte[] token, byte[] scramble, byte[] storedDoubleSha1) {
        if (token.length != 20 || storedDoubleSha1.length != 20) {
            return null;
        }
        byte[] mix = sha1(concat(scramble, storedDoubleSha1));
        byte[] candidateStage1 = xor(token, mix);
        return MessageDigest.isEqual(sha1(candidateStage1), storedDoubleSha1) ? candidateStage1 : null;
    }

    /** The mysql_native_password token for {@code scramble} from SHA1(pw) alone. */
    public static byte[] nativeTokenFromStage1(byte[] stage1, byte[] scramble) {
        return xor(stage1, sha1(concat(scramble, sha1(stage1))));
    }

    /** caching_sha2_password client token: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble). */
    public static byte[] sha2Token(byte[] password, byte[] scramble) {
        if (password.length == 0) {
            return new byte[0];
        }
        byte[] stage1 = sha256(password);
        byte[] stage2 = sha256(stage1);
        byte[] mix = sha256(concat(stage2, scramble));
        return xor(stage1, mix);
    }

    /** Checks a caching_sha2_password fast-path token against the cached SHA256(SHA256(pw)). */
    public static boolean verifySha2(byte[] token, byte[] scramble, byte[] cachedDoubleSha256) {
        if (token.length != 32 || cachedDoubleSha256.length != 32) {
            return false;
        }
        byte[] mix = sha256(concat(cachedDoubleSha256, scramble));
        byte[] candidateStage1 = xor(token, mix);
        return MessageDigest.isEqual(sha256(candidateStage1), cachedDoubleSha256);
    }

    /** SHA1(password): what a mysql_native_password login needs to answer any scramble. */
    public static byte[] stage1(byte[] password) {
        return sha1(password);
    }

    public static byte[] doubleSha1(byte[] password) {
        return sha1(sha1(password));
    }

    public static byte[] doubleSha256(byte[] password) {
        return sha256(sha256(password));
    }

    /** XOR of the NUL-terminated password with the scramble repeated: what RSA full auth encrypts. */
    public static byte[] xorWithScramble(byte[] passwordWithNul, byte[] scramble) {
        byte[] out = new byte[passwordWithNul.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (passwordWithNul[i] ^ scramble[i % scramble.length]);
        }
        return out;
    }

    static byte[] sha1(byte[] input) {
        return digest("SHA-1", input);
    }

    static byte[] sha256(byte[] input) {
        return digest("SHA-256", input);
    }

    private static byte[] digest(String algorithm, byte[] input) {
        try {
            return MessageDigest.getInstance(algorithm).digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i % b.length]);
        }
        return out;
    }
}
