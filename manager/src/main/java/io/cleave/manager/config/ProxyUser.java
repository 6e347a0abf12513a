package io.cleave.manager.config;

import java.util.Optional;

/**
 * An account clients use to log in to the proxy. Passwords are only ever stored as the hashes
 * MySQL itself stores, so the config file never holds a usable secret; an account with neither
 * hash has the empty password.
 */
public record ProxyUser(String name, Optional<String> mysqlNativePassword, Optional<String> cachingSha2Password) {

    public boolean hasEmptyPassword() {
        return mysqlNativePassword.isEmpty() && cachingSha2Password.isEmpty();
    }
}
