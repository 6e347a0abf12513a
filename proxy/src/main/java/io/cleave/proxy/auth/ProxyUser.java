package io.cleave.proxy.auth;

import java.util.HexFormat;

/**
 * An account clients log in to the proxy with. Only hashes are kept: SHA1(SHA1(password)) for
 * mysql_native_password (the 20 bytes behind mysql.user's "*HEX" form) and the SHA-256 crypt
 * string for caching_sha2_password. An account with an empty password has neither.
 */
public record ProxyUser(String name, byte[] nativeHash, String sha2Hash, boolean emptyPassword) {

    public ProxyUser {
        if (!emptyPassword && nativeHash == null && sha2Hash == null) {
            throw new IllegalArgumentException("user " + name + " needs a password hash or an empty password");
        }
        if (nativeHash != null && nativeHash.length != 20) {
            throw new IllegalArgumentException("user " + name + ": mysql_native_password hash must be 20 bytes");
        }
        if (sha2Hash != null && !Sha256Crypt.isMysqlHash(sha2Hash)) {
            throw new IllegalArgumentException("user " + name + ": caching_sha2_password hash must look like $A$005$...");
        }
    }

    public static ProxyUser withEmptyPassword(String name) {
        return new ProxyUser(name, null, null, true);
    }

    /** From the "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19" form and/or a "$A$005$..." string. */
    public static ProxyUser withHashes(String name, String nativeStar, String sha2) {
        byte[] nativeHash = null;
        if (nativeStar != null) {
            if (!nativeStar.startsWith("*") || nativeStar.length() != 41) {
                throw new IllegalArgumentException("user " + name + ": mysql_native_password hash must be '*' and 40 hex digits");
            }
            nativeHash = HexFormat.of().parseHex(nativeStar.substring(1));
        }
        return new ProxyUser(name, nativeHash, sha2, false);
    }

    /** The plugin this user's credentials are checked with when the client leaves the choice to us. */
    public AuthPlugin preferredPlugin() {
        return sha2Hash != null || emptyPassword ? AuthPlugin.CACHING_SHA2_PASSWORD : AuthPlugin.MYSQL_NATIVE_PASSWORD;
    }

    public boolean supports(AuthPlugin plugin) {
        return emptyPassword || (plugin == AuthPlugin.MYSQL_NATIVE_PASSWORD ? nativeHash != null : sha2Hash != null);
    }
}
