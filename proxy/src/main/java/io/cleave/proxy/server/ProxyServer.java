package io.cleave.proxy.server;

import io.cleave.proxy.accounts.AccountDirectory;
import io.cleave.proxy.accounts.AccountRows;
import io.cleave.proxy.accounts.Accounts;
import io.cleave.proxy.accounts.CleaveSchema;
import io.cleave.proxy.backend.BackendConnector;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.ShardEndpoint;
import io.cleave.proxy.frontend.FrontendInitializer;
import io.cleave.proxy.metrics.MicrometerProxyMetrics;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.transport.Transport;
import io.cleave.proxy.transport.TransportChoice;
import io.cleave.proxy.transport.TransportSelector;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The MySQL-protocol endpoint: accepts clients on the configured address and serves them from a
 * small set of event loops, each owning its own backend pools.
 */
public final class ProxyServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);
    /** Prepared statements across all of a shard's connections stay below this (max_prepared_stmt_count is 16382 by default). */
    private static final int SHARD_STATEMENT_BUDGET = 12_000;
    /** Most statements one backend connection keeps prepared. */
    private static final int MAX_STATEMENTS_PER_CONNECTION = 256;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Transport transport;
    private final Channel serverChannel;
    private final Channel socketChannel;
    private final ProxyRuntime runtime;
    private final ShardAdmin admin;
    private final XaRecovery recovery;
    private final java.util.concurrent.ScheduledExecutorService recoveryTimer;
    /** How often the cut windows' limits are enforced. */
    private static final long CUT_TICK_MILLIS = 10;

    private ProxyServer(EventLoopGroup boss, EventLoopGroup workers, Transport transport, Channel serverChannel,
                        Channel socketChannel, ProxyRuntime runtime, ShardAdmin admin, XaRecovery recovery) {
        this.boss = boss;
        this.workers = workers;
        this.transport = transport;
        this.serverChannel = serverChannel;
        this.socketChannel = socketChannel;
        this.runtime = runtime;
        this.admin = admin;
        this.recovery = recovery;
        this.recoveryTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "xa-recovery");
            t.setDaemon(true);
            return t;
        });
        // A window a shard never answers, or a commit held too long, is let go of within this.
        workers.next().scheduleAtFixedRate(runtime.cuts()::tick, CUT_TICK_MILLIS, CUT_TICK_MILLIS, TimeUnit.MILLISECONDS);
        // A branch whose shard or coordinator was down gets settled once they are back.
        long every = runtime.config().xaRecoveryInterval().toMillis();
        if (every > 0) {
            recoveryTimer.scheduleWithFixedDelay(this::recoverQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Prepared branches on the shards and their coordinators' decisions (for status and operators). */
    public java.util.List<XaRecovery.InDoubtBranch> inDoubt() {
        return recovery.scan();
    }

    /**
     * Commits or rolls back a transaction's prepared branches by hand; refused against its recorded
     * decision unless {@code force}.
     */
    public InDoubtResolution resolveInDoubt(String xid, boolean commit, boolean force) {
        refuseWhileFenced();
        return recovery.resolve(xid, commit, force);
    }

    /** Settles every branch whose decision is known, now; returns how many. */
    public int recoverNow() {
        refuseWhileFenced();
        return recovery.recover();
    }

    /** The I/O transport the proxy's loops run on ({@code proxy.transport} resolved on this host). */
    public Transport transport() {
        return transport;
    }

    public ShardAdmin admin() {
        return admin;
    }

    /** The last deadlock across shards the proxy broke, or null. */
    public io.cleave.proxy.deadlock.DeadlockReport latestDeadlock() {
        return runtime.deadlocks().latest();
    }

    /**
     * Starts listening. {@code metrics} may be {@link ProxyMetrics#NONE}; a
     * {@link MicrometerProxyMetrics} also gets backend pool gauges.
     */
    /** Whether reads across shards take consistent cuts (proxy.consistent_cuts; off only for tests and benchmarks). */
    public void consistentCuts(boolean on) {
        runtime.cuts().enabled(on);
    }

    /** Who may name a client's address with a PROXY protocol header (proxy.proxy_protocol_networks). */
    public void clientProxyProtocol(io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy policy) {
        runtime.clientProxyProtocol(policy);
    }

    /** How much one read evaluated on one shard may gather (proxy.evaluate_max_rows, proxy.evaluate_max_bytes). */
    public void evaluationLimits(io.cleave.proxy.evaluate.EvaluationLimits limits) {
        runtime.evaluationLimits(limits);
    }

    public static ProxyServer start(ProxyConfig config, Topology topology, ShardMapHolder shardMaps,
                                    List<ShardEndpoint> shards, ProxyMetrics metrics) throws InterruptedException {
        return start(config, topology, shardMaps, shards, metrics, java.util.Set.of());
    }

    /**
     * As above; {@code otherRuns}: runs of other live proxies serving these shards (an old primary's
     * proxy forwarding to them after a switchover), whose prepared branches recovery leaves alone.
     */
    public static ProxyServer start(ProxyConfig config, Topology topology, ShardMapHolder shardMaps,
                                    List<ShardEndpoint> shards, ProxyMetrics metrics, java.util.Set<String> otherRuns)
            throws InterruptedException {
        return start(config, topology, shardMaps, shards, metrics, otherRuns, runtime -> { });
    }

    /**
     * As above; {@code settings} is applied to the runtime before the proxy listens, so its first client finds
     * them (who may send a PROXY protocol header, above all: one set later would refuse a relay's first clients).
     */
    public static ProxyServer start(ProxyConfig config, Topology topology, ShardMapHolder shardMaps,
                                    List<ShardEndpoint> shards, ProxyMetrics metrics, java.util.Set<String> otherRuns,
                                    java.util.function.Consumer<ProxyRuntime> settings)
            throws InterruptedException {
        int expected = shardMaps.current().shardCount() + shardMaps.current().attached().size();
        if (shards.size() != expected) {
            throw new IllegalArgumentException("the shard map has " + expected + " shards (attached servers counted) but "
                    + shards.size() + " endpoints were given");
        }
        int threads = config.threads() > 0 ? config.threads() : Runtime.getRuntime().availableProcessors();
        TransportChoice choice = TransportSelector.ofThisHost().choose(config.transport());
        if (choice.fellBack()) {
            log.warn("proxy.transport auto: using {} ({})", choice.transport(), choice.passedOver());
        }
        Transport transport = choice.transport();
        if (config.socket() != null && !transport.hasDomainSockets()) {
            throw new IllegalStateException("the proxy's Unix socket " + config.socket() + " needs the epoll or io_uring"
                    + " transport (Linux), not " + transport + ": set proxy.socket: none, or another proxy.transport");
        }
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(threads, transport.ioHandlerFactory());
        ShardSlots slots = new ShardSlots();
        List<BackendConnector> connectors = new java.util.ArrayList<>();
        for (ShardEndpoint endpoint : shards) {
            BackendConnector connector = new BackendConnector(endpoint, transport, statementCache(config), 5_000);
            connectors.add(connector);
            slots.set(endpoint.shard(), connector);
        }
        SslContext ssl = sslContext(config);
        Accounts accounts = new Accounts(shards.get(0).user(), AccountDirectory.EMPTY);
        ProxyRuntime runtime = new ProxyRuntime(config, accounts, topology, shardMaps, slots, metrics, ssl, threads);
        settings.accept(runtime);
        otherRuns.forEach(runtime.inDoubt()::otherProxy);
        if (metrics instanceof MicrometerProxyMetrics micrometer) {
            for (ShardEndpoint endpoint : shards) {
                micrometer.backendGauges(endpoint.shard(), new PoolStats(runtime));
            }
        }
        StartPhases phases = new StartPhases();
        learnServerVersion(runtime, slots, workers);
        phases.ended("server version");
        try {
            ShardAdmin admin = new ShardAdmin(slots, workers);
            List<Integer> down = bootstrapShards(admin, runtime);
            phases.ended("proxy's tables and procedures");
            if (down.size() == admin.localShards().size()) {
                throw new IllegalStateException("no shard is reachable");
            }
            if (!down.isEmpty()) {
                // Serve what is up: statements for the shards that are down fail with an error
                // naming them, and those shards are prepared when they come back.
                log.warn("shards {} are unreachable; the proxy starts without them", down);
                down.forEach(runtime.availability()::markDown);
            }
            for (BackendConnector connector : connectors) {
                sizeStatementCache(admin, connector, runtime.backendConnectionsPerShard());
            }
            phases.ended("statement caches");
            loadAccounts(admin, runtime, down);
            phases.ended("accounts");
            XaRecovery recovery = new XaRecovery(admin, runtime.inDoubt(), metrics, new XaRecovery.BranchListener() {
                @Override
                public void settled(int shard, String xid) {
                    runtime.cuts().settled(shard, xid);
                }

                @Override
                public long scanning() {
                    return runtime.cuts().mark();
                }

                @Override
                public void preparedOn(int shard, java.util.Set<String> xids, long mark) {
                    runtime.cuts().preparedOn(shard, xids, mark);
                }
            });
            int settled = recovery.recover();
            if (settled > 0) {
                log.info("recovery settled {} in-doubt transaction branch(es) left by an earlier run", settled);
            }
            phases.ended("recovery");
            loadUniqueIndexes(admin, runtime);
            phases.ended("unique keys");
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                    .childHandler(new FrontendInitializer(runtime))
                    .bind(config.listen()).sync().channel();
            Channel socket = null;
            if (config.socket() != null) {
                java.nio.file.Files.deleteIfExists(config.socket());
                socket = new ServerBootstrap()
                        .group(boss, workers)
                        .channel(transport.serverDomainChannel())
                        .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                        .childHandler(new FrontendInitializer(runtime))
                        .bind(new io.netty.channel.unix.DomainSocketAddress(config.socket().toFile())).sync().channel();
            }
            runtime.startDeadlockDetector((io.netty.channel.EventLoop) workers.next());
            phases.ended("listening");
            log.info("proxy listening on {}{} ({} event loops, {} shards, {} transport; started in: {})",
                    channel.localAddress(), socket != null ? " and " + config.socket() : "", threads, shards.size(),
                    transport, phases);
            return new ProxyServer(boss, workers, transport, channel, socket, runtime, admin, recovery);
        } catch (java.io.IOException e) {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("cannot listen on " + config.socket() + ": " + e.getMessage(), e);
        } catch (RuntimeException | InterruptedException e) {
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Reads the accounts clients log in with from the shards' grant tables (one shard is enough:
     * account statements go to all of them). Without accounts nobody could log in: that stops the start.
     */
    private static void loadAccounts(ShardAdmin admin, ProxyRuntime runtime, List<Integer> down) {
        String sql = AccountRows.query(runtime.serverVersion());
        String last = "no shard is reachable";
        for (int shard : admin.localShards()) {
            if (down.contains(shard)) {
                continue;
            }
            try {
                List<List<String>> rows = new java.util.ArrayList<>();
                for (ShardAdmin.Row row : admin.query(shard, sql)) {
                    rows.add(row.values());
                }
                AccountDirectory directory = AccountRows.directory(rows, runtime.accounts().shardAccountUser());
                runtime.accounts().directory(directory);
                log.info("{} accounts and roles read from shard {}", directory.size(), shard);
                return;
            } catch (ShardAdmin.ShardAdminException e) {
                last = e.getMessage();
            }
        }
        throw new IllegalStateException("cannot read the accounts from the shards' grant tables: " + last);
    }

    private static int statementCache(ProxyConfig config) {
        return Math.max(1, Math.min(MAX_STATEMENTS_PER_CONNECTION,
                SHARD_STATEMENT_BUDGET / config.maxBackendConnectionsPerShard() - 1));
    }

    /**
     * Serves one more shard (a local shard a scale added, or an import's source): its slot gets a
     * connector, a local shard gets the proxy's tables. Called before the shard map names it.
     */
    public void addShard(ShardEndpoint endpoint) {
        BackendConnector connector = new BackendConnector(endpoint, transport, statementCache(runtime.config()), 5_000);
        runtime.slots().set(endpoint.shard(), connector);
        if (runtime.metrics() instanceof MicrometerProxyMetrics micrometer) {
            micrometer.backendGauges(endpoint.shard(), new PoolStats(runtime));
        }
        if (!endpoint.attached() && !bootstrapShard(admin, runtime, endpoint.shard())) {
            throw new IllegalStateException(endpoint.describe() + " does not answer");
        }
        sizeStatementCache(admin, connector, runtime.backendConnectionsPerShard());
        runtime.availability().markUp(endpoint.shard());
        log.info("serving {}", endpoint.describe());
    }

    /**
     * Serves every shard from another server from now on (a standby pair's switchover: the other
     * home's shards took over): each slot gets a connector to its new endpoint, and each loop's
     * pool starts afresh at its next use (connections to the old servers close as they come back).
     * This proxy's recovery then settles only its own run's branches: the other home's proxy serves
     * those shards too. Run while no statement reaches a shard (a cutover holds them).
     */
    public void forwardTo(List<ShardEndpoint> endpoints) {
        serveFrom(endpoints, true);
    }

    /**
     * Serves every shard from {@code endpoints}: another home's servers when {@code forwarding} (see {@link
     * #forwardTo}), else this home's own again (the pair switched back), where this proxy's recovery settles
     * every branch but those of other proxies it was told of.
     */
    public void serveFrom(List<ShardEndpoint> endpoints, boolean forwarding) {
        runtime.inDoubt().onlyRun(forwarding ? runtime.runId() : null);
        for (ShardEndpoint endpoint : endpoints) {
            runtime.slots().set(endpoint.shard(), new BackendConnector(endpoint, transport,
                    statementCache(runtime.config()), 5_000));
            runtime.availability().markUp(endpoint.shard());
            log.info("serving shard {} from {}", endpoint.shard(), endpoint.describe());
        }
    }

    /** Runs {@code work} while no recovery pass or operator's resolution runs (they would write to the shards). */
    public <T> T withoutRecovery(java.util.concurrent.Callable<T> work) throws Exception {
        return recovery.exclusive(work);
    }

    /**
     * Stops serving a shard the shard map no longer names: its pools close (connections in use
     * close when their statements end); later statements naming it fail.
     */
    public void removeShard(int shard) {
        runtime.slots().clear(shard);
        for (LoopResources loop : runtime.allLoops()) {
            loop.loop().execute(() -> loop.dropPool(shard));
        }
        log.info("no longer serving shard {}", shard);
    }

    /** Connections borrowed from the shard's pools across loops now (a leaving shard is stopped once none are). */
    public int connectionsInUse(int shard) {
        return new PoolStats(runtime).inUse(shard);
    }

    /**
     * Clients see the shards' version string (drivers choose dialect and features by it), so ask
     * the first shard that answers for it once before accepting anyone.
     */
    private static void learnServerVersion(ProxyRuntime runtime, ShardSlots slots, EventLoopGroup workers) {
        for (int s = 0; s < slots.extent(); s++) {
            ShardConnector connector = slots.get(s);
            if (connector == null || connector.endpoint().attached()) {
                continue;
            }
            try {
                io.cleave.proxy.backend.BackendConnection probe = connector.connect(
                        (io.netty.channel.EventLoop) workers.next(), io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT, 0)
                        .get(10, TimeUnit.SECONDS);
                runtime.serverVersion(probe.server().version());
                probe.close();
                return;
            } catch (Exception e) {
                log.warn("could not learn the server version from {}: {}", connector.endpoint().describe(),
                        e.getMessage());
            }
        }
        log.warn("no shard told its server version; clients see {}", runtime.serverVersion());
    }

    private static SslContext sslContext(ProxyConfig config) {
        if (config.tlsCertificate() == null) {
            return null;
        }
        try {
            return SslContextBuilder.forServer(config.tlsCertificate().toFile(), config.tlsPrivateKey().toFile())
                    .protocols("TLSv1.3", "TLSv1.2").build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + config.tlsCertificate() + " / key "
                    + config.tlsPrivateKey() + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public ProxyRuntime runtime() {
        return runtime;
    }

    /** A shard is back after a restart: its idle backend connections are dead, its in-doubt branches due. */
    public void shardRestarted(int shard) {
        runtime.availability().markUp(shard);
        for (LoopResources loop : runtime.allLoops()) {
            loop.loop().execute(() -> {
                BackendPool pool = loop.existingPool(shard);
                if (pool != null) {
                    pool.closeIdle();
                }
            });
        }
        // Branches prepared on it (or coordinated from it) may be waiting for it: settle them now
        // rather than at the next periodic pass.
        recoveryTimer.execute(() -> {
            try {
                // A shard that was down when the proxy started has not got the proxy's tables yet.
                bootstrapShard(admin, runtime, shard);
            } catch (RuntimeException e) {
                log.warn("shard {}: {}", shard, e.getMessage());
            }
            recoverQuietly();
            if (!runtime.uniqueIndexes().loaded()) {
                loadUniqueIndexes(admin, runtime);
            }
        });
    }

    /** A shard stopped answering (crashed, or its server is being restarted). */
    public void shardDown(int shard) {
        runtime.availability().markDown(shard);
    }

    /**
     * A fenced home settles nothing: its shards' branches are the new primary's to settle, by the decision rows
     * it replicated (a decision this home holds but the new primary lacks was never acknowledged).
     */
    private void refuseWhileFenced() {
        PrimaryFence fence = runtime.primaryFence();
        if (fence.fenced()) {
            throw new IllegalStateException(fence.refusal().message());
        }
    }

    private void recoverQuietly() {
        if (runtime.primaryFence().fenced()) {
            return;
        }
        try {
            recovery.recover();
        } catch (RuntimeException e) {
            log.warn("recovery failed", e);
        }
    }

    /**
     * Sizes a shard's per-connection statement cache so that all the proxy's connections to it
     * together stay within three quarters of its max_prepared_stmt_count (the rest is for other
     * clients and SQL PREPARE), counting the one extra statement a connection holds while
     * replacing an evicted one.
     */
    private static void sizeStatementCache(ShardAdmin admin, BackendConnector connector, int connectionsPerShard) {
        int shard = connector.endpoint().shard();
        int budget = SHARD_STATEMENT_BUDGET;
        try {
            long max = Long.parseLong(admin.query(shard, "SELECT @@global.max_prepared_stmt_count").get(0).get(0));
            budget = (int) Math.min(budget, max * 3 / 4);
        } catch (ShardAdmin.ShardAdminException | RuntimeException e) {
            log.warn("shard {}: could not read max_prepared_stmt_count ({}); assuming the default", shard,
                    e.getMessage());
        }
        int perConnection = Math.min(MAX_STATEMENTS_PER_CONNECTION, budget / connectionsPerShard - 1);
        if (perConnection < 1) {
            log.warn("shard {}: max_prepared_stmt_count leaves fewer than 2 statements per backend connection for"
                    + " {} connections: raise it or lower proxy.max_backend_connections_per_shard", shard,
                    connectionsPerShard);
            perConnection = 1;
        }
        connector.statementCacheSize(perConnection);
        log.debug("shard {}: {} prepared statements per backend connection", shard, perConnection);
    }

    /**
     * The global unique keys the catalog lists, read once recovery has settled what an earlier run
     * left prepared (a key declared by a commit that was under way).
     */
    private static void loadUniqueIndexes(ShardAdmin admin, ProxyRuntime runtime) {
        int home = runtime.topology().defaultShard();
        List<io.cleave.router.unique.UniqueIndex> found = new java.util.ArrayList<>();
        List<List<String>> unfinished = new java.util.ArrayList<>();
        try {
            for (ShardAdmin.Row row : admin.query(home, io.cleave.proxy.unique.UniqueIndexes.CATALOG_SELECT)) {
                found.add(io.cleave.proxy.unique.UniqueIndexes.fromRow(row.values()));
            }
            for (ShardAdmin.Row row : admin.query(home, io.cleave.proxy.unique.UniqueIndexes.BUILDS_SELECT)) {
                unfinished.add(row.values());
            }
        } catch (ShardAdmin.ShardAdminException e) {
            if (!e.unreachable()) {
                throw new IllegalStateException("cannot read the global unique keys from shard " + home + ": "
                        + e.getMessage(), e);
            }
            // Until the default shard is back, writes to sharded tables are refused: any could have such a key.
            log.warn("shard {} is unreachable: the global unique keys are read when it is back; until then writes to"
                    + " sharded tables are refused", home);
            runtime.uniqueIndexes().unknown();
            return;
        }
        runtime.uniqueIndexes().load(found, unfinished);
        if (!found.isEmpty()) {
            log.info("global unique keys: {}", found);
        }
        if (!unfinished.isEmpty()) {
            log.warn("the build of global unique keys {} was interrupted: writes to their tables are refused until the"
                    + " keys are dropped and created again", unfinished);
        }
    }

    /** Prepares every reachable shard; returns the shards that could not be reached. */
    private static List<Integer> bootstrapShards(ShardAdmin admin, ProxyRuntime runtime) {
        List<Integer> down = new java.util.ArrayList<>();
        for (int shard : admin.localShards()) {
            if (!bootstrapShard(admin, runtime, shard)) {
                down.add(shard);
            }
        }
        return down;
    }

    /**
     * Creates the proxy's schema on one shard (idempotent; see {@link CleaveSchema}). Returns false
     * when the shard cannot be reached; a shard that refuses the statements is a configuration
     * error and stops the start, except for the grants to PUBLIC, which only MariaDB 10.11 and
     * later take: without them, cross-shard commits and evaluated reads need the procedures
     * granted to each account.
     */
    private static boolean bootstrapShard(ShardAdmin admin, ProxyRuntime runtime, int shard) {
        for (CleaveSchema.Step step : CleaveSchema.setup(runtime.runId(), runtime.lookupSecret(), runtime.proxyProtocol())) {
            try {
                if (step.unless() != null && !admin.query(shard, step.unless()).isEmpty()) {
                    continue;
                }
                admin.query(shard, step.sql());
            } catch (ShardAdmin.ShardAdminException e) {
                if (e.unreachable()) {
                    return false;
                }
                if (step.optional()) {
                    log.warn("shard {}: {} failed ({}): accounts need EXECUTE on Cleave's procedures and SELECT on {}"
                            + " granted to them for cross-shard commits, reads evaluated on one shard and transactions"
                            + " joined at a cut", shard, step.sql(), e.getMessage(), CleaveSchema.READ_VIEW);
                    continue;
                }
                throw new IllegalStateException("cannot prepare shard " + shard + " for the proxy: " + e.getMessage(), e);
            }
        }
        return true;
    }

    @Override
    public void close() {
        recoveryTimer.shutdownNow();
        runtime.deadlocks().close();
        serverChannel.close().syncUninterruptibly();
        if (socketChannel != null) {
            socketChannel.close().syncUninterruptibly();
        }
        for (LoopResources loop : runtime.allLoops()) {
            loop.loop().execute(loop::close);
        }
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Sums pool counters across loops for the gauges (plain reads; a scrape may see a moment's skew). */
    private record PoolStats(ProxyRuntime runtime) implements MicrometerProxyMetrics.BackendPoolStats {
        @Override
        public int inUse(int shard) {
            int n = 0;
            for (LoopResources l : runtime.allLoops()) {
                BackendPool pool = l.existingPool(shard);
                n += pool == null ? 0 : pool.inUse();
            }
            return n;
        }

        @Override
        public int idle(int shard) {
            int n = 0;
            for (LoopResources l : runtime.allLoops()) {
                BackendPool pool = l.existingPool(shard);
                n += pool == null ? 0 : pool.idle();
            }
            return n;
        }

        @Override
        public int waiting(int shard) {
            int n = 0;
            for (LoopResources l : runtime.allLoops()) {
                BackendPool pool = l.existingPool(shard);
                n += pool == null ? 0 : pool.waiting();
            }
            return n;
        }
    }
}
