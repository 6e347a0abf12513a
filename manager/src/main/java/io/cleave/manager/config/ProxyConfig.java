package io.cleave.manager.config;

import io.cleave.proxy.transport.TransportSetting;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The client-facing MySQL endpoint.
 *
 * @param socket  Unix socket for local clients; empty means {@code <home>/run/proxy.sock}, and
 *                {@link #NO_SOCKET} turns it off
 * @param threads proxy event loops; 0 picks a quarter of the cores (at least one), leaving the
 *                rest to the shards on the same host
 * @param backendWaitTimeout how long a statement waits in line for a backend connection when the
 *                shard's connections are all busy, before it fails with an error
 * @param xaRecoveryInterval how often prepared XA branches left by interrupted commits are looked
 *                for and settled, besides at start; zero leaves that to start-up and operators
 * @param deadlockCheckAfter how long a statement of a transaction spanning shards may wait before
 *                the shards' lock waits are joined to look for a deadlock across them; zero turns
 *                the detector off (such deadlocks then end by innodb_lock_wait_timeout)
 * @param maxAllowedPacket the largest client command, and the most long data one statement
 *                parameter may collect (a server's max_allowed_packet)
 * @param login    limits before login and the failed-login throttle
 * @param evaluate how many rows and bytes one read evaluated on one shard may gather from the shards
 *                 ({@code evaluate_max_rows}, {@code evaluate_max_bytes}); past them it is refused
 * @param transport the Netty I/O transport ({@code auto}, {@code epoll}, {@code io_uring}, {@code nio})
 * @param pipelineDepth the most autocommit statements of different clients written back-to-back on
 *                 one backend connection when they meet in one event-loop pass ({@code pipeline_depth});
 *                 1 turns that off
 * @param consistentCuts whether reads across shards take consistent cuts ({@code consistent_cuts}); off
 *                 only for tests and benchmarks, which show the torn reads it prevents
 * @param clientProxyProtocol who may name a client's address with a PROXY protocol header
 *                 ({@code proxy_protocol_networks}, {@code proxy_protocol_required}): a relay or balancer in front
 */
public record ProxyConfig(HostPort listen, Optional<Path> socket, int threads, int maxBackendConnectionsPerShard,
                          Duration backendWaitTimeout, Optional<Path> tlsCert, Optional<Path> tlsKey,
                          List<ProxyUser> users, Duration xaRecoveryInterval, Duration deadlockCheckAfter,
                          long maxAllowedPacket, LoginConfig login, io.cleave.proxy.evaluate.EvaluationLimits evaluate,
                          TransportSetting transport, int pipelineDepth, boolean consistentCuts,
                          io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy clientProxyProtocol) {

    public static final Path NO_SOCKET = Path.of("none");

    public ProxyConfig {
        users = List.copyOf(users);
    }
}
