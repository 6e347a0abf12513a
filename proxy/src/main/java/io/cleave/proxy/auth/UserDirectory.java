package io.cleave.proxy.auth;

import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The proxy's accounts, and the in-memory caching_sha2_password cache: after one full
 * authentication (password over TLS or RSA, checked against the SHA-256 crypt string) the
 * SHA256(SHA256(password)) is kept so later logins take the one-round fast path, as MySQL does.
 */
public final class UserDirectory {

    private final Map<String, ProxyUser> users;
    private final Map<String, byte[]> sha2Cache = new ConcurrentHashMap<>();

    public UserDirectory(List<ProxyUser> users) {
        this.users = users.stream().collect(Collectors.toUnmodifiableMap(ProxyUser::name, Function.identity()));
    }

    public ProxyUser find(String name) {
        return users.get(name);
    }

    /** Checks a first-round token of {@code plugin}. Empty-password users accept an empty token only. */
    public boolean verifyToken(ProxyUser user, AuthPlugin plugin, byte[] token, byte[] scramble) {
        if (user.emptyPassword()) {
            return token.length == 0 || (token.length == 1 && token[0] == 0);
        }
        if (plugin == AuthPlugin.MYSQL_NATIVE_PASSWORD) {
            return user.nativeHash() != null && Scrambles.verifyNative(token, scramble, user.nativeHash());
        }
        byte[] cached = sha2Cache.get(user.name());
        return cached != null && Scrambles.verifySha2(token, scramble, cached);
    }

    /** Whether a caching_sha2_password fast-path check is possible for this user right now. */
    public boolean hasCachedSha2(ProxyUser user) {
        return sha2Cache.containsKey(user.name());
    }

    /** Checks a clear-text password (full authentication) and fills the fast-path cache on success. */
    public boolean verifyPassword(ProxyUser user, byte[] password) {
        if (user.emptyPassword()) {
            return password.length == 0;
        }
        boolean ok = user.sha2Hash() != null
                ? Sha256Crypt.verifyMysqlHash(password, user.sha2Hash())
                : MessageDigest.isEqual(Scrambles.doubleSha1(password), user.nativeHash());
        if (ok && user.sha2Hash() != null) {
            sha2Cache.put(user.name(), Scrambles.doubleSha256(password));
        }
        return ok;
    }
}
