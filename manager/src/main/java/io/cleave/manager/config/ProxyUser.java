package io.cleave.manager.config;

import java.util.List;
import java.util.Optional;

/**
 * An account the daemon creates on the shards at the first start of a home (the bootstrap): from
 * then on the shards' grant tables hold the accounts, and account statements through the proxy
 * change them. Passwords are only ever stored as the hashes MySQL itself stores, so the config file
 * never holds a usable secret; an account with neither hash has the empty password.
 *
 * @param hosts  the host patterns it is created for ({@code 'name'@'host'} each): {@code %} by
 *               default, the loopback addresses and {@code localhost} for the empty password
 * @param grants what it is granted, each as a GRANT takes it after the word GRANT
 *               ({@code ALL PRIVILEGES ON *.* WITH GRANT OPTION} by default)
 */
public record ProxyUser(String name, Optional<String> mysqlNativePassword, Optional<String> cachingSha2Password,
                        List<String> hosts, List<String> grants) {

    /** The proxy's Unix socket and every loopback address (127.0.0.0/8 written as MariaDB takes a netmask). */
    public static final List<String> LOOPBACK_HOSTS = List.of("localhost", "127.0.0.0/255.0.0.0", "::1");
    public static final List<String> ADMINISTRATOR = List.of("ALL PRIVILEGES ON *.* WITH GRANT OPTION");

    public ProxyUser {
        hosts = List.copyOf(hosts);
        grants = List.copyOf(grants);
    }

    /** An administrator account from every host (tests and samples). */
    public ProxyUser(String name, Optional<String> mysqlNativePassword, Optional<String> cachingSha2Password) {
        this(name, mysqlNativePassword, cachingSha2Password,
                mysqlNativePassword.isEmpty() && cachingSha2Password.isEmpty() ? LOOPBACK_HOSTS : List.of("%"),
                ADMINISTRATOR);
    }

    public boolean hasEmptyPassword() {
        return mysqlNativePassword.isEmpty() && cachingSha2Password.isEmpty();
    }
}
