package io.cleave.proxy.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * SHA-256 crypt as specified by Ulrich Drepper ("Unix crypt using SHA-256 and SHA-512"): glibc's
 * {@code $5$} and, framed differently, caching_sha2_password's stored form
 * {@code $A$<rounds/1000 as 3 hex digits>$<20-byte salt><43-char hash>}. Unlike glibc, MySQL does
 * not cut the salt to 16 bytes, so {@link #encode} takes the salt as given.
 */
public final class Sha256Crypt {

    public static final String MYSQL_PREFIX = "$A$005$";
    public static final int MYSQL_SALT_LENGTH = 20;
    public static final int MYSQL_ROUNDS = 5000;
    private static final int MYSQL_HASH_LENGTH = 7 + MYSQL_SALT_LENGTH + 43;
    private static final int GLIBC_MAX_SALT = 16;
    private static final String B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Sha256Crypt() {
    }

    /** A new caching_sha2_password authentication string for {@code password}, with a random salt. */
    public static String mysqlHash(byte[] password) {
        byte[] salt = new byte[MYSQL_SALT_LENGTH];
        for (int i = 0; i < salt.length; i++) {
            // Printable, never '$' or NUL, so the string stays parseable.
            salt[i] = (byte) B64.charAt(RANDOM.nextInt(B64.length()));
        }
        return mysqlHash(password, new String(salt, StandardCharsets.US_ASCII));
    }

    /** The caching_sha2_password authentication string for a given 20-character salt (5000 rounds). */
    public static String mysqlHash(byte[] password, String salt) {
        if (salt.length() != MYSQL_SALT_LENGTH || salt.indexOf('$') >= 0) {
            throw new IllegalArgumentException("a caching_sha2_password salt is 20 characters without '$'");
        }
        return MYSQL_PREFIX + salt + encode(password, salt.getBytes(StandardCharsets.ISO_8859_1), MYSQL_ROUNDS);
    }

    /** Whether {@code password} matches a {@code $A$xxx$...} authentication string. */
    public static boolean verifyMysqlHash(byte[] password, String stored) {
        if (!isMysqlHash(stored)) {
            return false;
        }
        int rounds = Integer.parseInt(stored.substring(3, 6), 16) * 1000;
        byte[] salt = stored.substring(7, 7 + MYSQL_SALT_LENGTH).getBytes(StandardCharsets.ISO_8859_1);
        String expected = stored.substring(7 + MYSQL_SALT_LENGTH);
        String actual = encode(password, salt, rounds);
        return MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII),
                expected.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * {@code $A$}, a non-zero round count as three hex digits, {@code $}, 20 salt characters (any
     * ASCII but '$' and NUL, as MySQL makes them), then 43 characters of the crypt alphabet.
     */
    public static boolean isMysqlHash(String s) {
        if (s == null || s.length() != MYSQL_HASH_LENGTH || !s.startsWith("$A$") || s.charAt(6) != '$') {
            return false;
        }
        for (int i = 3; i < 6; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        if (Integer.parseInt(s.substring(3, 6), 16) == 0) {
            return false;
        }
        for (int i = 7; i < 7 + MYSQL_SALT_LENGTH; i++) {
            char c = s.charAt(i);
            if (c == '$' || c == 0 || c > 0x7f) {
                return false;
            }
        }
        for (int i = 7 + MYSQL_SALT_LENGTH; i < s.length(); i++) {
            if (B64.indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * glibc's {@code crypt(key, "$5$[rounds=N$]salt")}: the specification's test vectors are
     * stated in this form.
     */
    public static String glibcCrypt(byte[] key, String setting) {
        String rest = setting.substring("$5$".length());
        int rounds = MYSQL_ROUNDS;
        boolean explicitRounds = rest.startsWith("rounds=");
        if (explicitRounds) {
            int end = rest.indexOf('$');
            rounds = Math.max(1000, Math.min(999_999_999, Integer.parseInt(rest.substring("rounds=".length(), end))));
            rest = rest.substring(end + 1);
        }
        int dollar = rest.indexOf('$');
        String salt = dollar < 0 ? rest : rest.substring(0, dollar);
        salt = salt.substring(0, Math.min(GLIBC_MAX_SALT, salt.length()));
        String digest = encode(key, salt.getBytes(StandardCharsets.ISO_8859_1), rounds);
        return "$5$" + (explicitRounds ? "rounds=" + rounds + "$" : "") + salt + "$" + digest;
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
