package io.cleave.proxy.server;

import io.cleave.proxy.auth.FailedLoginPolicy;

import java.time.Duration;

/**
 * What a client that has not logged in can make the proxy hold, and for how long.
 *
 * @param timeout       from connecting to a finished login (a server's connect_timeout); a client
 *                      still not logged in then gets error 1159 and is closed. The waits of a
 *                      throttled login do not count.
 * @param maxPacket     largest packet accepted before login: a handshake response is a few hundred
 *                      bytes, client libraries send at most 64 KiB of connection attributes
 * @param failedLogins  how failed logins slow down the next attempts for their 'user'@'host'
 */
public record LoginLimits(Duration timeout, int maxPacket, FailedLoginPolicy failedLogins) {

    public static final LoginLimits DEFAULT = new LoginLimits(Duration.ofSeconds(10), 64 * 1024,
            FailedLoginPolicy.DEFAULT);

    public LoginLimits {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the login timeout must be positive");
        }
        if (maxPacket < 1024) {
            throw new IllegalArgumentException("the largest packet before login must be at least 1K, got " + maxPacket);
        }
    }
}
