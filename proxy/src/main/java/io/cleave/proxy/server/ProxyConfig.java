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
 */
public record ProxyConfig(InetSocketAddress listen, Path socket, List<ProxyUser> users, int threads,
                          int maxBackendConnectionsPerShard, Duration backendAcquireTimeout, long maxAllowedPacket,
                          Path tlsCertificate, Path tlsPrivateKey) {

    public ProxyConfig {
        users = List.copyOf(users);
        if (maxBackendConnectionsPerShard < 1) {
            throw new IllegalArgumentException("max backend connections per shard must be at least 1");
        }
    }

    public static ProxyConfig defaults(InetSocketAddress listen, List<ProxyUser> users) {
        return new ProxyConfig(listen, null, users, 0, 32, Duration.ofSeconds(10), 64L * 1024 * 1024, null, null);
    }

    public ProxyConfig withTls(Path certificate, Path privateKey) {
        return new ProxyConfig(listen, socket, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, certificate, privateKey);
    }

    public ProxyConfig withMaxBackendConnectionsPerShard(int max) {
        return new ProxyConfig(listen, socket, users, threads, max, backendAcquireTimeout, maxAllowedPacket, tlsCertificate,
                tlsPrivateKey);
    }

    public ProxyConfig withSocket(Path path) {
        return new ProxyConfig(listen, path, users, threads, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey);
    }

    public ProxyConfig withThreads(int count) {
        return new ProxyConfig(listen, socket, users, count, maxBackendConnectionsPerShard, backendAcquireTimeout,
                maxAllowedPacket, tlsCertificate, tlsPrivateKey);
    }
}
