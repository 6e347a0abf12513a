package io.cleave.proxy.server;

import io.cleave.proxy.transport.TransportSetting;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of one proxy instance, sealed when it starts.
 *
 * @param socket                          Unix socket to listen on as well (null: none); local clients save the TCP stack
 * @param threads                         event loops (client and backend I/O share them); 0 = one per core
 * @param maxBackendConnectionsPerShard   cap on connections to each shard across all loops
 * @param backendAcquireTimeout           how long a statement waits for a free backend connection
 * @param maxAllowedPacket                largest client packet (after joining 16 MB frames), and the most
 *                                        long data (COM_STMT_SEND_LONG_DATA) one statement parameter collects
 * @param tlsCertificate                  PEM certificate chain offered to clients asking for TLS (null: none)
 * @param tlsPrivateKey                   PEM private key of that certificate
 * @param xaRecoveryInterval              how often in-doubt XA branches are looked for and settled
 *                                        (besides at start); zero: only at start and when asked
 * @param deadlockCheckAfter              how long a statement of a transaction spanning shards runs
 *                                        before the shards' lock waits are joined to look for a
 *                                        deadlock across them; zero turns the detector off
 * @param login                           limits on clients that have not logged in yet
 * @param transport                       Netty I/O transport for client and shard connections alike
 * @param pipelineDepth                   the most autocommit statements of different clients one backend
 *                                        connection carries at once when they meet in one event-loop pass
 *                                        (see {@code PipelineWindow}); 1 turns pipelining off
 */
public record ProxyConfig(InetSocketAddress listen, Path socket, int threads,
                          int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                          Path tlsCertificate, Path tlsPrivateKey, Duration xaRecoveryInterval,
                          Duration deadlockCheckAfter, LoginLimits login, TransportSetting transport,
                          int pipelineDepth) {

    public static final Duration DEFAULT_XA_RECOVERY_INTERVAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_DEADLOCK_CHECK_AFTER = Duration.ofMillis(100);
    /** MySQL 8's default. */
    public static final long DEFAULT_MAX_ALLOWED_PACKET = 64L * 1024 * 1024;
    public static final int DEFAULT_PIPELINE_DEPTH = 1;
    public static final int MAX_PIPELINE_DEPTH = 256;

    public ProxyConfig {
        java.util.Objects.requireNonNull(transport, "transport");
        if (maxBackendConnectionsPerShard < 1) {
            throw new IllegalArgumentException("max backend connections per shard must be at least 1");
        }
        if (maxAllowedPacket < 1024) {
            throw new IllegalArgumentException("max_allowed_packet must be at least 1K, got " + maxAllowedPacket);
        }
        if (xaRecoveryInterval.isNegative()) {
            throw new IllegalArgumentException("the XA recovery interval cannot be negative");
        }
        if (deadlockCheckAfter.isNegative()) {
            throw new IllegalArgumentException("the deadlock check threshold cannot be negative");
        }
        if (pipelineDepth < 1 || pipelineDepth > MAX_PIPELINE_DEPTH) {
            throw new IllegalArgumentException("pipeline depth must be 1.." + MAX_PIPELINE_DEPTH + ", got " + pipelineDepth);
        }
    }

    /** Without pipelining (its default depth). */
    public ProxyConfig(InetSocketAddress listen, Path socket, int threads,
                       int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                       Path tlsCertificate, Path tlsPrivateKey, Duration xaRecoveryInterval,
                       Duration deadlockCheckAfter, LoginLimits login, TransportSetting transport) {
        this(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout, maxAllowedPacket,
                tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport,
                DEFAULT_PIPELINE_DEPTH);
    }

    /** With the default deadlock check threshold, login limits and transport. */
    public ProxyConfig(InetSocketAddress listen, Path socket, int threads,
                       int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                       Path tlsCertificate, Path tlsPrivateKey, Duration xaRecoveryInterval) {
        this(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout, maxAllowedPacket,
                tlsCertificate, tlsPrivateKey, xaRecoveryInterval, DEFAULT_DEADLOCK_CHECK_AFTER, LoginLimits.DEFAULT,
                TransportSetting.AUTO);
    }

    public static ProxyConfig defaults(InetSocketAddress listen) {
        return new ProxyConfig(listen, null, 0, 32, Duration.ofSeconds(10), DEFAULT_MAX_ALLOWED_PACKET, null, null,
                DEFAULT_XA_RECOVERY_INTERVAL);
    }

    public ProxyConfig withTls(Path certificate, Path privateKey) {
        return new ProxyConfig(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, certificate, privateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport, pipelineDepth);
    }

    public ProxyConfig withMaxBackendConnectionsPerShard(int max) {
        return new ProxyConfig(listen, socket, threads, max, backendAcquireTimeout, maxAllowedPacket, tlsCertificate,
                tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport, pipelineDepth);
    }

    public ProxyConfig withSocket(Path path) {
        return new ProxyConfig(listen, path, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport, pipelineDepth);
    }

    public ProxyConfig withThreads(int count) {
        return new ProxyConfig(listen, socket, count, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport, pipelineDepth);
    }

    public ProxyConfig withDeadlockCheckAfter(Duration threshold) {
        return new ProxyConfig(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, threshold, login, transport, pipelineDepth);
    }

    public ProxyConfig withTransport(TransportSetting setting) {
        return new ProxyConfig(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, setting, pipelineDepth);
    }

    public ProxyConfig withPipelineDepth(int depth) {
        return new ProxyConfig(listen, socket, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey, xaRecoveryInterval, deadlockCheckAfter, login, transport,
                depth);
    }
}
