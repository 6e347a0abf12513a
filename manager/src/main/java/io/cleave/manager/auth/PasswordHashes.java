package io.cleave.manager.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The two password hash forms MySQL stores in mysql.user, so a config can hold what a server
 * would hold and never a usable password.
 */
public final class PasswordHashes {

    /** {@code $A$} + rounds / 1000 as three hex digits + {@code $}, as MySQL frames it. */
    public static final String CACHING_SHA2_PREFIX = "$A$005$";
    public static final int CACHING_SHA2_SALT_LENGTH = 20;
    private static final Pattern NATIVE = Pattern.compile("\\*[0-9A-Fa-f]{40}");
    private static final Pattern SHA2_HEADER = Pattern.compile("\\$A\\$[0-9A-Fa-f]{3}\\$");
    private static final String SALT_CHARS = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private PasswordHashes() {
    }

    /** mysql_native_password: {@code '*' + HEX(SHA1(SHA1(password)))}, as MySQL's PASSWORD() returned it. */
    public static String mysqlNative(String password) {
        byte[] once = sha1(password.getBytes(StandardCharsets.UTF_8));
        return "*" + HexFormat.of().formatHex(sha1(once)).toUpperCase(Locale.ROOT);
    }

    /** caching_sha2_password with a fresh random salt. */
    public static String cachingSha2(String password) {
        SecureRandom random = new SecureRandom();
        StringBuilder salt = new StringBuilder(CACHING_SHA2_SALT_LENGTH);
        for (int i = 0; i < CACHING_SHA2_SALT_LENGTH; i++) {
            salt.append(SALT_CHARS.charAt(random.nextInt(SALT_CHARS.length())));
        }
        return cachingSha2(password, salt.toString());
    }

    /** caching_sha2_password for a given 20-character salt (5000 rounds, MySQL's default). */
    public static String cachingSha2(String password, String salt) {
        if (salt.length() != CACHING_SHA2_SALT_LENGTH || salt.indexOf('$') >= 0) {
            throw new IllegalArgumentException("a caching_sha2_password salt is 20 characters without '$'");
        }
        return CACHING_SHA2_PREFIX + salt + Sha256Crypt.digest(password.getBytes(StandardCharsets.UTF_8),
                salt.getBytes(StandardCharsets.ISO_8859_1), Sha256Crypt.DEFAULT_ROUNDS);
    }

    /** True when {@code password} is the one {@code stored} was made from. */
    public static boolean matchesCachingSha2(String password, String stored) {
        if (!isCachingSha2Hash(stored)) {
            return false;
        }
        int rounds = Integer.parseInt(stored.substring(3, 6), 16) * 1000;
        String salt = stored.substring(7, 7 + CACHING_SHA2_SALT_LENGTH);
        String digest = Sha256Crypt.digest(password.getBytes(StandardCharsets.UTF_8),
                salt.getBytes(StandardCharsets.ISO_8859_1), rounds);
        return MessageDigest.isEqual(digest.getBytes(StandardCharsets.ISO_8859_1),
                stored.substring(7 + CACHING_SHA2_SALT_LENGTH).getBytes(StandardCharsets.ISO_8859_1));
    }

    public static boolean isNativeHash(String text) {
        return NATIVE.matcher(text).matches();
    }

    /** {@code $A$005$}, 20 salt characters (any but '$'), then 43 characters of the crypt alphabet. */
    public static boolean isCachingSha2Hash(String text) {
        if (text.length() != 7 + CACHING_SHA2_SALT_LENGTH + 43 || !SHA2_HEADER.matcher(text.substring(0, 7)).matches()
                || Integer.parseInt(text.substring(3, 6), 16) == 0) {
            return false;
        }
        for (int i = 7; i < 7 + CACHING_SHA2_SALT_LENGTH; i++) {
            char c = text.charAt(i);
            if (c == '$' || c == 0 || c > 0x7f) {
                return false;
            }
        }
        for (int i = 7 + CACHING_SHA2_SALT_LENGTH; i < text.length(); i++) {
            if (!Sha256Crypt.isAlphabet(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static byte[] sha1(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
