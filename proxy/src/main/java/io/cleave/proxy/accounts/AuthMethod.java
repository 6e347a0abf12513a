package io.cleave.proxy.accounts;

import java.util.Locale;

/**
 * How an account proves who it is, by its plugin in the grant tables, and whether the proxy can
 * both check a client's login with it and log in to the shards as the account afterwards.
 */
public enum AuthMethod {
    /**
     * mysql_native_password (also MariaDB's empty plugin of an account without a password): the
     * client's answer to the scramble, checked against the stored SHA1(SHA1(password)), gives the
     * proxy SHA1(password), with which it answers the shards' scrambles as the client would.
     */
    NATIVE,
    /**
     * caching_sha2_password (MySQL): the password reaches the proxy only in full authentication
     * (over TLS or the Unix socket, or RSA-encrypted); the proxy keeps it in memory to log in to the
     * shards.
     */
    CACHING_SHA2,
    /** Anything else (ed25519, unix_socket, pam, gssapi, ...): the proxy cannot log in to the shards with it. */
    UNSUPPORTED;

    static AuthMethod of(String plugin) {
        String p = plugin == null ? "" : plugin.toLowerCase(Locale.ROOT);
        return switch (p) {
            case "", "mysql_native_password" -> NATIVE;
            case "caching_sha2_password" -> CACHING_SHA2;
            default -> UNSUPPORTED;
        };
    }
}
