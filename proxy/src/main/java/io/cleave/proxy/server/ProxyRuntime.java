package io.cleave.proxy.server;

import io.cleave.proxy.accounts.Accounts;
import io.cleave.proxy.auth.FailedLogins;
import io.cleave.proxy.auth.RsaKeys;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.session.TransactionVariables;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;

import java.security.KeyPair;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every client connection of one proxy shares: configuration, accounts, routing, shard
 * connectors, metrics, and the per-loop resources. Thread-safe.
 */
public final class ProxyRuntime {

    private volatile io.cleave.proxy.evaluate.EvaluationLimits evaluationLimits =
            io.cleave.proxy.evaluate.EvaluationLimits.DEFAULT;

    private final ProxyConfig config;
    private final Accounts accounts;
    private final ShardMapHolder shardMaps;
    private final ShardSlots slots;
    private final ProxyMetrics metrics;
    private final SslContext sslContext;
    private final int perLoopLimit;
    private final int loopCount;
    private final AtomicLong connectionIds = new AtomicLong();
    private final Map<EventLoop, LoopResources> loops = new ConcurrentHashMap<>();
    private volatile boolean oneLoop;
    private final io.cleave.router.plan.Router router;
    private final io.cleave.router.plan.TargetResolver resolver;
    private final io.cleave.proxy.frontend.SequenceService sequences;
    private final io.cleave.proxy.unique.UniqueIndexes uniqueIndexes = new io.cleave.proxy.unique.UniqueIndexes();
    private final io.cleave.proxy.frontend.TableColumns tableColumns;
    private final io.cleave.proxy.frontend.StoredRoutines routines;
    /** The application's prepared XA branches this proxy saw prepared, by xid key: the shard holding each. */
    private final Map<String, Integer> preparedXa = new ConcurrentHashMap<>();
    private final io.cleave.proxy.frontend.ClientProcesses processes = new io.cleave.proxy.frontend.ClientProcesses();
    private final InDoubtRegistry inDoubt = new InDoubtRegistry();
    private final CommitFence commitFence;
    private final PrimaryFence primaryFence = new PrimaryFence();
    /** Decision rows being deleted after their transaction's branches committed (a switch of every shard waits for them). */
    private final CommitFence decisionCleanups;

    private final io.cleave.proxy.cut.CutWindows cuts;
    private final FailedLogins failedLogins;
    private final io.cleave.proxy.cutover.CutoverGate cutover;
    private final ShardAvailability availability;
    private final io.cleave.proxy.deadlock.DeadlockDetector deadlocks;
    private volatile CommitHooks commitHooks = CommitHooks.fromSystemProperties();
    private volatile SchemaDriftLog schemaDriftLog = SchemaDriftLog.NONE;
    /** Who may name a client's address with a PROXY protocol header; read as each client connects. */
    private volatile io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy clientProxyProtocol =
            io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy.OFF;
    private volatile java.util.function.Consumer<String> refusedDatabaseDropped = name -> { };
    /**
     * Distinguishes this run's XA ids from an earlier run's (whose in-doubt branches recovery
     * settles); its random part, recorded in cleave.runs, is what cleave.decide checks a decision by.
     */
    private final String runId = Long.toHexString(System.currentTimeMillis()) + "-"
            + String.format("%012x", new java.security.SecureRandom().nextLong() & 0xffff_ffff_ffffL);
    /** Seals the run's statements on lookup tables ({@link io.cleave.proxy.unique.LookupCalls}); stored on every shard. */
    private final String lookupSecret = io.cleave.proxy.unique.LookupCalls.newSecret();
    private final io.cleave.proxy.unique.LookupCalls lookupCalls = new io.cleave.proxy.unique.LookupCalls(lookupSecret);
    private volatile KeyPair rsaKeys;
    private volatile String serverVersion = "8.0.0-cleave";
    private volatile TransactionVariables transactionVariables = TransactionVariables.CURRENT;

    /**
     * @param topology  the configured routing model; the shard map's rules and shard count apply over
     *                  it, and the router follows every map version that changes them
     * @param slots     the shards' connectors, by shard number (shards come and go while it runs)
     * @param loopCount the event loops that will serve clients
     */
    public ProxyRuntime(ProxyConfig config, Accounts accounts, Topology topology, ShardMapHolder shardMaps,
                        ShardSlots slots, ProxyMetrics metrics, SslContext sslContext, int loopCount) {
        this.config = config;
        this.accounts = accounts;
        this.shardMaps = shardMaps;
        this.slots = slots;
        this.availability = new ShardAvailability(ShardSlots.CAPACITY);
        this.commitFence = new CommitFence(ShardSlots.CAPACITY);
        this.decisionCleanups = new CommitFence(ShardSlots.CAPACITY);
        this.cuts = new io.cleave.proxy.cut.CutWindows(System::nanoTime, metrics.cuts(), commitFence);
        this.failedLogins = new FailedLogins(config.login().failedLogins());
        this.metrics = metrics;
        this.sslContext = sslContext;
        this.loopCount = loopCount;
        this.perLoopLimit = Math.max(1, (config.maxBackendConnectionsPerShard() + loopCount - 1) / loopCount);
        this.router = new io.cleave.router.plan.Router(shardMaps.current().routing(topology));
        // Published from the mover's fence, before held statements run again: they are planned by the new rules.
        shardMaps.onPublish(map -> router.retarget(map.routing(topology)));
        this.resolver = new io.cleave.router.plan.TargetResolver(topology);
        this.sequences = new io.cleave.proxy.frontend.SequenceService(topology.defaultShard(),
                () -> shardMaps.current().shardCount());
        // A transaction's room for shards grows as it reaches more (a scale adds shards).
        this.deadlocks = new io.cleave.proxy.deadlock.DeadlockDetector(config.deadlockCheckAfter(), 1, metrics);
        this.tableColumns = new io.cleave.proxy.frontend.TableColumns(topology.defaultShard());
        this.routines = new io.cleave.proxy.frontend.StoredRoutines(topology.defaultShard());
        // A cutover waits for the branch commits of answered transactions and for the decision rows' deletion
        // after them: neither may reach a shard once the cutover has switched it.
        this.cutover = new io.cleave.proxy.cutover.CutoverGate(resolver, shardMaps::current,
                (shard, then) -> commitFence.whenEnded(shard, () -> decisionCleanups.whenEnded(shard, then)));
    }

    /** Tracks client transactions and breaks deadlocks that span shards (inert until the server starts it). */
    public io.cleave.proxy.deadlock.DeadlockDetector deadlocks() {
        return deadlocks;
    }

    /** Starts the deadlock detector: its shard connections run on {@code controlLoop}. */
    void startDeadlockDetector(EventLoop controlLoop) {
        deadlocks.start(slots, controlLoop, this::allLoops);
    }

    /** Where moves hold statements on moving keys while the shard map changes. */
    public io.cleave.proxy.cutover.CutoverGate cutover() {
        return cutover;
    }

    /** The most backend connections this proxy opens to one shard (the per-loop cap times the loops). */
    public int backendConnectionsPerShard() {
        return perLoopLimit * loopCount;
    }

    /** Failed logins per client host, shared by every loop (see {@link LoginLimits#failedLogins()}). */
    public FailedLogins failedLogins() {
        return failedLogins;
    }

    /** Where statements wait for branch commits of acknowledged cross-shard transactions. */
    /** Whether this home may write as its standby pair's primary (set by the daemon). */
    public PrimaryFence primaryFence() {
        return primaryFence;
    }

    public CommitFence commitFence() {
        return commitFence;
    }

    /** Decision-row deletions under way, by coordinator shard (not a fence statements wait at: only cutovers wait for them). */
    public CommitFence decisionCleanups() {
        return decisionCleanups;
    }

    /** Where cuts wait for cross-shard commits' decisions and branch commits, and those for cuts (see {@link io.cleave.proxy.cut.CutWindows}). */
    public io.cleave.proxy.cut.CutWindows cuts() {
        return cuts;
    }

    public InDoubtRegistry inDoubt() {
        return inDoubt;
    }

    public CommitHooks commitHooks() {
        return commitHooks;
    }

    /** For tests that stop a commit at a step in-process. */
    public void commitHooks(CommitHooks hooks) {
        this.commitHooks = hooks;
    }

    /** Where structure changes that applied on some shards only are recorded. */
    public SchemaDriftLog schemaDriftLog() {
        return schemaDriftLog;
    }

    public void schemaDriftLog(SchemaDriftLog log) {
        this.schemaDriftLog = log;
    }

    /**
     * Told (on an event loop: it must not block) the name of a database the shard map refused once a client dropped
     * it on every shard, so that whoever keeps the map serves the name again.
     */
    public java.util.function.Consumer<String> refusedDatabaseDropped() {
        return refusedDatabaseDropped;
    }

    public void refusedDatabaseDropped(java.util.function.Consumer<String> listener) {
        this.refusedDatabaseDropped = listener;
    }

    public String runId() {
        return runId;
    }

    public String lookupSecret() {
        return lookupSecret;
    }

    /** How lookup tables are reached on clients' connections: through Cleave's procedure on MariaDB shards. */
    public io.cleave.proxy.unique.LookupCalls lookupCalls() {
        return proxyProtocol() ? lookupCalls : io.cleave.proxy.unique.LookupCalls.DIRECT;
    }

    public io.cleave.proxy.frontend.SequenceService sequences() {
        return sequences;
    }

    /** The global unique keys the proxy enforces through lookup tables. */
    public io.cleave.proxy.unique.UniqueIndexes uniqueIndexes() {
        return uniqueIndexes;
    }

    /** The proxy's client sessions (SHOW PROCESSLIST). */
    public io.cleave.proxy.frontend.ClientProcesses processes() {
        return processes;
    }

    public io.cleave.proxy.frontend.TableColumns tableColumns() {
        return tableColumns;
    }

    /** The application's XA branches prepared through this proxy and not yet ended, by xid: their shard. */
    public Map<String, Integer> preparedXa() {
        return preparedXa;
    }

    /** The home's stored procedures and functions, for CALL. */
    public io.cleave.proxy.frontend.StoredRoutines routines() {
        return routines;
    }

    public io.cleave.router.plan.Router router() {
        return router;
    }

    public io.cleave.router.plan.TargetResolver resolver() {
        return resolver;
    }

    /** How much one read evaluated on one shard may gather. */
    public io.cleave.proxy.evaluate.EvaluationLimits evaluationLimits() {
        return evaluationLimits;
    }

    /** Set once, before clients connect. */
    public void evaluationLimits(io.cleave.proxy.evaluate.EvaluationLimits limits) {
        this.evaluationLimits = java.util.Objects.requireNonNull(limits);
    }

    public ProxyConfig config() {
        return config;
    }

    /** The shards' accounts: logins are checked against them, and statements run as them. */
    public Accounts accounts() {
        return accounts;
    }

    /**
     * Whether the shards' server takes a PROXY protocol header (MariaDB does, for the addresses in
     * its proxy_protocol_networks): then a client's account is picked on the shards by the client's
     * own address.
     */
    public boolean proxyProtocol() {
        return serverVersion.toLowerCase(java.util.Locale.ROOT).contains("mariadb");
    }

    /** Who may name a client's address with a PROXY protocol header in front of the MySQL protocol. */
    public io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy clientProxyProtocol() {
        return clientProxyProtocol;
    }

    /** From the next client connection on (one that connected before keeps what it was given). */
    public void clientProxyProtocol(io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy policy) {
        this.clientProxyProtocol = java.util.Objects.requireNonNull(policy);
    }

    /** The routing model statements are planned by now (the config's, with the shard map's rules over it). */
    public Topology topology() {
        return router.topology();
    }

    public ShardMapHolder shardMaps() {
        return shardMaps;
    }

    public ProxyMetrics metrics() {
        return metrics;
    }

    public SslContext sslContext() {
        return sslContext;
    }

    /** The shards the proxy reaches, by index. */
    public ShardSlots slots() {
        return slots;
    }

    public long nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    /** The version string clients see: the shards' own, so clients pick the right dialect. */
    public String serverVersion() {
        return serverVersion;
    }

    /** The names the shards' server gives the session's isolation level and read-only flag. */
    public TransactionVariables transactionVariables() {
        return transactionVariables;
    }

    /** What the shards' server calls itself (told at start; flow tests play MariaDB shards so). */
    public void serverVersion(String version) {
        this.serverVersion = version;
        this.transactionVariables = TransactionVariables.of(version);
        // Which version comments run depends on the server: the router reads statements as it does.
        router.serverVersion(version);
    }

    /** The RSA key pair for caching_sha2_password without TLS, made on first use. */
    public KeyPair rsaKeys() {
        KeyPair keys = rsaKeys;
        if (keys == null) {
            synchronized (this) {
                keys = rsaKeys;
                if (keys == null) {
                    keys = RsaKeys.generate();
                    rsaKeys = keys;
                }
            }
        }
        return keys;
    }

    public LoopResources loop(EventLoop loop) {
        if (oneLoop && !loops.isEmpty()) {
            return loops.values().iterator().next();
        }
        return loops.computeIfAbsent(loop, l -> new LoopResources(l, slots, perLoopLimit, config.pipelineDepth(),
                config.backendAcquireTimeout().toMillis(), metrics, availability, shardMaps, accounts.logins()));
    }

    /**
     * Serves every client with the resources of the first loop asked for, as if all were one loop.
     * For flow tests only, where every embedded channel has a loop of its own but all run on the
     * test's thread: clients that share pools can share backend connections.
     */
    public void serveEveryLoopAsOne() {
        oneLoop = true;
    }

    public ShardAvailability availability() {
        return availability;
    }

    Iterable<LoopResources> allLoops() {
        return loops.values();
    }
}
