package io.cleave.manager.daemon;

import io.cleave.manager.admin.AdminError;
import io.cleave.manager.admin.AdminServer;
import io.cleave.manager.admin.ExplainReport;
import io.cleave.manager.admin.InDoubtTransactions;
import io.cleave.manager.admin.InstanceMetrics;
import io.cleave.manager.admin.RecoveryReport;
import io.cleave.manager.admin.StatusReport;
import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.config.CoordinationConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.manager.home.DaemonLock;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.MoveEnvironment;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MoveJournal;
import io.cleave.manager.move.MoveMetrics;
import io.cleave.manager.move.MoveService;
import io.cleave.manager.move.MoveSettings;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ShardAccount;
import io.cleave.manager.supervisor.InstanceListener;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.manager.supervisor.InstanceSupervisor;
import io.cleave.manager.supervisor.MysqldLauncher;
import io.cleave.manager.supervisor.ProcessInspector;
import io.cleave.manager.supervisor.ReadinessProbe;
import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery;
import io.cleave.router.plan.Explainer;
import io.cleave.router.plan.Router;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.sql.lex.SqlMode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon of one home: loads the config, provisions the home, supervises every shard instance,
 * serves the admin API and /metrics, and runs the proxy once every shard is ready or given up. Usable
 * in-process (tests start it directly); {@code cleave up} wraps it.
 *
 * <p>Order: start = provision, admin API, shards (adopted or launched), wait for readiness, proxy.
 * Stop = proxy, shards (in parallel, cleanly), admin API.
 */
public final class Daemon implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Daemon.class);

    private final DaemonOptions options;
    private final CleaveHome home;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final List<InstanceListener> listeners = new CopyOnWriteArrayList<>();
    private final Object lifecycle = new Object();

    private DaemonLock lock;
    private CleaveConfig config;
    private Provisioned provisioned;
    private PrometheusMeterRegistry registry;
    private ScheduledExecutorService scheduler;
    private final Supervisors supervisors = new Supervisors();
    private AdminServer admin;
    private MoveService moves;
    private io.cleave.manager.imports.ImportService imports;
    private io.cleave.manager.scale.ScaleService scale;
    private io.cleave.manager.backup.BackupService backups;
    private io.cleave.manager.backup.archive.BinlogArchiver archiver;
    private ShardLinks links;
    private io.cleave.manager.accounts.AccountSync accounts;
    private io.cleave.manager.schema.DriftJournal driftJournal;
    private io.cleave.manager.standby.PrimarySide primarySide;
    /** The instances as a scale adds them, and as a standby adds replicas of the shards its primary's scale added. */
    private ScalableInstances scalable;
    private io.cleave.manager.standby.ReplicationMonitor replication;
    private io.cleave.manager.standby.layout.PairLayout pairLayout;
    /** On a standby: its replicas of the shards its primary's scale down took away go. */
    private io.cleave.manager.standby.layout.ReplicaRetirement retirement;
    /** Who is the pair's primary, through etcd; null without a coordination section. */
    private io.cleave.manager.coordination.PairCoordinator coordination;
    private io.cleave.manager.coordination.ShardsReadOnly shardsReadOnly;
    /** Read by admin API threads. */
    private volatile ProxyService proxy;
    /** Read by admin API threads. */
    private volatile String proxyState = "not started";
    /** Held while a promotion runs: two at once would bump the epoch twice. */
    private final Object promoting = new Object();
    /** On a standby whose own proxy does not run: its proxy port, relaying clients to the primary's proxy. */
    private volatile io.cleave.manager.standby.relay.PrimaryProxyRelay relay;
    /** This home's forwarding proxy held for the primary's switchover (made at the first hold). */
    private volatile io.cleave.manager.standby.ForwardingHold forwardingHold;
    /** The old primary of a switchover whose proxy may still forward here (layout changes wait for it). */
    private io.cleave.manager.standby.forwarding.ForwardingPeer forwardingPeer;
    private Instant startedAt;
    private boolean closed;

    public Daemon(DaemonOptions options) {
        this.options = options;
        this.home = options.home();
    }

    /**
     * Starts everything and waits until every shard is RUNNING or given up (CRASH_LOOP), up to
     * {@link DaemonOptions#readyTimeout()}. A shard that never becomes ready does not fail start:
     * the daemon keeps supervising and reports why in status; the proxy serves the shards that are
     * ready, and stays down only when none is.
     *
     * @throws RuntimeException when the config is invalid or the home cannot be provisioned
     */
    public void start() {
        synchronized (lifecycle) {
            startedAt = Instant.now();
            home.createDirectories();
            lock = DaemonLock.acquire(home);
            try {
                config = ConfigLoader.load(options.configFile());
                provisioned = new Provisioner(home, io.cleave.manager.standby.PrimarySide.withPairOptions(config, home),
                        options.cacheDir(), options.pathVariable()).prepare();
                checkPortsFree(provisioned.plans());
                registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                scheduler = Executors.newScheduledThreadPool(4, daemonThreads("supervisor"));
                ReadinessProbe probe = new ReadinessProbe(ShardAccount.USER, provisioned.account().secret());
                MysqldLauncher launcher = new MysqldLauncher(provisioned.binary(), provisioned.accountInitFile());
                InstanceMetrics metrics = new InstanceMetrics(registry);
                java.util.function.Function<InstancePlan, InstanceSupervisor> supervise = plan -> {
                    InstanceSupervisor s = new InstanceSupervisor(plan, launcher, probe, provisioned.account(),
                            options.restartPolicy(), Clock.systemUTC(), scheduler, this::fireStateChanged, metrics);
                    metrics.bind(List.of(s));
                    return s;
                };
                List<InstanceSupervisor> list = new ArrayList<>();
                for (InstancePlan plan : provisioned.plans()) {
                    list.add(supervise.apply(plan));
                }
                supervisors.set(list);
                MapUpdates maps = new MapUpdates(provisioned.shardMaps(), new ShardMapStore(home.shardMapFile()),
                        config.sharding().topology());
                links = new ShardLinks(shardEndpoints());
                accounts = new io.cleave.manager.accounts.AccountSync(config.proxy().users(), links, ShardAccount.USER,
                        provisioned.binary().flavour());
                driftJournal = new io.cleave.manager.schema.DriftJournal(home.state());
                moves = new MoveService(new MoveEnvironment(links, maps, this::cutoverGate,
                        new MoveJournal(home.state()), MoveSettings.fromSystemProperties(),
                        new MoveMetrics(registry, () -> moves.phases()),
                        new MoveHooks.Switchable(MoveHooks.fromSystemProperties()), new ProxyKeyRegistry(() -> proxy)));
                moves.refuseDuring(() -> {
                    ProxyService p = proxy;
                    return p != null && p.buildingUniqueKeys();
                });
                imports = new io.cleave.manager.imports.ImportService(home.state(), moves, shardRegistry(), registry,
                        () -> scale != null && scale.running());
                imports.attachedEndpoint().ifPresent(links::put);
                // Planned with the pair's options as they are when a shard is added (semi-sync on a primary,
                // the replica options on a standby), like the shards the daemon started with.
                scalable = new ScalableInstances(() -> new HomePlanner(home,
                        io.cleave.manager.standby.PrimarySide.withPairOptions(config, home), options.cacheDir(),
                        options.pathVariable()), new Provisioner(home, config, options.cacheDir(), options.pathVariable()),
                        provisioned.binary(), supervisors, supervise, this::endpointOf, options.readyTimeout(),
                        options.stopTimeout(), plan -> {
                            // Reached before the scale registers it: the new shard gets the accounts first. With a
                            // standby, its replica connects before anything is written to the binlog here (the copied
                            // accounts are the first thing, and wait for its acknowledgement).
                            links.put(endpointOf(plan));
                            if (standbyOf() != null) {
                                // A standby's replica of a shard its primary added: the accounts come replicated.
                                accounts.expectReplicated(plan.index(), plan.datadir());
                                return;
                            }
                            awaitStandbyReplica(plan.index());
                            java.util.Map<Integer, java.nio.file.Path> shards = runningDatadirs();
                            shards.put(plan.index(), plan.datadir());
                            accounts.ensure(shards);
                        });
                scale = new io.cleave.manager.scale.ScaleService(home.state(), moves, shardRegistry(), scalable, registry);
                moves.refuseWhileScaling(() -> scale != null && scale.running());
                pairLayout = new io.cleave.manager.standby.layout.PairLayout(home, links, maps,
                        () -> scale != null && scale.running());
                // After a switchover the old primary's proxy may forward here by its old map: no layout change then.
                forwardingPeer = new io.cleave.manager.standby.forwarding.ForwardingPeer(home.state(), this::peerProxy);
                moves.refuseLayoutChangesWhen(forwardingPeer::refusal);
                scale.refuseWhen((from, to) -> firstOf(forwardingPeer.refusal("a scale from " + from + " to " + to
                        + " shards"), () -> pairLayout.guard().scaleRefusal(from, to, primarySide.sinceStandbyContact())));
                imports.refuseWhen(() -> forwardingPeer.refusal("an import"));
                String note = scaleNote(config.shards(), provisioned.shardMaps().current().shardCount());
                if (note != null) {
                    log.info("{}", note);
                }
                backups = new io.cleave.manager.backup.BackupService(new io.cleave.manager.backup.BackupSources(links,
                        provisioned.shardMaps(), config.sharding().topology(), this::cutWindows, config.source(),
                        provisioned.binary()),
                        config.backup(), registry, home.state().resolve("backup-scratch"));
                admin = new AdminServer(config.listen().adminHost(), config.adminPort(), provisioned.adminToken(), registry, () -> statusReport(true),
                        this::requestShutdown, this::explain, inDoubtTransactions(), moves, imports, scale, backups);
                admin.repair(this::repairSchemas);
                wireStandby();
                makeProxyCertificate();
                shardsReadOnly = new io.cleave.manager.coordination.ShardsReadOnly(links);
                coordination = PairCoordination.create(config, home, config.listen().adminUrl(admin.port()), pairActions(), registry);
                admin.coordination(this::coordinationReport, this::rejoin);
                if (coordination != null && config.coordination().orElseThrow().rejoin() == CoordinationConfig.Rejoin.AUTO) {
                    io.cleave.manager.coordination.PairCoordinator pair = coordination;
                    io.cleave.manager.coordination.AutoRejoin rejoining = new io.cleave.manager.coordination.AutoRejoin(
                            pair::report, () -> io.cleave.manager.standby.PairPeer.of(home), this::rejoin, pair::rejoinNote);
                    scheduler.scheduleWithFixedDelay(rejoining::tick, 2, 5, java.util.concurrent.TimeUnit.SECONDS);
                }
                admin.start();
                new DaemonInfo(ProcessHandle.current().pid(), admin.port(), startedAt.toString(), version(),
                        config.listen().adminHost()).write(home);
                supervisors.all().forEach(InstanceSupervisor::start);
            } catch (RuntimeException e) {
                log.error("daemon start failed: {}", e.getMessage());
                shutdown(true);
                throw e;
            }
        }
        String standbyOf = standbyOf();
        if (standbyOf != null) {
            // A standby's shards are replicas: no proxy (its recovery would settle replicated XA branches
            // on them), no archiving, nothing that writes; the primary serves clients.
            awaitSettled();
            proxyState = "standby of " + standbyOf + ": the primary serves clients";
            startRelay();
            startReplicationMonitor();
            if (coordination != null) {
                coordination.startStandby(PairCoordination.localEpoch(home));
            }
            return;
        }
        boolean settled = awaitSettled();
        if (settled) {
            new AppliedSettings(new ReadinessProbe(ShardAccount.USER, provisioned.account().secret())).check(supervisors.all());
            checkSchemas();
        }
        startReplicationMonitor();
        if (coordination != null && !coordination.startPrimary(PairCoordination.localEpoch(home))) {
            // Fenced from the start (a newer epoch, another holder, or no etcd): nothing that writes runs.
            return;
        }
        serveAsPrimary(settled);
    }

    /** The primary's part: the proxy, archiving, and the moves, imports and scales left unfinished. */
    private void serveAsPrimary(boolean settled) {
        if (settled) {
            String unroutable = pairLayout.primaryStarting(localShards().size());
            if (unroutable == null) {
                startProxy();
            } else {
                log.error("the proxy does not start: {}", unroutable);
                proxyState = "down: " + unroutable;
            }
        } else {
            proxyState = options.proxy().isPresent() ? "down: no instance is ready" : "not part of this build";
        }
        startArchiving();
        // Unfinished moves go on once the proxy (whose gate holds clients at a cutover) runs.
        moves.resume();
        imports.resume();
        scale.resume();
    }

    /** What the pair's coordinator does to this daemon: fence it, let it serve, promote it. */
    private io.cleave.manager.coordination.PairActions pairActions() {
        return new io.cleave.manager.coordination.PairActions() {
            @Override
            public void fence(String reason) {
                ProxyService p = proxy;
                if (p != null) {
                    p.fence(reason);
                }
                proxyState = "fenced: " + reason;
                shardsReadOnly.set(localShards(), true);
            }

            @Override
            public void leaseUntil(long nanos) {
                ProxyService p = proxy;
                if (p != null) {
                    p.leaseUntil(nanos);
                }
            }

            @Override
            public void serve() {
                shardsReadOnly.set(localShards(), false);
                ProxyService p = proxy;
                if (p != null) {
                    p.lift();
                    proxyState = p.describe();
                } else {
                    serveAsPrimary(true);
                }
            }

            @Override
            public void promote(long epoch) throws Exception {
                promoteAt(epoch);
            }
        };
    }

    /**
     * {@code cleave rejoin}: this old primary, fenced once its standby took over, becomes that home's standby when
     * its shards hold nothing the new primary lacks. Its proxy stops first (a standby serves no clients).
     */
    private io.cleave.manager.coordination.RejoinReport rejoin(String primary, String token) throws Exception {
        synchronized (promoting) {
            if (coordination != null && coordination.state() == io.cleave.manager.coordination.PairState.PRIMARY) {
                throw new IllegalStateException("this home holds the primary's lease in etcd: it is the primary");
            }
            ProxyService p = proxy;
            if (p != null) {
                p.fence("this home is rejoining its pair as the standby of " + primary);
                proxy = null;
                p.close();
            }
            io.cleave.manager.coordination.RejoinReport report = new io.cleave.manager.coordination.Rejoin(home, links,
                    localShards()).run(primary, token);
            if (report.joined()) {
                if (archiver != null) {
                    archiver.close();
                    archiver = null;
                }
                writePairCnfs();
                proxyState = "standby of " + primary + ": the primary serves clients";
                startRelay();
                if (coordination != null) {
                    coordination.rejoined(report.epoch());
                }
                replication.poll();
            }
            return report;
        }
    }

    private List<Integer> localShards() {
        return shardEndpoints().stream().filter(e -> !e.attached()).map(ShardEndpoint::index).toList();
    }

    public io.cleave.manager.scale.ScaleService scale() {
        return scale;
    }

    private static String scaleNote(int configured, int stored) {
        return configured == stored ? null : "the config asks for " + configured + " shards; 'cleave scale' changed that"
                + " to " + stored + ", which the state holds and the daemon runs (the config's count was the initial one)";
    }

    /**
     * The standby pair's part of the daemon: the primary's side (a standby attaching, semi-sync, its
     * settings in the shards' my.cnf), the replication monitor, and on a standby the refusal of every
     * admin request that would write to its replicas.
     */
    private void wireStandby() {
        primarySide = new io.cleave.manager.standby.PrimarySide(home, links, this::advertisedShardEndpoints,
                config.server().serverIdBase(), this::writePairCnfs);
        primarySide.relayTo(() -> proxy == null ? null : advertisedProxy(), address -> {
            ProxyService p = proxy;
            if (p != null) {
                p.trustRelay(address);
            }
        });
        replication = new io.cleave.manager.standby.ReplicationMonitor(home, links, this::shardEndpoints, registry, scheduler);
        relay = new io.cleave.manager.standby.relay.PrimaryProxyRelay(config.proxy().listen());
        relay.bind(registry);
        replication.relay(() -> relay.listening() ? relay.report() : null);
        admin.standbyShards(primarySide::shardsForStandby);
        primarySide.retiredBy(scale::retired);
        scale.releaseWith(shard -> primarySide.awaitStandbyLetGo(shard, java.time.Duration.ofSeconds(10)));
        retirement = new io.cleave.manager.standby.layout.ReplicaRetirement(links, moves.environment().maps(), scalable,
                this::localShards);
        io.cleave.manager.standby.ShardFollower follower = new io.cleave.manager.standby.ShardFollower(home, links,
                this::shardEndpoints, index -> scalable.start(scalable.plan(index + 1).instances().get(index)), index -> {
                    synchronized (promoting) {
                        // Not once a promotion or take-over made this home the primary (it retires them itself).
                        return standbyOf() != null && retirement.retire(index);
                    }
                }, new io.cleave.manager.standby.PairPeer(config.listen().adminUrl(admin.port()), provisioned.adminToken()),
                config.listen().shardHost(), (address, notReachable) -> relay.target(address, notReachable));
        // Polls on every home: it acts only while this home is a standby (a switchover can make it one).
        scheduler.scheduleWithFixedDelay(follower::poll, 1, 2, java.util.concurrent.TimeUnit.SECONDS);
        admin.standby(replication::report, () -> {
            String refused = pairLayout.guard().attachRefusal();
            if (refused != null) {
                throw new IllegalStateException(refused);
            }
            return primarySide.attach();
        }, on -> {
            try {
                primarySide.semiSync(on);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("could not set semi-sync on every shard: " + e.getMessage(), e);
            }
            replication.poll();
            return replication.report();
        }, primarySide::preparedAt, this::promote, () -> {
            String of = standbyOf();
            return of == null ? null : "this home is a standby of " + of + ": its shards are replicas; run this on the primary";
        });
        admin.forwarding(this::ownProxy, this::stopForwarding, () -> {
            // The operator's word that the old primary is gone (its proxy with it): it cannot be asked any more.
            String forgot = forwardingPeer.peer().orElse(null);
            io.cleave.manager.standby.forwarding.ForwardingPeer.forget(home.state());
            if (forgot != null) {
                log.warn("told that {} is gone for good: layout changes are taken without asking it", forgot);
            }
            java.util.Map<String, Object> answer = new java.util.HashMap<>();
            answer.put("forgot", forgot);
            return answer;
        });
        scheduler.scheduleWithFixedDelay(forwardingPeer::poll, 2, 2, java.util.concurrent.TimeUnit.SECONDS);
        admin.switchover(this::switchover, this::takeOver, request -> new io.cleave.manager.standby.TakeOver(home, links,
                advertisedShardEndpoints().stream().filter(e -> !e.attached()).toList(), primarySide,
                io.cleave.manager.standby.TakeOver.ClaimMove.NONE).catchUp(request), this::holdForwarding, () -> {
            io.cleave.manager.standby.ForwardingHold h = forwardingHold;
            if (h != null) {
                h.release(() -> { });
            }
        });
    }

    /**
     * {@code cleave switchover} on the primary: the proxy holds statements, the standby takes over at this
     * home's GTID positions, the proxy routes every shard to it and this home becomes its standby.
     */
    private io.cleave.manager.standby.SwitchoverReport switchover(io.cleave.manager.standby.SwitchoverRequest request)
            throws Exception {
        synchronized (promoting) {
            if (coordination != null && (coordination.state() != io.cleave.manager.coordination.PairState.PRIMARY
                    || !coordination.report().holdsLease())) {
                throw new IllegalStateException("this home does not hold the primary's lease in etcd ("
                        + coordination.state() + "): only the pair's primary switches over; nothing was changed");
            }
            ProxyService p = proxy;
            if (p == null) {
                throw new IllegalStateException("this home's proxy does not run (" + proxyState + "): a switchover"
                        + " holds its clients' statements while the shards switch");
            }
            try {
                return new io.cleave.manager.standby.Switchover(home, links, shardEndpoints(), p.switching(),
                        this::switchoverRefusal, this::writePairCnfs, accounts, config.listen().shardHost()).run(request);
            } finally {
                handedOver(p);
            }
        }
    }

    /**
     * Holds this standby's proxy when it forwards to the primary's shards (the primary's switchover begins);
     * false when it does not forward (nothing to hold).
     */
    private boolean holdForwarding(long drainMillis, long holdMillis) throws Exception {
        ProxyService p = proxy;
        if (p == null || !p.switching().forwarding()) {
            return false;
        }
        io.cleave.manager.standby.ForwardingHold h = forwardingHold;
        if (h == null) {
            h = new io.cleave.manager.standby.ForwardingHold(p.switching());
            forwardingHold = h;
        }
        h.hold(drainMillis, holdMillis);
        return true;
    }

    /**
     * Once the standby took over in a switchover (standby.json says this home is its standby now, whether or not a
     * later step failed), the standby holds the primary's claim in etcd: this home's coordinator watches it as the
     * standby of the new epoch, and the proxy, which forwards its clients to the new primary's shards, no longer
     * serves under this home's lease (it lapses, with no key on it).
     */
    private void handedOver(ProxyService p) {
        io.cleave.manager.standby.StandbyState now = io.cleave.manager.standby.StandbyState.of(home).orElse(null);
        if (coordination == null || now == null || now.role() != io.cleave.manager.standby.HostRole.STANDBY
                || coordination.state() != io.cleave.manager.coordination.PairState.PRIMARY) {
            return;
        }
        coordination.handedOver(now.epoch());
        p.leaseGivenUp();
    }

    /** The old primary's daemon, asked whether its proxy still runs (after a switchover it forwarded here). */
    private io.cleave.manager.standby.forwarding.PeerProxy peerProxy(String url) throws java.io.IOException {
        // Asked where this home reached it as its primary. The pair's peer record is the standby's own word on its
        // address, which may name it otherwise (or, once another standby attached, another home): its token is used
        // only for the same address, else the old primary's token this home kept as its standby.
        java.util.Optional<io.cleave.manager.standby.PairPeer> peer = io.cleave.manager.standby.PairPeer.of(home)
                .filter(p -> p.url().equals(url));
        String token = peer.isPresent() ? peer.get().token() : io.cleave.manager.standby.PairPeer.primaryToken(home);
        return io.cleave.manager.admin.AdminClient.remote(url, token).peerProxy();
    }

    /** This home's proxy, for the pair's other home: whether it runs, and whether it forwards to the primary. */
    private io.cleave.manager.standby.forwarding.PeerProxy ownProxy() {
        ProxyService p = proxy;
        boolean forwarding = false;
        if (p != null) {
            try {
                forwarding = p.switching().forwarding();
            } catch (RuntimeException e) {
                // closing meanwhile: it runs until it has closed
            }
        }
        return new io.cleave.manager.standby.forwarding.PeerProxy(p != null, forwarding, proxyState);
    }

    /**
     * {@code cleave standby --stop-forwarding}: on a standby whose proxy forwards its clients to the primary (this home
     * was the primary before a switchover), the proxy stops; its clients must be on the primary's proxy by then. The
     * primary takes layout changes again once it has asked. Refused on a primary, whose proxy serves its clients.
     */
    private io.cleave.manager.standby.forwarding.PeerProxy stopForwarding() {
        synchronized (promoting) {
            String of = standbyOf();
            if (of == null) {
                throw new IllegalStateException("this home is not a standby: its proxy serves its clients and is not"
                        + " stopped (stop forwarding on the old primary of a switchover, the pair's standby)");
            }
            ProxyService p = proxy;
            if (p != null) {
                proxy = null;
                forwardingHold = null;
                p.close();
                log.info("the proxy, which forwarded its clients to {}'s shards, stopped", of);
            }
            proxyState = "standby of " + of + ": the primary serves clients";
            // The port is free: it relays to the primary's proxy, as a standby's does.
            startRelay();
            return ownProxy();
        }
    }

    /**
     * Why {@code what}, a change of the global unique keys, is refused now, or null: the other proxy of a switched-over
     * pair (this home's forwarding to the primary, or the old primary's forwarding here) loaded its keys at its start
     * and would not learn the change, so its writes would not claim a new key's values.
     */
    private String uniqueKeyChangeRefusal(String what) {
        if (ownProxy().forwarding()) {
            return "this home's proxy forwards its clients to the primary's shards (this home was the primary before a"
                    + " switchover): the primary's proxy would not learn " + what + " here, and its writes would not"
                    + " claim a new key's values. Move the clients to the primary's proxy, stop this one ('cleave standby"
                    + " --stop-forwarding'), and run it through the primary's";
        }
        return forwardingPeer.knownRefusal(what);
    }

    private static String firstOf(String refused, java.util.function.Supplier<String> next) {
        return refused != null ? refused : next.get();
    }

    /** Why the home cannot switch over now (a move, scale, import or backup under way), or null. */
    private String switchoverRefusal() {
        if (!moves.active().isEmpty()) {
            return "move " + moves.active().get(0).id + " is under way";
        }
        if (scale.running()) {
            return "a scale is under way";
        }
        var running = imports.last().filter(i -> !i.state().equals("done") && !i.state().equals("failed"));
        if (running.isPresent()) {
            return "an import is under way (" + running.get().state() + ")";
        }
        java.util.List<io.cleave.router.shardmap.AttachedShard> attached = moves.environment().maps().current().attached();
        if (!attached.isEmpty()) {
            // A failed import leaves its source attached and serving: the standby cannot reach it, and taking over
            // would drop the import (UnfinishedImport) and refuse the database until it is imported again.
            return "a server is attached for an import (" + attached.get(0).label() + ", its import failed: 'cleave import"
                    + " --status'): the standby cannot reach it; import from it again to finish the import first";
        }
        String unsettled = pairLayout.guard().movesInMap();
        if (unsettled != null) {
            return unsettled;
        }
        String backup = backups.underWay();
        if (backup != null) {
            return "backup " + backup + " is under way";
        }
        ProxyService p = proxy;
        // A lookup build writes the lookup tables from the proxy's own connections, outside any client statement.
        return p != null && p.buildingUniqueKeys() ? "a global unique key's lookup is being built" : null;
    }

    /**
     * The standby's part of a switchover: every replica applies up to the primary's positions, then the
     * shards are promoted. The proxy starts after the answer: until the old primary's clients move, its
     * proxy serves them on these shards.
     */
    private io.cleave.manager.standby.TakeOverAnswer takeOver(io.cleave.manager.standby.TakeOverRequest request)
            throws Exception {
        synchronized (promoting) {
            if (supervisors.all().stream().anyMatch(s -> s.state() != InstanceState.RUNNING)) {
                throw new IllegalStateException("not every shard of this standby runs ('cleave status' shows which):"
                        + " nothing was changed");
            }
            ProxyService p = proxy;
            io.cleave.manager.standby.ForwardingHold hold = forwardingHold;
            boolean forwarding = p != null && p.switching().forwarding();
            if (forwarding && (hold == null || !hold.claim())) {
                throw new IllegalStateException("this home's proxy forwards its clients to the primary and does not hold"
                        + " them now (its hold ended): nothing was changed");
            }
            io.cleave.manager.standby.TakeOverAnswer answer;
            try {
                accounts.adoptReplicated(runningDatadirs(), request.accounts());
                answer = new io.cleave.manager.standby.TakeOver(home, links,
                        advertisedShardEndpoints().stream().filter(e -> !e.attached()).toList(), primarySide,
                        coordination == null ? io.cleave.manager.standby.TakeOver.ClaimMove.NONE
                                : coordination::takeOverLive).run(request);
                if (coordination != null) {
                    coordination.promoted();
                }
                // The newest shard map version the old primary published (replicated here) is routed by from now on,
                // by this home's proxy as by a forwarding one serving this home's shards again; shards a scale down
                // took away that this home still ran go first.
                retirement.retireLeftOut();
                pairLayout.promoted(localShards().size());
            } catch (Exception e) {
                if (forwarding) {
                    hold.release(() -> { });
                }
                if (coordination != null && coordination.state() == io.cleave.manager.coordination.PairState.PROMOTING) {
                    // The claim moved here before the promotion failed: this home is the pair's primary and retries.
                    coordination.promotionFailed(coordination.report().epoch(), e);
                }
                throw e;
            }
            if (forwarding) {
                // The proxy's held statements run on this home's shards: the other home's proxy forwards here now.
                hold.release(() -> {
                    try {
                        p.switching().serveOwnShards(request.forwardingRun());
                    } catch (RuntimeException e) {
                        // Its held statements must not reach the old primary's shards, which replicate this home's now.
                        log.error("the proxy could not serve this home's shards again: it serves none", e);
                        p.switching().serveNoShard();
                    }
                });
            }
            // After the answer, while the old primary's clients run again: the shards' my.cnf for the primary's
            // role, and the proxy when this home had none (the old primary's proxy serves its clients meanwhile).
            Thread serve = new Thread(() -> {
                writePairCnfs();
                if (forwarding) {
                    startArchiving();
                    replication.poll();
                    return;
                }
                checkSchemas();
                startProxy();
                startArchiving();
                replication.poll();
            }, "proxy-after-take-over");
            serve.setDaemon(true);
            serve.start();
            return answer;
        }
    }

    /**
     * Promotes this standby when its primary is gone: every replica applies what it received and becomes a
     * writable primary shard, the epoch is bumped, and the proxy starts; its recovery settles the prepared
     * XA branches by the replicated decision rows before it takes a client.
     */
    private io.cleave.manager.standby.PromotionReport promote() throws Exception {
        return promoteAt(0);
    }

    /**
     * Promotes at {@code epoch}, the one the coordinator took over in etcd; 0: an operator's {@code cleave promote},
     * which on a pair coordinated through etcd takes over there first (refused while the primary's lease lives).
     */
    private io.cleave.manager.standby.PromotionReport promoteAt(long epoch) throws Exception {
        synchronized (promoting) {
            long started = System.nanoTime();
            io.cleave.manager.standby.Promotion promotion = new io.cleave.manager.standby.Promotion(home, links,
                    Long.getLong("cleave.promote.drain-ms", 60_000));
            String refused = promotion.refusal();
            if (refused != null) {
                throw new IllegalStateException(refused);
            }
            if (supervisors.all().stream().anyMatch(s -> s.state() != InstanceState.RUNNING)) {
                throw new IllegalStateException("not every shard of this standby runs: a shard that is down cannot be"
                        + " promoted, and the new primary would lack it ('cleave status' shows which)");
            }
            if (epoch == 0 && coordination != null) {
                epoch = coordination.takeOverNow();
            }
            List<io.cleave.manager.standby.ShardPromotion> shards = promotion.promote(localShards());
            if (epoch > 0) {
                // The epoch is etcd's; standby.json mirrors it.
                io.cleave.manager.standby.StandbyState.file(home).save(new io.cleave.manager.standby.StandbyState(
                        io.cleave.manager.standby.HostRole.PRIMARY, epoch, null, false));
            }
            // A scale down's map that replicated before this home let go of the shards it took away: they go now.
            retirement.retireLeftOut();
            io.cleave.manager.standby.layout.MapInstall.Installed map = pairLayout.promoted(localShards().size());
            writePairCnfs();
            // The other home is lost, its proxy with it (one that forwarded here after a switchover included): the
            // branches it left prepared are settled here by the replicated decisions, not left to it.
            io.cleave.manager.standby.ForwardingProxies.clear(home);
            io.cleave.manager.standby.forwarding.ForwardingPeer.forget(home.state());
            ProxyService forwarding = proxy;
            if (forwarding != null && forwarding.switching().forwarding()) {
                // An old primary of a switchover: its proxy forwards its clients to the lost primary's shards. It
                // serves this home's again and settles every branch left prepared, the lost proxy's too.
                forwarding.switching().serveOwnShards(null);
                forwarding.recoverNow();
                proxyState = forwarding.describe();
            } else {
                // The lost primary's proxy is gone or fenced: connections relayed to it would only wait or fail.
                relay.stop(true);
                checkSchemas();
                startProxy();
            }
            ProxyService p = proxy;
            int stillPrepared = p == null ? -1 : p.inDoubt().size();
            startArchiving();
            // The old primary's moves under way left rows the map's ghosts hide: their clean-up runs here.
            moves.resume();
            replication.poll();
            return new io.cleave.manager.standby.PromotionReport(
                    io.cleave.manager.standby.StandbyState.of(home).orElseThrow().epoch(), shards, map.toString(), stillPrepared,
                    (System.nanoTime() - started) / 1_000_000, proxyState);
        }
    }

    /** The running shards' my.cnf written again with the standby pair's options (read at each shard's next start). */
    private void writePairCnfs() {
        HomePlanner planner = new HomePlanner(home, io.cleave.manager.standby.PrimarySide.withPairOptions(config, home),
                options.cacheDir(), options.pathVariable());
        for (InstancePlan plan : planner.plan(supervisors.all().size()).instances()) {
            Provisioner.writeCnf(plan, provisioned.binary());
        }
    }

    /** The primary's admin URL when this home is a standby, else null. */
    private String standbyOf() {
        return io.cleave.manager.standby.StandbyState.of(home)
                .filter(s -> s.role() == io.cleave.manager.standby.HostRole.STANDBY)
                .map(io.cleave.manager.standby.StandbyState::primary).orElse(null);
    }

    private void startReplicationMonitor() {
        synchronized (lifecycle) {
            if (!closed) {
                replication.start();
            }
        }
    }

    /** The standby pair's replication monitor (status and metrics). */
    public io.cleave.manager.standby.ReplicationMonitor replication() {
        return replication;
    }

    /** A shard a scale adds waits for the standby's replica of it, when a standby is counted on. */
    private void awaitStandbyReplica(int shard) {
        try {
            primarySide.awaitStandbyReplica(shard, java.time.Duration.ofSeconds(30));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("shard " + shard + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("closing", e);
        }
    }

    /** How the mover and the proxy learn of shards and attached servers that come and go. */
    private ShardRegistry shardRegistry() {
        return new ShardRegistry() {
            @Override
            public void add(ShardEndpoint shard) {
                links.put(shard);
                ProxyService p = proxy;
                if (p != null) {
                    p.addShard(shard);
                }
            }

            @Override
            public void remove(int shard) {
                ProxyService p = proxy;
                if (p != null) {
                    p.removeShard(shard);
                }
                links.remove(shard);
            }

            @Override
            public int connectionsInUse(int shard) {
                ProxyService p = proxy;
                return p == null ? 0 : p.connectionsInUse(shard);
            }
        };
    }

    public io.cleave.manager.imports.ImportService imports() {
        return imports;
    }

    /** The running proxy's cutover gate, or null when no proxy runs (then no client can be on moving keys). */
    private io.cleave.proxy.cutover.CutoverGate cutoverGate() {
        ProxyService p = proxy;
        return p == null ? null : p.cutoverGate();
    }

    public MoveService moves() {
        return moves;
    }

    public io.cleave.manager.backup.BackupService backups() {
        return backups;
    }

    /** The binlog archiver when backup.archive_binlogs is on, else null. */
    public io.cleave.manager.backup.archive.BinlogArchiver archiver() {
        return archiver;
    }

    private void startArchiving() {
        io.cleave.manager.config.BackupConfig b = config.backup();
        synchronized (lifecycle) {
            if (closed || !b.archiveBinlogs() || b.location().isEmpty()) {
                return;
            }
            archiver = new io.cleave.manager.backup.archive.BinlogArchiver(
                    io.cleave.manager.backup.store.BackupStores.of(b.location().get(), b), links,
                    () -> provisioned.shardMaps().current(), config.sharding().topology(), this::cutWindows,
                    b.cutInterval(), registry);
            archiver.start();
        }
    }

    /** Where the running proxy orders cuts against commits, or null when no proxy runs (then nothing commits). */
    private io.cleave.proxy.cut.CutWindows cutWindows() {
        ProxyService p = proxy;
        return p == null ? null : p.cuts();
    }

    /**
     * Waits until every instance is either ready or given up (crash loop). Returns whether the
     * proxy should start: it does when at least one instance is ready, so the shards that work
     * keep serving while an operator sees to the others in 'cleave status'.
     */
    private boolean awaitSettled() {
        long deadline = System.nanoTime() + options.readyTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            List<InstanceState> states = supervisors.all().stream().map(InstanceSupervisor::state).toList();
            if (states.stream().allMatch(s -> s == InstanceState.RUNNING)) {
                log.info("all {} instances ready {} ms after start", states.size(),
                        java.time.Duration.between(startedAt, Instant.now()).toMillis());
                return true;
            }
            if (states.stream().allMatch(s -> s == InstanceState.RUNNING || s == InstanceState.CRASH_LOOP)) {
                if (states.contains(InstanceState.RUNNING)) {
                    log.error("not all instances could start: {}; the proxy serves the others, see 'cleave status'",
                            states);
                    return true;
                }
                log.error("no instance could start: {}; the proxy stays down, see 'cleave status'", states);
                return false;
            }
            if (closed) {
                return false;
            }
            sleep(50);
        }
        log.error("instances not ready within {} s; the proxy stays down, see 'cleave status'", options.readyTimeout().toSeconds());
        return false;
    }

    private void startProxy() {
        if (options.proxy().isEmpty()) {
            proxyState = "not part of this build";
            return;
        }
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            // A standby taking over: its relay gives the port up; connections it relays go on through the old
            // primary's proxy, which forwards them here.
            relay.stop(false);
            ProxyService service = options.proxy().get().create(proxyContext());
            try {
                accounts.ensure(runningDatadirs());
                // A shard that was down now gets the accounts once it runs, before clients reach it.
                listeners.add((status, previous) -> {
                    if (status.state() == InstanceState.RUNNING && previous != InstanceState.RUNNING) {
                        InstanceSupervisor s = supervisors.byIndex(status.index());
                        if (s != null && !io.cleave.manager.accounts.AccountSync.holds(s.plan().datadir())) {
                            scheduler.execute(() -> syncAccounts(s.plan()));
                        }
                    }
                });
                service.start();
            } catch (Exception e) {
                log.error("proxy failed to start: {}", e.getMessage(), e);
                proxyState = "failed: " + e.getMessage();
                service.close();
                return;
            }
            proxy = service;
            service.uniqueKeyBuildsExclude(() -> moves != null && moves.busy());
            service.uniqueKeyChangesRefusedWhile(this::uniqueKeyChangeRefusal);
            proxyState = service.describe();
            if (coordination != null) {
                service.leaseUntil(coordination.fenceDeadline());
                if (coordination.state() == io.cleave.manager.coordination.PairState.FENCED
                        || coordination.state() == io.cleave.manager.coordination.PairState.SUPERSEDED) {
                    // Fenced while the proxy started.
                    service.fence(coordination.report().reason());
                    proxyState = "fenced: " + coordination.report().reason();
                }
            }
            log.info("proxy {}", proxyState);
        }
    }

    /**
     * The proxy's self-signed certificate is made now, on a standby too, so that a take-over does not spend the
     * seconds its RSA key takes; a failure here is left to the proxy's start to report.
     */
    private void makeProxyCertificate() {
        if (options.proxy().isEmpty()) {
            return;
        }
        try {
            CleaveProxyService.makeCertificateIfMissing(config.proxy(), home.state());
        } catch (java.io.IOException | RuntimeException e) {
            log.warn("could not make the proxy's TLS certificate yet: {}", e.getMessage());
        }
    }

    /** The datadirs of the shards that run now, by index. */
    private java.util.Map<Integer, java.nio.file.Path> runningDatadirs() {
        java.util.Map<Integer, java.nio.file.Path> out = new java.util.TreeMap<>();
        for (InstanceSupervisor s : supervisors.all()) {
            if (s.state() == InstanceState.RUNNING) {
                out.put(s.plan().index(), s.plan().datadir());
            }
        }
        return out;
    }

    private void syncAccounts(InstancePlan plan) {
        if (!links.has(plan.index())) {
            // A shard a scale is adding: the scale gives it the accounts before it registers it.
            return;
        }
        try {
            java.util.Map<Integer, java.nio.file.Path> shards = runningDatadirs();
            shards.put(plan.index(), plan.datadir());
            accounts.ensure(shards);
        } catch (RuntimeException e) {
            log.error("{}: {}", plan.name(), e.getMessage());
        }
    }

    /** What the proxy is given; public so a proxy can also be built and tested against a running daemon. */
    public ProxyContext proxyContext() {
        List<ShardEndpoint> shards = new ArrayList<>(shardEndpoints());
        imports.attachedEndpoint().ifPresent(shards::add);
        return new ProxyContext(config.proxy(), config.sharding().topology(), provisioned.shardMaps(), shards,
                instanceEvents(), registry, home.state(), home.run(), driftJournal,
                database -> scheduler.execute(() -> serveAgain(database)));
    }

    /**
     * A database the shard map refused (an import a promotion cut short before its cutover) was dropped on every
     * shard by a client: the name is served again (a new database of that name holds nothing of the import).
     */
    private void serveAgain(String database) {
        MoveService m = moves;
        if (m == null) {
            return;
        }
        try {
            io.cleave.manager.standby.layout.UnfinishedImport.dropped(m.environment().maps(), m.environment().shards()::open,
                    database);
        } catch (RuntimeException e) {
            log.warn("database {} was dropped but is still refused: {}", database, e.getMessage());
        }
    }

    /** One endpoint per supervised shard, in index order. */
    public List<ShardEndpoint> shardEndpoints() {
        List<ShardEndpoint> endpoints = new ArrayList<>();
        for (InstanceSupervisor s : supervisors.all()) {
            endpoints.add(endpointOf(s.plan()));
        }
        return endpoints;
    }

    /** Where this home's proxy listens as the pair's other home reaches it: a wildcard listen at the advertised host. */
    private io.cleave.manager.config.HostPort advertisedProxy() {
        io.cleave.manager.config.HostPort listen = config.proxy().listen();
        return io.cleave.manager.config.ListenAddresses.isWildcard(listen.host())
                ? new io.cleave.manager.config.HostPort(config.listen().shardHost(), listen.port()) : listen;
    }

    /**
     * A standby's proxy port: relays its clients to the primary's proxy until this home serves with its own. A port
     * that cannot be listened on is logged and shown in status; the standby goes on replicating.
     */
    private void startRelay() {
        if (options.proxy().isEmpty()) {
            return;
        }
        synchronized (lifecycle) {
            if (closed || proxy != null) {
                return;
            }
            try {
                relay.start();
            } catch (RuntimeException e) {
                log.error("{}", e.getMessage());
                proxyState = "standby of " + standbyOf() + ": " + e.getMessage();
            }
        }
    }

    /** The shards as the pair's other home reaches them: at server.advertise_host (else server.bind_address). */
    private List<ShardEndpoint> advertisedShardEndpoints() {
        String host = config.listen().shardHost();
        return shardEndpoints().stream().map(e -> e.attached() ? e : e.withHost(host)).toList();
    }

    private ShardEndpoint endpointOf(InstancePlan plan) {
        return new ShardEndpoint(plan.index(), plan.name(), plan.socket(), "127.0.0.1", plan.port(), ShardAccount.USER,
                provisioned.account().secret());
    }

    public InstanceEvents instanceEvents() {
        return new InstanceEvents() {
            @Override
            public InstanceState stateOf(int shard) {
                InstanceSupervisor s = supervisors.byIndex(shard);
                return s == null ? InstanceState.STOPPED : s.state();
            }

            @Override
            public void subscribe(InstanceListener listener) {
                listeners.add(listener);
            }
        };
    }

    private void fireStateChanged(InstanceStatus status, InstanceState previous) {
        log.info("{}: {} -> {}", status.name(), previous, status.state());
        for (InstanceListener l : listeners) {
            l.stateChanged(status, previous);
        }
    }

    public StatusReport statusReport() {
        return statusReport(false);
    }

    /** The status; {@code withSchemas}: comparing the shards' schemas too (a few catalog reads per shard). */
    public StatusReport statusReport(boolean withSchemas) {
        List<InstanceStatus> instances = supervisors.all().stream().map(InstanceSupervisor::status).toList();
        boolean ready = !instances.isEmpty() && instances.stream().allMatch(i -> i.state() == InstanceState.RUNNING);
        String note = provisioned == null ? null : scaleNote(config.shards(), provisioned.shardMaps().current().shardCount());
        ProxyService running = proxy;
        // Read afresh: after a switchover the proxy says it forwards its clients to the other home.
        io.cleave.manager.standby.relay.PrimaryProxyRelay r = relay;
        java.util.Map<String, String> refused = provisioned == null ? java.util.Map.of()
                : provisioned.shardMaps().current().refusedDatabases();
        String proxyNow = running != null ? running.describe()
                : r != null && r.listening() ? proxyState + "; its port " + r.report().describe() : proxyState;
        return new StatusReport(ProcessHandle.current().pid(), home.toString(), String.valueOf(startedAt),
                provisioned == null ? null : provisioned.binary().describe(), ready, proxyNow, instances,
                inDoubtOrNull(), proxy == null ? null : proxy.latestDeadlock(), note,
                withSchemas && ready ? schemaDrift() : null, replication == null ? null : replication.report(),
                coordinationReport(), refused, refused.isEmpty() ? java.util.Map.of() : heldTables());
    }

    /** The tables set aside for refused databases, as shard 0 holds them (every shard holds the same); null if unread. */
    private java.util.Map<String, List<String>> heldTables() {
        MoveService m = moves;
        if (m == null) {
            return null;
        }
        try (java.sql.Connection c = m.environment().shards().open(0)) {
            return io.cleave.manager.held.HeldTables.all(c);
        } catch (java.sql.SQLException e) {
            log.warn("could not read the tables set aside for refused databases: {}", e.getMessage());
            return null;
        }
    }

    /** The pair as etcd and this daemon see it, with the shards whose read_only has not taken yet; null without etcd. */
    private io.cleave.manager.coordination.CoordinationReport coordinationReport() {
        if (coordination == null) {
            return null;
        }
        return coordination.report().withShardsReadOnly(shardsReadOnly == null ? null : shardsReadOnly.pending());
    }

    /**
     * Where the shards' schemas differ: the structure changes the proxy could not apply everywhere,
     * then every object the shards do not have alike; null when a shard could not be read.
     */
    public List<String> schemaDrift() {
        if (driftJournal == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (io.cleave.proxy.server.SchemaDriftLog.UnfinishedChange c : driftJournal.load()) {
            out.add("'" + c.statement() + "' applied on shard(s) " + c.applied() + " but not on shard(s) " + c.failed()
                    + ": " + c.error());
        }
        try {
            for (io.cleave.manager.schema.SchemaDrift.Difference d
                    : io.cleave.manager.schema.SchemaDrift.between(schemaRepair().catalogs())) {
                out.add(d.toString());
            }
        } catch (java.sql.SQLException e) {
            log.warn("could not compare the shards' schemas: {}", e.getMessage());
            return null;
        }
        return out;
    }

    /** {@code cleave repair}: see {@link io.cleave.manager.schema.SchemaRepair}. */
    public io.cleave.manager.schema.SchemaRepair.Report repairSchemas() throws java.sql.SQLException {
        List<InstanceStatus> instances = supervisors.all().stream().map(InstanceSupervisor::status).toList();
        if (instances.stream().anyMatch(i -> i.state() != InstanceState.RUNNING)) {
            throw new AdminError(AdminError.UNAVAILABLE, "every shard must run to repair their schemas: see 'cleave status'");
        }
        io.cleave.manager.schema.SchemaRepair.Report report = schemaRepair().run();
        report.repaired().forEach(r -> log.info("repair: {}", r));
        report.remaining().forEach(r -> log.warn("repair left: {}", r));
        return report;
    }

    private io.cleave.manager.schema.SchemaRepair schemaRepair() {
        List<Integer> shards = new ArrayList<>();
        for (InstanceSupervisor s : supervisors.all()) {
            shards.add(s.plan().index());
        }
        return new io.cleave.manager.schema.SchemaRepair(links::open, shards,
                config.sharding().topology().defaultShard(), driftJournal);
    }

    /** At start: the shards' schemas should be alike; where not, the log says how and what to run. */
    private void checkSchemas() {
        if (supervisors.all().stream().anyMatch(s -> s.state() != InstanceState.RUNNING)) {
            return;
        }
        List<String> drift = schemaDrift();
        if (drift != null && !drift.isEmpty()) {
            log.warn("the shards' schemas differ ({} finding(s); 'cleave status' lists them, 'cleave repair' makes them"
                    + " alike):", drift.size());
            drift.forEach(d -> log.warn("  {}", d));
        }
    }

    /** The in-doubt branches for status; null when the proxy does not run or the scan failed. */
    private List<XaRecovery.InDoubtBranch> inDoubtOrNull() {
        ProxyService p = proxy;
        if (p == null) {
            return null;
        }
        try {
            return p.inDoubt();
        } catch (RuntimeException e) {
            log.warn("status: could not list in-doubt transactions: {}", e.getMessage());
            return null;
        }
    }

    /** In-doubt XA branches for the admin API, through the running proxy. */
    private InDoubtTransactions inDoubtTransactions() {
        return new InDoubtTransactions() {
            @Override
            public List<XaRecovery.InDoubtBranch> list() {
                return runningProxy().inDoubt();
            }

            @Override
            public InDoubtResolution resolve(String xid, boolean commit, boolean force) {
                return runningProxy().resolveInDoubt(xid, commit, force);
            }

            @Override
            public RecoveryReport recover() {
                ProxyService p = runningProxy();
                int settled = p.recoverNow();
                return new RecoveryReport(settled, p.inDoubt());
            }
        };
    }

    private ProxyService runningProxy() {
        ProxyService p = proxy;
        if (p == null) {
            throw new AdminError(AdminError.UNAVAILABLE, "the proxy is not running (" + proxyState + "): in-doubt"
                    + " transactions are listed and settled through it");
        }
        return p;
    }

    /**
     * How the proxy routes a statement: its plan from a router over this daemon's sharding rules,
     * and the shards it reaches with its own values under the current shard map.
     */
    public ExplainReport explain(String sql) {
        Explainer e = explainer;
        io.cleave.router.topology.Topology routing = provisioned.shardMaps().current().routing(config.sharding().topology());
        if (e == null || !e.topology().equals(routing)) {
            e = new Explainer(new Router(routing));
            explainer = e;
        }
        ProxyService p = proxy;
        Explainer.Explanation x = e.explain(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT,
                provisioned.shardMaps().current(), p == null ? io.cleave.router.unique.UniqueKeysView.NONE
                        : p.uniqueKeys(), null);
        return new ExplainReport(sql, x.plan(), x.shards());
    }

    private volatile Explainer explainer;

    public List<InstanceStatus> status() {
        return statusReport().instances();
    }

    /** Whether this home's own proxy serves its port (not a standby's relay to the primary's proxy, nor nothing). */
    public boolean ownProxyRuns() {
        return proxy != null;
    }

    public CleaveConfig config() {
        return config;
    }

    /** The plan the instances were provisioned from. */
    public HostPlan plan() {
        return provisioned.hostPlan();
    }

    public CleaveHome home() {
        return home;
    }

    public int adminPort() {
        return admin.port();
    }

    public String adminToken() {
        return provisioned.adminToken();
    }

    public PrometheusMeterRegistry meterRegistry() {
        return registry;
    }

    public ShardMapHolder shardMaps() {
        return provisioned.shardMaps();
    }

    public List<InstanceSupervisor> supervisors() {
        return supervisors.all();
    }

    /** Blocks until the daemon has stopped (after {@link #close()} or POST /v1/shutdown). */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Stops the daemon from another thread; returns at once. */
    public void requestShutdown() {
        Thread t = new Thread(this::close, "daemon-shutdown");
        t.start();
    }

    /** Stops the proxy, then every shard cleanly, then the admin API. Idempotent. */
    @Override
    public void close() {
        shutdown(true);
    }

    /**
     * Stops supervising but leaves the shard servers running, as a daemon that is killed would; a
     * later daemon on this home adopts them (used to replace the daemon without stopping shards).
     */
    public void closeLeavingInstancesRunning() {
        shutdown(false);
    }

    private void shutdown(boolean stopInstances) {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (coordination != null) {
                coordination.close();
            }
            if (shardsReadOnly != null) {
                shardsReadOnly.close();
            }
            if (replication != null) {
                replication.close();
            }
            if (archiver != null) {
                archiver.close();
            }
            if (backups != null) {
                backups.close();
            }
            if (scale != null) {
                scale.close();
            }
            if (imports != null) {
                imports.close();
            }
            if (moves != null) {
                moves.close();
            }
            if (relay != null) {
                relay.close();
            }
            if (proxy != null) {
                log.info("stopping the proxy");
                proxy.close();
                proxy = null;
            }
            if (stopInstances) {
                List<CompletableFuture<Void>> stops = supervisors.all().stream()
                        .map(s -> s.stop(options.stopTimeout())).toList();
                CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).join();
            } else {
                supervisors.all().forEach(InstanceSupervisor::release);
                log.info("left {} instances running for the next daemon to adopt", supervisors.all().size());
            }
            if (scheduler != null) {
                scheduler.shutdownNow();
            }
            if (admin != null) {
                admin.close();
            }
            if (lock != null) {
                DaemonInfo.delete(home);
                lock.close();
            }
            if (registry != null) {
                registry.close();
            }
            log.info("daemon stopped");
            terminated.countDown();
        }
    }

    private void checkPortsFree(List<InstancePlan> plans) {
        for (InstancePlan plan : plans) {
            if (ProcessInspector.findServerFor(plan.cnf()).isPresent()) {
                continue; // its own server holds the port; it will be adopted
            }
            for (String address : config.listen().shardBindOption().split(",")) {
                try (ServerSocket socket = new ServerSocket()) {
                    socket.setReuseAddress(true);
                    socket.bind(new InetSocketAddress(InetAddress.getByName(address), plan.port()));
                } catch (java.net.BindException e) {
                    throw new IllegalStateException(io.cleave.manager.config.ListenCheck.bindRefusal(address, plan.port(), plan.name()
                            + " (server.base_port + " + plan.index() + ")", e) + " in " + config.source());
                } catch (IOException e) {
                    throw new IllegalStateException("cannot check port " + plan.port() + " on " + address + ": " + e.getMessage(), e);
                }
            }
        }
    }

    static String version() {
        String v = Daemon.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
