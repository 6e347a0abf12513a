package io.cleave.proxy.server;

import io.cleave.proxy.auth.ProxyUser;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Settings of one proxy instance, sealed when it starts.
 *
 * @param socket                          Unix socket to listen on as well (null: none); local clients save the TCP stack
 * @param threads                         event loops (client and backend I/O share them); 0 = one per core
 * @param maxBackendConnectionsPerShard   cap on connections to each shard across all loops
 * @param backendAcquireTimeout           how long a statement waits for a free backend connection
 * @param maxAllowedPacket                largest client packet (after joining 16 MB frames)
 * @param tlsCertificate                  PEM certificate chain offered to clients asking for TLS (null: none)
 * @param tlsPrivateKey                   PEM private key of that certificate
 * @param xaRecoveryInterval              how often in-doubt XA branches are looked for and settled
 *                                        (besides at start); zero: only at start and when asked
 * @param deadlockCheckAfter              how long a statement of a transaction spanning shards runs
 *                                        before the shards' lock waits are joined to look for a
 *                                        deadlock across them; zero turns the detector off
 */
public record ProxyConfig(InetSocketAddress listen, Path socket, List<ProxyUser> users, int threads,
                          int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                          Path tlsCertificate, Path tlsPrivateKey, Duration xaRecoveryInterval,
                          Duration deadlockCheckAfter) {

    public static final Duration DEFAULT_XA_RECOVERY_INTERVAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_DEADLOCK_CHECK_AFTER = Duration.ofMillis(100);

    public ProxyConfig {
        users = List.copyOf(users);
        if (maxBackendConnectionsPerShard < 1) {
            throw new IllegalArgumentException("max backend connections per shard must be at least 1");
        }
        if (xaRecoveryInterval.isNegative()) {
            throw new IllegalArgumentException("the XA recovery interval cannot be negative");
        }
        if (deadlockCheckAfter.isNegative()) {
            throw new IllegalArgumentException("the deadlock check threshold cannot be negative");
        }
    }

    /** With the default deadlock check threshold. */
    public ProxyConfig(InetSocketAddress listen, Path socket, List<ProxyUser> users, int threads,
                       int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                       Path tlsCertificate, Path tlsPrivateKey, Duration xaRecoveryInterval) {
        this(listen, socket, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout, maxAllowedPacket,
                tlsCertificate, tlsPrivateKey, xaRecoveryInterval, DEFAULT_DEADLOCK_CHECK_AFTER);
    }

    public static ProxyConfig defaults(InetSocketAddress listen, List<ProxyUser> users) {
        return new ProxyConfig(listen, null, users, 0, 32, Duration.ofSeconds(10), 64L * 1024 * 1024, null, null,
                DEFAULT_XA_RECOVERY_INTERVAL);
    }

    public ProxyConfig withTls(Path certificate, Path privateKey) {
        return new ProxyConfig(listen, socket, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, certificate, privateKey, xaRecoveryInterval, deadlockCheckAfter);
    }

    public ProxyConfig withMaxBackendConnectionsPerShard(int max) {
        return new ProxyConfig(listen, socket, users, threads, max, backendAcquireTimeout, maxAllowedPacket, tlsCertificate,
                tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter);
    }

    public ProxyConfig withSocket(Path path) {
        return new ProxyConfig(listen, path, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter);
    }

    public ProxyConfig withThreads(int count) {
        return new ProxyConfig(listen, socket, users, count, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter);
    }

    public ProxyConfig withDeadlockCheckAfter(Duration threshold) {
        return new ProxyConfig(listen, socket, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, threshold);
    }
}
