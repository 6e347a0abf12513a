package io.cleave.manager.auth;

import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.auth.Sha256Crypt;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The two password hash forms MySQL stores in mysql.user, so a config can hold what a server
 * would hold and never a usable password. The arithmetic is the proxy's, which checks them.
 */
public final class PasswordHashes {

    private static final Pattern NATIVE = Pattern.compile("\\*[0-9A-Fa-f]{40}");

    private PasswordHashes() {
    }

    /** mysql_native_password: {@code '*' + HEX(SHA1(SHA1(password)))}, as MySQL's PASSWORD() returned it. */
    public static String mysqlNative(String password) {
        return "*" + HexFormat.of().formatHex(Scrambles.doubleSha1(password.getBytes(StandardCharsets.UTF_8)))
                .toUpperCase(Locale.ROOT);
    }

    /** caching_sha2_password with a fresh random salt. */
    public static String cachingSha2(String password) {
        return Sha256Crypt.mysqlHash(password.getBytes(StandardCharsets.UTF_8));
    }

    /** caching_sha2_password for a given 20-character salt (5000 rounds, MySQL's default). */
    public static String cachingSha2(String password, String salt) {
        return Sha256Crypt.mysqlHash(password.getBytes(StandardCharsets.UTF_8), salt);
    }

    /** True when {@code password} is the one {@code stored} was made from. */
    public static boolean matchesCachingSha2(String password, String stored) {
        return Sha256Crypt.verifyMysqlHash(password.getBytes(StandardCharsets.UTF_8), stored);
    }

    public static boolean isNativeHash(String text) {
        return NATIVE.matcher(text).matches();
    }

    public static boolean isCachingSha2Hash(String text) {
        return Sha256Crypt.isMysqlHash(text);
    }
}
