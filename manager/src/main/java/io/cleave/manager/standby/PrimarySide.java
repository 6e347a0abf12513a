package io.cleave.manager.standby;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ServerConfig;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The primary's part: lets a standby attach (the replication account and strict GTIDs on every
 * shard, the shards' addresses), and turns semi-sync on or off on every shard, kept in
 * {@code state/standby.json} and in the shards' my.cnf (a server forgets SET GLOBAL when it restarts).
 */
public final class PrimarySide {

    private static final Logger log = LoggerFactory.getLogger(PrimarySide.class);

    private final CleaveHome home;
    private final ShardLinks links;
    private final Supplier<List<ShardEndpoint>> shards;
    private final int serverIdBase;
    private final Runnable rewriteCnfs;
    /** When the standby's daemon last asked for the shards ({@link System#nanoTime()}); 0: not since the start. */
    private volatile long lastStandbyContact;
    /** The shards {@link #shardsForStandby} prepared since this daemon started (the account lasts; asked every 2 s). */
    private final java.util.Set<Integer> offered = new java.util.HashSet<>();
    /** The shards the standby's daemon said it has replicas of, and when ({@link System#nanoTime()}). */
    private record StandbyReplicas(long at, java.util.Set<Integer> shards) {
    }

    private volatile StandbyReplicas standbyReplicas = new StandbyReplicas(0, java.util.Set.of());
    /** The shards a scale down took away, as {@link Attachment#retired} tells the standby. */
    private volatile Supplier<List<Integer>> retired = List::of;
    /** Where this home's proxy listens as the standby reaches it; null while it does not run. */
    private volatile Supplier<io.cleave.manager.config.HostPort> proxyAddress = () -> null;
    /** Told the address the standby's relay connects from, when the standby says a new one. */
    private volatile java.util.function.Consumer<java.net.InetAddress> relayFrom = a -> { };

    /** {@code rewriteCnfs} writes the shards' my.cnf again from {@link #withPairOptions} (read at their next start). */
    public PrimarySide(CleaveHome home, ShardLinks links, Supplier<List<ShardEndpoint>> shards, int serverIdBase,
                       Runnable rewriteCnfs) {
        this.home = home;
        this.links = links;
        this.shards = shards;
        this.serverIdBase = serverIdBase;
        this.rewriteCnfs = rewriteCnfs;
    }

    /**
     * {@code config} with the pair's options in the shards' my.cnf on a primary (semi-sync when on, strict
     * GTIDs): written at every start of the daemon and again when semi-sync is switched, so a shard that
     * restarts waits for the standby from its first commit; on a standby the replica options (an old primary's
     * config has none of them). Unchanged on a home without a standby.
     */
    public static CleaveConfig withPairOptions(CleaveConfig config, CleaveHome home) {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null) {
            return config;
        }
        Map<String, String> options = new LinkedHashMap<>(config.server().options());
        // Replicated transactions go into the shard's own binlog on either side: a switchover makes the
        // standby replicate from the old primary's binlog and back, from the same GTID positions.
        options.put("log_slave_updates", "ON");
        options.put("slave_net_timeout", String.valueOf(StandbyConfig.NET_TIMEOUT_SECONDS));
        if (state.role() == HostRole.PRIMARY) {
            options.putAll(SemiSync.cnfOptions(state.semiSync()));
            // While the other home's proxy may forward here from its own address, its PROXY headers are taken.
            java.util.Optional<String> peer = PeerShardAccount.remembered(home);
            if (peer.isPresent()) {
                options.put("proxy_protocol_networks", PeerShardAccount.networks(options.getOrDefault(
                        "proxy_protocol_networks", io.cleave.manager.instance.LayoutChoices.PROXY_PROTOCOL_NETWORKS), peer));
            }
            // A promoted standby's config still holds the replica options it was seeded with.
            options.put("read_only", "OFF");
            options.put("rpl_semi_sync_slave_enabled", "OFF");
        } else {
            // An old primary made a standby by a switchover or a rejoin: its config holds none of the replica options.
            options.putAll(StandbyConfig.REPLICA_OPTIONS);
            options.put("rpl_semi_sync_master_enabled", "OFF");
        }
        ServerConfig s = config.server();
        return config.withServer(new ServerConfig(s.binary(), s.basePort(), options, s.osUser(), s.serverIdBase()));
    }

    private Attachment.ProxyAddress proxyAddress() {
        io.cleave.manager.config.HostPort p = proxyAddress.get();
        return p == null ? null : new Attachment.ProxyAddress(p.host(), p.port());
    }

    /** Prepares every shard to be replicated and says how; refused on a home that is itself a standby. */
    public synchronized Attachment attach() throws SQLException {
        StandbyState state = StandbyState.of(home).orElse(new StandbyState(HostRole.PRIMARY, 1, null, false));
        if (state.role() != HostRole.PRIMARY) {
            throw new IllegalStateException("this home is a standby of " + state.primary() + ": attach to the primary");
        }
        ReplicationAccount account = ReplicationAccount.of(home);
        List<Attachment.ShardAddress> addresses = new ArrayList<>();
        for (ShardEndpoint e : shards.get()) {
            try (Connection c = links.open(e.index())) {
                prepare(c, account, home);
            }
            addresses.add(new Attachment.ShardAddress(e.index(), e.host(), e.port()));
        }
        StandbyState.file(home).save(state);
        rewriteCnfs.run();
        log.info("a standby attached: {} shards prepared for replication (epoch {})", addresses.size(), state.epoch());
        return new Attachment(state.epoch(), account.user(), account.password(), serverIdBase, addresses, List.of(),
                proxyAddress(), io.cleave.manager.standby.tls.ShardTls.of(home).certificate());
    }

    /**
     * The standby's relay: {@code proxy} says where this home's proxy listens as the standby reaches it (in every
     * answer), and {@code trust} is told the address the standby's relay connects from when it says a new one.
     */
    public void relayTo(Supplier<io.cleave.manager.config.HostPort> proxy, java.util.function.Consumer<java.net.InetAddress> trust) {
        this.proxyAddress = proxy;
        this.relayFrom = trust;
    }

    /** Where {@link #shardsForStandby} learns which shards a scale down took away (the scaler's journal). */
    public void retiredBy(Supplier<List<Integer>> retired) {
        this.retired = retired;
    }

    /**
     * What the attached standby's daemon asks for every few seconds: every shard that runs here, each
     * prepared for replication (a shard a scale is adding among them, as soon as it answers), so it makes a
     * replica of any it lacks. Its asking is also how this home knows the standby's daemon is up, and how it learns
     * the standby's own admin API ({@code standby}, null when not said): kept as the {@link PairPeer}, so a
     * switchover needs no address and, with {@code coordination.rejoin: auto}, this home rejoins that standby by
     * itself should it take over.
     */
    public synchronized Attachment shardsForStandby(List<Integer> replicas, PairPeer standby) {
        return shardsForStandby(replicas, standby, null);
    }

    /**
     * As above; {@code relayFrom}: the address the standby's relay connects to this home's proxy from (its advertised
     * address), kept ({@link io.cleave.manager.standby.relay.RelaySource}) and trusted with PROXY protocol headers.
     */
    public synchronized Attachment shardsForStandby(List<Integer> replicas, PairPeer standby, String relayFrom) {
        StandbyState state = StandbyState.of(home).orElseThrow(() -> new IllegalStateException(
                "no standby is attached to this home"));
        if (state.role() != HostRole.PRIMARY) {
            throw new IllegalStateException("this home is a standby of " + state.primary() + ": ask the primary");
        }
        lastStandbyContact = System.nanoTime();
        if (standby != null && !PairPeer.of(home).equals(java.util.Optional.of(standby))) {
            try {
                standby.save(home);
                log.info("the standby's admin API is at {}", standby.url());
            } catch (java.io.IOException e) {
                log.warn("could not keep the standby's admin address: {}", e.getMessage());
            }
        }
        if (relayFrom != null) {
            try {
                io.cleave.manager.standby.relay.RelaySource.Kept kept =
                        io.cleave.manager.standby.relay.RelaySource.save(home.state(), relayFrom);
                if (kept.changed()) {
                    log.info("the standby relays its clients to this home's proxy from {}: its PROXY headers are trusted",
                            kept.address());
                }
                // At every asking, not only when the address changes: a proxy that started after the address was kept
                // but read the state before it was (a take-over starting its proxy while the standby asks) would
                // otherwise never trust it, and refuse every relayed client.
                this.relayFrom.accept(kept.address());
            } catch (java.io.IOException | RuntimeException e) {
                log.warn("the standby's relay address {} is not trusted: {}", relayFrom, e.getMessage());
            }
        }
        if (replicas != null) {
            standbyReplicas = new StandbyReplicas(lastStandbyContact, java.util.Set.copyOf(replicas));
        }
        ReplicationAccount account = ReplicationAccount.of(home);
        List<Integer> leaving = retired.get();
        List<Attachment.ShardAddress> addresses = new ArrayList<>();
        for (ShardEndpoint e : shards.get()) {
            if (!links.has(e.index()) || leaving.contains(e.index())) {
                continue; // a scale's new shard that does not answer yet, or one a scale down is stopping
            }
            try {
                if (!offered.contains(e.index())) {
                    try (Connection c = links.open(e.index())) {
                        prepare(c, account, home);
                    }
                    offered.add(e.index());
                }
                addresses.add(new Attachment.ShardAddress(e.index(), e.host(), e.port()));
            } catch (SQLException ex) {
                log.debug("shard {} not offered to the standby now: {}", e.index(), ex.getMessage());
            }
        }
        return new Attachment(state.epoch(), account.user(), account.password(), serverIdBase, addresses, leaving,
                proxyAddress(), io.cleave.manager.standby.tls.ShardTls.of(home).certificate());
    }

    /**
     * A shard a scale down takes away, after the map without it was published (and acknowledged by the standby)
     * and before it stops: waits until the standby's daemon says it let go of its replica (it learns the shard is
     * retired at its next asking, every 2 s, and asks again once it let go), so the replica never sees its primary
     * shard vanish and no status reports it broken meanwhile. (The shard's own count of semi-sync replicas does not
     * tell: its binlog dump thread notices the replica gone only when it next sends something.) Nothing depends on
     * it for the rows (the shard holds none the map names): after {@code timeout} (the standby's daemon is down) the
     * shard stops anyway, and the standby lets its replica go when its daemon runs again.
     */
    public void awaitStandbyLetGo(int shard, java.time.Duration timeout) throws InterruptedException {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null || state.role() != HostRole.PRIMARY || !state.semiSync()) {
            return;
        }
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        while (true) {
            StandbyReplicas said = standbyReplicas;
            if (said.at() > started && !said.shards().contains(shard)) {
                log.info("shard {}: the standby let its replica go", shard);
                return;
            }
            if (System.nanoTime() > deadline) {
                log.warn("shard {}: the standby has not said it let its replica go {} s after the shard map stopped"
                        + " naming the shard; it stops now (the standby lets its replica go when its daemon asks again)",
                        shard, timeout.toSeconds());
                return;
            }
            Thread.sleep(100);
        }
    }

    /** How long ago the standby's daemon last asked for the shards; null when it has not since this daemon started. */
    public java.time.Duration sinceStandbyContact() {
        long last = lastStandbyContact;
        return last == 0 ? null : java.time.Duration.ofNanos(System.nanoTime() - last);
    }

    /**
     * A shard a scale adds, before anything is written to it: with a standby counted on, it waits for the
     * standby's acknowledgement like the others (from its my.cnf; set again here), and this returns once the
     * standby's replica of it is connected, so the shard's first transaction is the standby's too. No standby
     * counted on: nothing to wait for.
     *
     * @throws IllegalStateException when the replica is not connected within {@code timeout} (the scale goes on trying)
     */
    public void awaitStandbyReplica(int shard, java.time.Duration timeout) throws SQLException, InterruptedException {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null || state.role() != HostRole.PRIMARY || !state.semiSync()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = links.open(shard)) {
            prepare(c, ReplicationAccount.of(home), home);
            SemiSync.enable(c);
            while (SemiSync.replicasConnected(c) < 1) {
                if (System.nanoTime() > deadline) {
                    java.time.Duration since = sinceStandbyContact();
                    throw new IllegalStateException("the standby has no replica of new shard " + shard + " yet (its daemon"
                            + " makes it; it last asked for this home's shards " + (since == null ? "never since this"
                            + " daemon started" : since.toSeconds() + " s ago") + "): nothing is written to the shard until"
                            + " it has one");
                }
                Thread.sleep(100);
            }
        }
        log.info("shard {}: the standby's replica is connected; the shard waits for its acknowledgements", shard);
    }

    /** Turns semi-sync on or off on every shard, and keeps the choice for shards that restart. */
    public StandbyState semiSync(boolean on) throws SQLException {
        StandbyState next = semiSyncNow(on);
        rewriteCnfs.run();
        return next;
    }

    /**
     * As {@link #semiSync}, without writing the shards' my.cnf (a switchover's take-over writes them once the
     * held statements run: its pause is no place for file writes).
     */
    synchronized StandbyState semiSyncNow(boolean on) throws SQLException {
        StandbyState state = StandbyState.of(home).orElseThrow(() -> new IllegalStateException(
                "no standby is attached to this home: run 'cleave standby' on the standby's host first"));
        if (state.role() != HostRole.PRIMARY) {
            throw new IllegalStateException("this home is a standby: semi-sync is set on the primary");
        }
        for (ShardEndpoint e : shards.get()) {
            try (Connection c = links.open(e.index())) {
                if (on) {
                    SemiSync.enable(c);
                } else {
                    SemiSync.disable(c);
                }
            }
        }
        StandbyState next = state.withSemiSync(on);
        StandbyState.file(home).save(next);
        log.info("semi-sync {} on {} shards", on ? "on (AFTER_SYNC, no fallback to async)" : "off", shards.get().size());
        return next;
    }

    /** The XA transactions prepared and not committed at {@code cut} on each shard (see {@link PreparedAtCut}). */
    public List<PendingPrepare> preparedAt(List<CutPosition> cut) throws SQLException, java.io.IOException {
        return PreparedAtCut.find(links, cut);
    }

    /** The replication account (outside the binlog; over TLS only where the shards offer it) and strict GTIDs on one shard. */
    private static void prepare(Connection c, ReplicationAccount account, CleaveHome home) throws SQLException {
        account.ensure(c, io.cleave.manager.standby.tls.ShardTls.of(home).accountRequirement());
        try (Statement s = c.createStatement()) {
            s.execute("SET GLOBAL gtid_strict_mode = ON");
        }
    }
}
