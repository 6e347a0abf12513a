package io.cleave.manager.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 crypt as specified by Ulrich Drepper ("Unix crypt using SHA-256 and SHA-512"), the
 * digest behind glibc's {@code $5$} and MySQL's caching_sha2_password {@code $A$005$}. The only
 * difference between the two is framing: glibc truncates the salt to 16 bytes, MySQL uses 20, so
 * {@link #digest} takes the salt as given and callers apply their own limit.
 */
public final class Sha256Crypt {

    private static final String ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int GLIBC_MAX_SALT = 16;
    public static final int DEFAULT_ROUNDS = 5000;

    private Sha256Crypt() {
    }

    /** The 43-character encoded digest of {@code key} under {@code salt} after {@code rounds} rounds. */
    public static String digest(byte[] key, byte[] salt, int rounds) {
        MessageDigest ctx = sha256();
        ctx.update(key);
        ctx.update(salt);
        ctx.update(key);
        byte[] b = ctx.digest();

        ctx.update(key);
        ctx.update(salt);
        int cnt;
        for (cnt = key.length; cnt > 32; cnt -= 32) {
            ctx.update(b, 0, 32);
        }
        ctx.update(b, 0, cnt);
        for (cnt = key.length; cnt > 0; cnt >>= 1) {
            if ((cnt & 1) != 0) {
                ctx.update(b);
            } else {
                ctx.update(key);
            }
        }
        byte[] a = ctx.digest();

        for (int i = 0; i < key.length; i++) {
            ctx.update(key);
        }
        byte[] p = repeat(ctx.digest(), key.length);

        for (int i = 0; i < 16 + (a[0] & 0xff); i++) {
            ctx.update(salt);
        }
        byte[] s = repeat(ctx.digest(), salt.length);

        byte[] c = a;
        for (int i = 0; i < rounds; i++) {
            if ((i & 1) != 0) {
                ctx.update(p);
            } else {
                ctx.update(c);
            }
            if (i % 3 != 0) {
                ctx.update(s);
            }
            if (i % 7 != 0) {
                ctx.update(p);
            }
            if ((i & 1) != 0) {
                ctx.update(c);
            } else {
                ctx.update(p);
            }
            c = ctx.digest();
        }
        return encode(c);
    }

    /**
     * glibc's {@code crypt(key, "$5$[rounds=N$]salt")}: the published test vectors of the
     * specification are stated in this form.
     */
    public static String glibcCrypt(byte[] key, String setting) {
        String rest = setting.substring("$5$".length());
        int rounds = DEFAULT_ROUNDS;
        boolean explicitRounds = rest.startsWith("rounds=");
        if (explicitRounds) {
            int end = rest.indexOf('$');
            rounds = Math.max(1000, Math.min(999_999_999, Integer.parseInt(rest.substring("rounds=".length(), end))));
            rest = rest.substring(end + 1);
        }
        int dollar = rest.indexOf('$');
        String salt = dollar < 0 ? rest : rest.substring(0, dollar);
        salt = salt.substring(0, Math.min(GLIBC_MAX_SALT, salt.length()));
        String digest = digest(key, salt.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), rounds);
        return "$5$" + (explicitRounds ? "rounds=" + rounds + "$" : "") + salt + "$" + digest;
    }

    static boolean isAlphabet(char c) {
        return ALPHABET.indexOf(c) >= 0;
    }

    private static String encode(byte[] f) {
        StringBuilder out = new StringBuilder(43);
        int[][] groups = {{0, 10, 20}, {21, 1, 11}, {12, 22, 2}, {3, 13, 23}, {24, 4, 14},
                {15, 25, 5}, {6, 16, 26}, {27, 7, 17}, {18, 28, 8}, {9, 19, 29}};
        for (int[] g : groups) {
            b64From24Bit(out, f[g[0]], f[g[1]], f[g[2]], 4);
        }
        b64From24Bit(out, (byte) 0, f[31], f[30], 3);
        return out.toString();
    }

    private static void b64From24Bit(StringBuilder out, byte b2, byte b1, byte b0, int n) {
        int w = ((b2 & 0xff) << 16) | ((b1 & 0xff) << 8) | (b0 & 0xff);
        for (int i = 0; i < n; i++) {
            out.append(ALPHABET.charAt(w & 0x3f));
            w >>>= 6;
        }
    }

    private static byte[] repeat(byte[] digest, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = digest[i % digest.length];
        }
        return out;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
