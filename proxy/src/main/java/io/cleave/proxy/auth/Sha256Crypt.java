package io.cleave.proxy.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * SHA-256 crypt (the "$5$" algorithm of glibc's crypt), which caching_sha2_password stores as
 * {@code $A$005$<20-byte salt><43-char hash>}: "005" means 5 x 1000 rounds, and unlike glibc the
 * salt is not cut to 16 bytes.
 */
public final class Sha256Crypt {

    public static final String MYSQL_PREFIX = "$A$005$";
    public static final int MYSQL_SALT_LENGTH = 20;
    public static final int MYSQL_ROUNDS = 5000;
    private static final String B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Sha256Crypt() {
    }

    /** A new caching_sha2_password authentication string for {@code password}. */
    public static String mysqlHash(byte[] password) {
        byte[] salt = new byte[MYSQL_SALT_LENGTH];
        for (int i = 0; i < salt.length; i++) {
            // Printable, never '$' or NUL, so the string stays parseable.
            salt[i] = (byte) B64.charAt(RANDOM.nextInt(B64.length()));
        }
        return MYSQL_PREFIX + new String(salt, StandardCharsets.US_ASCII) + encode(password, salt, MYSQL_ROUNDS);
    }

    /** Whether {@code password} matches an {@code $A$005$...} authentication string. */
    public static boolean verifyMysqlHash(byte[] password, String stored) {
        if (!isMysqlHash(stored)) {
            return false;
        }
        byte[] salt = stored.substring(MYSQL_PREFIX.length(), MYSQL_PREFIX.length() + MYSQL_SALT_LENGTH)
                .getBytes(StandardCharsets.ISO_8859_1);
        String expected = stored.substring(MYSQL_PREFIX.length() + MYSQL_SALT_LENGTH);
        String actual = encode(password, salt, MYSQL_ROUNDS);
        return MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII),
                expected.getBytes(StandardCharsets.US_ASCII));
    }

    public static boolean isMysqlHash(String s) {
        return s != null && s.startsWith(MYSQL_PREFIX) && s.length() == MYSQL_PREFIX.length() + MYSQL_SALT_LENGTH + 43;
    }

    /** The 43-character encoded hash of the SHA-256 crypt algorithm for this salt and round count. */
    public static String encode(byte[] key, byte[] salt, int rounds) {
        MessageDigest a = sha256();
        a.update(key);
        a.update(salt);
        MessageDigest b = sha256();
        b.update(key);
        b.update(salt);
        b.update(key);
        byte[] bResult = b.digest();
        int len = key.length;
        for (; len > 32; len -= 32) {
            a.update(bResult, 0, 32);
        }
        a.update(bResult, 0, len);
        for (int bits = key.length; bits > 0; bits >>= 1) {
            if ((bits & 1) != 0) {
                a.update(bResult, 0, 32);
            } else {
                a.update(key);
            }
        }
        byte[] aResult = a.digest();

        MessageDigest dp = sha256();
        for (int i = 0; i < key.length; i++) {
            dp.update(key);
        }
        byte[] dpResult = dp.digest();
        byte[] p = repeat(dpResult, key.length);

        MessageDigest ds = sha256();
        for (int i = 0; i < 16 + (aResult[0] & 0xff); i++) {
            ds.update(salt);
        }
        byte[] dsResult = ds.digest();
        byte[] s = repeat(dsResult, salt.length);

        byte[] c = aResult;
        for (int i = 0; i < rounds; i++) {
            MessageDigest round = sha256();
            if ((i & 1) != 0) {
                round.update(p);
            } else {
                round.update(c, 0, 32);
            }
            if (i % 3 != 0) {
                round.update(s);
            }
            if (i % 7 != 0) {
                round.update(p);
            }
            if ((i & 1) != 0) {
                round.update(c, 0, 32);
            } else {
                round.update(p);
            }
            c = round.digest();
        }
        return base64(c);
    }

    private static byte[] repeat(byte[] digest, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = digest[i % 32];
        }
        return out;
    }

    /** crypt's own base-64 of the 32 bytes, in its permuted byte order. */
    private static String base64(byte[] c) {
        StringBuilder out = new StringBuilder(43);
        int[][] groups = {
            {0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14}, {15, 25, 5}, {6, 16, 26},
            {27, 7, 17}, {18, 28, 8}, {9, 19, 29},
        };
        for (int[] g : groups) {
            appendB64(out, ((c[g[0]] & 0xff) << 16) | ((c[g[1]] & 0xff) << 8) | (c[g[2]] & 0xff), 4);
        }
        appendB64(out, ((c[31] & 0xff) << 8) | (c[30] & 0xff), 3);
        return out.toString();
    }

    private static void appendB64(StringBuilder out, int value, int chars) {
        for (int i = 0; i < chars; i++) {
            out.append(B64.charAt(value & 0x3f));
            value >>>= 6;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
