package io.cleave.manager.config;

import java.time.Duration;

/**
 * What a client may do before it has logged in (proxy.connect_timeout_s, proxy.max_login_packet)
 * and how failed logins slow down further attempts for that 'user'@'host' (proxy.failed_logins_before_delay,
 * proxy.failed_login_delay_ms, proxy.failed_login_max_delay_ms).
 */
public record LoginConfig(Duration timeout, long maxPacket, int failuresBeforeDelay, Duration failureDelay,
                          Duration maxFailureDelay) {
}
