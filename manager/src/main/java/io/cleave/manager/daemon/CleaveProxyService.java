package io.cleave.manager.daemon;

import io.cleave.manager.config.HostPort;
import io.cleave.manager.config.LoginConfig;
import io.cleave.manager.config.ProxyConfig;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.proxy.auth.FailedLoginPolicy;
import io.cleave.proxy.backend.ShardEndpoint;
import io.cleave.proxy.deadlock.DeadlockReport;
import io.cleave.proxy.metrics.MicrometerProxyMetrics;
import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.LoginLimits;
import io.cleave.proxy.server.ProxyServer;
import io.cleave.proxy.server.XaRecovery;
import io.cleave.proxy.tls.SelfSignedCertificate;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The MySQL-protocol proxy as the daemon runs it, built from the config and the running shards. */
public final class CleaveProxyService implements ProxyService {

    /** What {@code cleave up} runs. */
    public static final ProxyFactory FACTORY = CleaveProxyService::new;

    private static final String TLS_DIR = "tls";

    private final ProxyContext context;
    private volatile ProxyServer server;
    /** Every shard is served by another home's server (after a switchover): this home's shards' events do not apply. */
    private volatile boolean forwarding;

    public CleaveProxyService(ProxyContext context) {
        this.context = context;
    }

    @Override
    public void start() throws Exception {
        ProxyConfig config = context.proxy();
        HostPort listen = config.listen();
        Path cert = config.tlsCert().orElse(context.stateDir().resolve(TLS_DIR).resolve("proxy-cert.pem"));
        Path key = config.tlsKey().orElse(context.stateDir().resolve(TLS_DIR).resolve("proxy-key.pem"));
        makeCertificateIfMissing(config, context.stateDir());
        Path socket = config.socket().orElse(context.runDir().resolve("proxy.sock"));
        io.cleave.proxy.server.ProxyConfig proxyConfig = new io.cleave.proxy.server.ProxyConfig(
                new InetSocketAddress(listen.host(), listen.port()),
                socket.equals(ProxyConfig.NO_SOCKET) ? null : socket, threads(config.threads()),
                config.maxBackendConnectionsPerShard(), config.backendWaitTimeout(), config.maxAllowedPacket(), cert, key,
                config.xaRecoveryInterval(), config.deadlockCheckAfter(), loginLimits(config.login()),
                config.transport(), config.pipelineDepth());
        MicrometerProxyMetrics metrics = new MicrometerProxyMetrics(context.meterRegistry(), context.shards().size());
        // The standby's relay, when one said where it connects from, sends its clients with PROXY headers.
        io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy proxyProtocol = io.cleave.manager.standby.relay.RelaySource
                .of(context.stateDir()).map(config.clientProxyProtocol()::trusting).orElse(config.clientProxyProtocol());
        server = ProxyServer.start(proxyConfig, context.topology(), context.shardMaps(), endpoints(), metrics,
                io.cleave.manager.standby.ForwardingProxies.of(context.stateDir()),
                runtime -> runtime.clientProxyProtocol(proxyProtocol));
        server.evaluationLimits(config.evaluate());
        server.runtime().schemaDriftLog(context.schemaDrift());
        server.runtime().refusedDatabaseDropped(context.refusedDatabaseDropped());
        server.consistentCuts(config.consistentCuts());
        // Idle connections to a shard that restarted are dead: drop them instead of failing a statement on each.
        // While a shard is down, statements any shard can answer go to the others.
        context.instanceEvents().subscribe((status, previous) -> {
            if (server == null || forwarding) {
                return;
            }
            if (status.state() == InstanceState.RUNNING && previous != InstanceState.RUNNING) {
                server.shardRestarted(status.index());
            } else if (status.state() != InstanceState.RUNNING && previous == InstanceState.RUNNING) {
                server.shardDown(status.index());
            }
        });
    }

    /**
     * Makes the proxy's self-signed certificate when none is configured and none was made yet. The daemon calls it
     * at the start of every home, a standby's too: an RSA key takes one to several seconds on a loaded host, which
     * a standby would otherwise spend in its take-over, between promoting its shards and serving.
     */
    static void makeCertificateIfMissing(ProxyConfig config, Path stateDir) throws java.io.IOException {
        if (config.tlsCert().isPresent()) {
            return;
        }
        Path cert = stateDir.resolve(TLS_DIR).resolve("proxy-cert.pem");
        long t0 = System.nanoTime();
        if (SelfSignedCertificate.createIfMissing(cert, config.tlsKey().orElse(stateDir.resolve(TLS_DIR)
                .resolve("proxy-key.pem")), "cleave-proxy")) {
            org.slf4j.LoggerFactory.getLogger(CleaveProxyService.class).info("made the proxy's self-signed TLS"
                    + " certificate {} in {} ms", cert, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static LoginLimits loginLimits(LoginConfig login) {
        return new LoginLimits(login.timeout(), (int) login.maxPacket(), new FailedLoginPolicy(
                login.failuresBeforeDelay(), login.failureDelay(), login.maxFailureDelay()));
    }

    /** A quarter of the cores by default: the shards on this host need the rest. */
    static int threads(int configured) {
        return configured > 0 ? configured : Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }

    /**
     * The shards the map names and the attached servers. A promoted standby can run a shard the map does not name
     * yet: its replica of the shard a scale was adding when the primary was lost, before that scale's flip. Nothing
     * routes there; a later scale adds it to the proxy as it adds any new shard.
     */
    private List<ShardEndpoint> endpoints() {
        int named = context.shardMaps().current().shardCount();
        List<ShardEndpoint> endpoints = new ArrayList<>();
        for (io.cleave.manager.daemon.ShardEndpoint s : context.shards()) {
            if (s.attached() || s.index() < named) {
                endpoints.add(endpoint(s));
            }
        }
        return endpoints;
    }

    private static ShardEndpoint endpoint(io.cleave.manager.daemon.ShardEndpoint s) {
        return new ShardEndpoint(s.index(), s.socket(), new InetSocketAddress(s.host(), s.port()), s.user(),
                s.secret().getBytes(StandardCharsets.UTF_8), s.attached());
    }

    @Override
    public void trustRelay(java.net.InetAddress address) {
        running().clientProxyProtocol(context.proxy().clientProxyProtocol().trusting(address));
    }

    @Override
    public void fence(String reason) {
        running().runtime().primaryFence().fence(reason);
    }

    @Override
    public void leaseUntil(long nanos) {
        running().runtime().primaryFence().leaseUntil(nanos);
    }

    @Override
    public void leaseGivenUp() {
        running().runtime().primaryFence().withoutLease();
    }

    @Override
    public void lift() {
        running().runtime().primaryFence().lift();
    }

    @Override
    public io.cleave.manager.standby.SwitchingProxy switching() {
        ProxyServer running = running();
        return new io.cleave.manager.standby.SwitchingProxy() {
            @Override
            public io.cleave.proxy.cutover.CutoverGate gate() {
                return running.runtime().cutover();
            }

            @Override
            public String runId() {
                return running.runtime().runId();
            }

            @Override
            public <T> T withoutRecovery(java.util.concurrent.Callable<T> work) throws Exception {
                return running.withoutRecovery(work);
            }

            @Override
            public void forwardTo(List<io.cleave.manager.standby.Attachment.ShardAddress> shards,
                                  java.util.Map<Integer, String> sockets, String user, String password) {
                forwarding = true;
                List<ShardEndpoint> endpoints = new ArrayList<>();
                for (io.cleave.manager.standby.Attachment.ShardAddress a : shards) {
                    String socket = sockets.get(a.shard());
                    Path local = socket != null && java.nio.file.Files.exists(Path.of(socket)) ? Path.of(socket) : null;
                    endpoints.add(new ShardEndpoint(a.shard(), local, new InetSocketAddress(a.host(), a.port()), user,
                            password.getBytes(StandardCharsets.UTF_8)));
                }
                running.forwardTo(endpoints);
            }

            @Override
            public boolean forwarding() {
                return forwarding;
            }

            @Override
            public void serveOwnShards(String otherRun) {
                if (otherRun != null) {
                    running.runtime().inDoubt().otherProxy(otherRun);
                } else {
                    running.runtime().inDoubt().forgetOtherProxies();
                }
                running.serveFrom(endpoints(), false);
                forwarding = false;
            }

            @Override
            public void serveNoShard() {
                forwarding = true;
                for (io.cleave.manager.daemon.ShardEndpoint s : context.shards()) {
                    running.removeShard(s.index());
                }
            }
        };
    }

    @Override
    public void addShard(io.cleave.manager.daemon.ShardEndpoint shard) {
        running().addShard(endpoint(shard));
    }

    @Override
    public void removeShard(int shard) {
        running().removeShard(shard);
    }

    @Override
    public int connectionsInUse(int shard) {
        return running().connectionsInUse(shard);
    }

    /** The proxy's bound port (useful when the config asked for port 0). */
    public int port() {
        return server.port();
    }

    public ProxyServer server() {
        return server;
    }

    @Override
    public List<XaRecovery.InDoubtBranch> inDoubt() {
        return running().inDoubt();
    }

    @Override
    public InDoubtResolution resolveInDoubt(String xid, boolean commit, boolean force) {
        return running().resolveInDoubt(xid, commit, force);
    }

    @Override
    public io.cleave.proxy.cutover.CutoverGate cutoverGate() {
        return running().runtime().cutover();
    }

    @Override
    public io.cleave.proxy.cut.CutWindows cuts() {
        return running().runtime().cuts();
    }

    @Override
    public io.cleave.router.unique.UniqueKeysView uniqueKeys() {
        ProxyServer s = server;
        return s == null ? io.cleave.router.unique.UniqueKeysView.NONE : s.runtime().uniqueIndexes()::of;
    }

    @Override
    public void uniqueKeyComplete(io.cleave.router.unique.UniqueIndex index) {
        ProxyServer s = server;
        if (s != null) {
            s.runtime().uniqueIndexes().complete(index);
        }
    }

    @Override
    public void uniqueKeyDropped(io.cleave.router.unique.UniqueIndex index) {
        ProxyServer s = server;
        if (s != null) {
            s.runtime().uniqueIndexes().remove(index);
        }
    }

    @Override
    public void uniqueKeyBuildsExclude(java.util.function.BooleanSupplier moves) {
        running().runtime().uniqueIndexes().movesUnderWay(moves);
    }

    @Override
    public void uniqueKeyChangesRefusedWhile(java.util.function.UnaryOperator<String> why) {
        running().runtime().uniqueIndexes().refuseChangesWhile(why);
    }

    @Override
    public boolean buildingUniqueKeys() {
        ProxyServer s = server;
        return s != null && s.runtime().uniqueIndexes().buildsUnderWay();
    }

    @Override
    public int recoverNow() {
        return running().recoverNow();
    }

    @Override
    public DeadlockReport latestDeadlock() {
        ProxyServer s = server;
        return s == null ? null : s.latestDeadlock();
    }

    private ProxyServer running() {
        ProxyServer s = server;
        if (s == null) {
            throw new IllegalStateException("the proxy is not running");
        }
        return s;
    }

    @Override
    public String describe() {
        if (server == null) {
            return "not started";
        }
        Path socket = server.runtime().config().socket();
        return "listening on " + server.address().getHostString() + ":" + server.port()
                + (socket != null ? " and " + socket : "")
                + (forwarding ? "; forwarding its clients to the primary's shards (move them to the primary's proxy)" : "");
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
