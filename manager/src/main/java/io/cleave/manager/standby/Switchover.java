package io.cleave.manager.standby;

import io.cleave.manager.accounts.AccountSync;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import io.cleave.proxy.cutover.Cutover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code cleave switchover} on the primary: a planned swap of the pair's roles, no acknowledged commit
 * lost and no client error. The proxy holds every statement that would reach a shard and waits for open
 * transactions to end (past a deadline the switchover is abandoned and the held statements run as
 * before); this home's shards become read-only and their GTID positions are read; the standby applies
 * exactly those and becomes the primary (see {@link TakeOver}); the proxy then routes every shard to the
 * new primary's and releases what it held. Last, this home's shards replicate the new primary's, and this
 * home is its standby. A step that fails says what it changed ({@link SwitchoverFailed}).
 */
public final class Switchover {

    private static final Logger log = LoggerFactory.getLogger(Switchover.class);
    /** How long a replica of the new primary may take to log in and run. */
    private static final long REPLICA_START_NANOS = 10_000_000_000L;

    private final CleaveHome home;
    private final ShardLinks links;
    private final List<Integer> shards;
    private final SwitchingProxy proxy;
    private final Supplier<String> busy;
    private final Runnable rewriteCnfs;
    private final AccountSync accounts;
    private final String ownShardHost;

    /**
     * @param busy        why the home cannot switch now (a move, import, scale or backup under way), or null
     * @param rewriteCnfs writes the shards' my.cnf again for the home's pair role
     * @param accounts    the clients' accounts, which the standby's shards are given exactly
     * @param ownShardHost this home's advertised shard address (server.advertise_host, else bind_address): this
     *                    home's proxy connects from it when it forwards to a standby on another host
     */
    public Switchover(CleaveHome home, ShardLinks links, List<ShardEndpoint> shards, SwitchingProxy proxy,
                      Supplier<String> busy, Runnable rewriteCnfs, AccountSync accounts, String ownShardHost) {
        this.accounts = accounts;
        this.ownShardHost = ownShardHost;
        this.home = home;
        this.links = links;
        this.shards = shards.stream().filter(e -> !e.attached()).map(ShardEndpoint::index).toList();
        this.proxy = proxy;
        this.busy = busy;
        this.rewriteCnfs = rewriteCnfs;
    }

    /** A step failed after something was changed: the message says what, and what to do. */
    public static final class SwitchoverFailed extends RuntimeException {
        public SwitchoverFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public SwitchoverReport run(SwitchoverRequest request) throws Exception {
        long started = System.nanoTime();
        StandbyState state = StandbyState.of(home).orElseThrow(() -> new IllegalStateException(
                "this home has no standby: run 'cleave standby' on another host first"));
        if (state.role() != HostRole.PRIMARY) {
            throw new IllegalStateException("this home is the standby of " + state.primary()
                    + ": run the switchover on the primary");
        }
        PairPeer peer = request.standby() != null ? new PairPeer(request.standby(), request.standbyToken())
                : PairPeer.of(home).orElseThrow(() -> new IllegalStateException("this home does not know its standby's"
                + " admin address yet: give it (--standby URL --standby-token-file FILE)"));
        AdminClient standby = AdminClient.remote(peer.url(), peer.token());
        check(state, standby, request);
        Positions positions = new Positions(standby);
        try (Connection c = links.open(shards.get(0))) {
            positions.accounts.addAll(accounts.userCopies(c));
        }
        catchUpBeforeHolding(standby, request);
        long holdAsked = System.nanoTime();
        try {
            // After a first switchover the standby's proxy forwards its clients here: they are held too.
            positions.standbyHeld = standby.holdForwarding(request.drainMillis(),
                    request.drainMillis() + 2 * request.catchUpMillis() + 30_000);
        } catch (IOException e) {
            throw new IllegalStateException("the standby's proxy, which forwards its clients to this home, could not"
                    + " hold them: " + e.getMessage() + "; nothing was changed", e);
        }
        Cutover cutover = Cutover.allShards(state.epoch(), Duration.ofMillis(request.drainMillis()));
        log.info("switchover to {}: holding statements (at most {} ms for open transactions to end)", peer.url(),
                request.drainMillis());
        long holdStarted = System.nanoTime();
        Cutover.Outcome outcome = proxy.withoutRecovery(() -> proxy.gate().run(cutover,
                () -> switchShards(standby, peer, request, positions)));
        if (!outcome.switched()) {
            if (positions.failure != null) {
                throw positions.failure;
            }
            positions.releaseStandby();
            throw new IllegalStateException("switchover abandoned while " + SwitchoverStep.HOLD.what() + ": "
                    + outcome.reason() + "; the held statements ran on this home, nothing was changed");
        }
        List<SwitchoverReport.ShardSwitch> out = new ArrayList<>();
        positions.gtids.forEach((shard, gtid) -> out.add(new SwitchoverReport.ShardSwitch(shard, gtid)));
        replicate(standby, peer, positions);
        double pause = outcome.pauseNanos() / 1e6;
        // Where the pause goes: the drain runs from the hold to the fence, then the fence's steps.
        log.info("switchover: drained in {} ms, read-only and positions {} ms, take-over {} ms, forward and release {} ms",
                (positions.drained - holdStarted) / 1_000_000, (positions.positionsRead - positions.drained) / 1_000_000,
                (positions.tookOver - positions.positionsRead) / 1_000_000,
                (holdStarted + outcome.pauseNanos() - positions.tookOver) / 1_000_000);
        log.info("switchover done: {} is the primary at epoch {}; statements held {} ms ({} of them); positions {}",
                peer.url(), positions.answer.epoch(), String.format("%.1f", pause), outcome.held(), positions.gtids);
        return new SwitchoverReport(positions.answer.epoch(), peer.url(), out, pause, outcome.held(),
                (System.nanoTime() - started) / 1_000_000,
                positions.standbyHeld ? (positions.tookOver - holdAsked) / 1e6 : -1);
    }

    /**
     * The standby applies up to this home's positions as they are now, while clients still write ({@link CatchUp}):
     * the held catch-up then waits only for what comes after. Within the request's catch-up time; a standby that does
     * not get there, or does not answer, leaves it to the held catch-up, which decides.
     */
    private void catchUpBeforeHolding(AdminClient standby, SwitchoverRequest request) {
        try {
            Map<Integer, String> now = new LinkedHashMap<>();
            for (int shard : shards) {
                try (Connection c = links.open(shard)) {
                    now.put(shard, single(c, "SELECT @@gtid_binlog_pos"));
                }
            }
            CatchUp.Result r = standby.catchUp(new CatchUp(now, request.catchUpMillis()));
            log.info("switchover: the standby {} this home's positions before the hold in {} ms", r.reached()
                    ? "applied" : "did not yet apply", r.millis());
        } catch (IOException | SQLException | RuntimeException e) {
            log.info("switchover: no catch-up before the hold ({}): the held one waits for the whole backlog",
                    e.getMessage());
        }
    }

    /** What the fence found and did, for the steps after it and for a failure's message. */
    private static final class Positions {
        final AdminClient standby;
        final Map<Integer, String> gtids = new LinkedHashMap<>();
        final List<AccountSync.AccountCopy> accounts = new ArrayList<>();
        volatile boolean standbyHeld;
        volatile long drained;
        volatile long positionsRead;
        volatile long tookOver;
        final List<Integer> readOnly = new ArrayList<>();
        volatile SwitchoverStep step = SwitchoverStep.HOLD;
        volatile TakeOverAnswer answer;
        volatile RuntimeException failure;

        Positions(AdminClient standby) {
            this.standby = standby;
        }

        /** The standby's forwarding proxy goes on as before (the switchover was abandoned). */
        void releaseStandby() {
            if (standbyHeld) {
                try {
                    standby.releaseForwarding();
                } catch (IOException e) {
                    log.warn("could not release the standby's forwarding proxy (it lets go at its bound): {}",
                            e.getMessage());
                }
            }
        }
    }

    /** Refuses before anything is held: no standby, a busy home, a replica stopped or far behind. */
    private void check(StandbyState state, AdminClient standby, SwitchoverRequest request) throws Exception {
        String reason = busy.get();
        if (reason != null) {
            throw new IllegalStateException(reason + ": switch over once it has finished");
        }
        StandbyReport report;
        try {
            report = standby.standby();
        } catch (IOException e) {
            throw new IllegalStateException("the standby does not answer: " + e.getMessage(), e);
        }
        if (report.role() != HostRole.STANDBY || report.epoch() != state.epoch()) {
            throw new IllegalStateException("the home at the standby's address is " + report.role() + " at epoch "
                    + report.epoch() + ", not this home's standby at epoch " + state.epoch());
        }
        if (report.shards().size() != shards.size()) {
            throw new IllegalStateException("the standby reports " + report.shards().size() + " replicas for "
                    + shards.size() + " shards: wait until it has read them all");
        }
        for (ShardReplication r : report.shards()) {
            if (!r.replicating()) {
                throw new IllegalStateException("shard " + r.shard() + "'s replica is not running (IO " + r.ioThread()
                        + ", SQL " + r.sqlThread() + (r.lastError() == null ? "" : ", " + r.lastError()) + ")");
            }
            if (r.lagSeconds() < 0 || r.lagSeconds() > request.maxLagSeconds()) {
                throw new IllegalStateException("shard " + r.shard() + "'s replica is " + (r.lagSeconds() < 0 ? "at an"
                        + " unknown distance" : r.lagSeconds() + " s") + " behind (the bound is "
                        + request.maxLagSeconds() + " s)");
            }
        }
        for (int shard : shards) {
            try (Connection c = links.open(shard)) {
                if (!"1".equals(single(c, "SELECT @@log_slave_updates"))) {
                    throw new IllegalStateException("shard " + shard + " runs without log_slave_updates, so as a"
                            + " replica it would not keep the new primary's transactions for a switch back: restart"
                            + " this home ('cleave down', 'cleave up'), its shards then start with it");
                }
            }
        }
    }

    /**
     * The fence: runs while every statement is held and no transaction is open. Before the standby is
     * promoted everything it did is undone on failure; after, this home's proxy serves nothing rather
     * than write where the standby no longer reads.
     */
    private void switchShards(AdminClient standby, PairPeer peer, SwitchoverRequest request, Positions p)
            throws Exception {
        p.drained = System.nanoTime();
        try {
            p.step = SwitchoverStep.READ_ONLY;
            for (int shard : shards) {
                try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                    s.execute("SET GLOBAL read_only = ON");
                    p.readOnly.add(shard);
                }
            }
            p.step = SwitchoverStep.POSITIONS;
            for (int shard : shards) {
                try (Connection c = links.open(shard); Statement st = c.createStatement()) {
                    int prepared = Promotion.prepared(st);
                    if (prepared > 0) {
                        throw new IllegalStateException("shard " + shard + " has " + prepared + " XA branch(es) prepared"
                                + " ('cleave xa list')");
                    }
                    p.gtids.put(shard, single(c, "SELECT @@gtid_binlog_pos"));
                }
            }
        } catch (Exception e) {
            throw abandoned(p, e.getMessage(), e);
        }
        p.step = SwitchoverStep.PROMOTE_STANDBY;
        p.positionsRead = System.nanoTime();
        try {
            p.answer = standby.takeOver(new TakeOverRequest(p.gtids, request.catchUpMillis(), proxy.runId(), p.accounts,
                            ReplicationAccount.of(home).password(), ownShardHost),
                    Duration.ofMillis(request.catchUpMillis() * 2 + 30_000));
        } catch (AdminClient.DaemonAnswer e) {
            if (e.status() == 409) {
                throw abandoned(p, "the standby refused to take over: " + e.getMessage(), e);
            }
            throw unknownStandby(standby, p, e);
        } catch (IOException | RuntimeException e) {
            throw unknownStandby(standby, p, e);
        }
        p.tookOver = System.nanoTime();
        p.step = SwitchoverStep.FORWARD;
        try {
            // From here on this home is the standby, whatever happens next: a restart must not bring it up as a primary.
            StandbyState.file(home).save(new StandbyState(HostRole.STANDBY, p.answer.epoch(), peer.url(), false));
            PairPeer.saveAsPrimary(home, peer.token());
            PairPeer.forget(home);
            // This home's proxy forwards to the new primary now: the other home's proxy, if it still ran, serves its own.
            io.cleave.manager.standby.forwarding.ForwardingPeer.forget(home.state());
            proxy.forwardTo(p.answer.shards(), p.answer.sockets(), p.answer.user(), p.answer.password());
        } catch (IOException | RuntimeException e) {
            // The standby is the primary now: the held statements must not run on this home's shards.
            proxy.serveNoShard();
            p.failure = new SwitchoverFailed("switchover failed at step " + p.step + " (" + p.step.what() + "): "
                    + e.getMessage() + "; the standby is the primary at epoch " + p.answer.epoch() + ", this home's"
                    + " shards are read-only and its proxy serves no shard: move the clients to the new primary's"
                    + " proxy", e);
            throw p.failure;
        }
    }

    /**
     * The standby's answer was lost or it failed while promoting: it may be a primary now. This home's
     * shards stay read-only and its proxy serves nothing, so no client writes where the standby does not read.
     */
    private RuntimeException unknownStandby(AdminClient standby, Positions p, Exception cause) {
        String now;
        try {
            StandbyReport r = standby.standby();
            if (r.role() == HostRole.STANDBY) {
                return abandoned(p, "the standby failed before it changed anything (" + cause.getMessage() + ")", cause);
            }
            now = "it is " + r.role() + " at epoch " + r.epoch();
        } catch (IOException e) {
            now = "it does not answer (" + e.getMessage() + ")";
        }
        proxy.serveNoShard();
        p.failure = new SwitchoverFailed("switchover failed at step " + p.step + " (" + p.step.what() + "): "
                + cause.getMessage() + "; " + now + ". This home's shards are read-only and its proxy serves no"
                + " shard (clients get errors) so that nothing is written on both homes: finish with 'cleave promote'"
                + " on the standby and move the clients to its proxy, or, if it is still a standby, restart this"
                + " home's daemon", cause);
        return p.failure;
    }

    /** Before the standby changed: this home's shards become writable again and the held statements run here. */
    private RuntimeException abandoned(Positions p, String why, Exception cause) {
        undoReadOnly(p);
        p.releaseStandby();
        p.failure = new IllegalStateException("switchover abandoned at step " + p.step + " (" + p.step.what() + "): "
                + why + "; the held statements ran on this home, nothing was changed", cause);
        return p.failure;
    }

    private void undoReadOnly(Positions p) {
        for (int shard : p.readOnly) {
            try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                s.execute("SET GLOBAL read_only = OFF");
            } catch (SQLException e) {
                log.warn("shard {}: could not make it writable again: {}", shard, e.getMessage());
            }
        }
        p.readOnly.clear();
    }

    /**
     * This home's shards (this home is the new primary's standby since the take-over) replicate the new
     * primary's from where it took over, and their my.cnf get the replica options. A shard whose binlog moved since the positions were read holds a transaction the new
     * primary lacks: it is left alone (it must be seeded again), and the new primary stops waiting for
     * acknowledgements, which it would otherwise wait for forever.
     */
    private void replicate(AdminClient standby, PairPeer peer, Positions p) {
        ReplicationAccount account = ReplicationAccount.of(home);
        try {
            io.cleave.manager.standby.tls.ReplicaLink link = io.cleave.manager.standby.tls.ShardTls.of(home)
                    .toPrimary(p.answer.shardCertificate());
            for (Attachment.ShardAddress address : p.answer.shards()) {
                String at = p.gtids.get(address.shard());
                try (Connection c = links.open(address.shard())) {
                    String now = single(c, "SELECT @@gtid_binlog_pos");
                    if (!at.equals(now)) {
                        throw new IllegalStateException("shard " + address.shard() + " wrote transactions after the"
                                + " switch (" + at + " then, " + now + " now), which the new primary lacks");
                    }
                    ReplicaSetup.follow(c, address, account, at, link);
                }
            }
            for (Attachment.ShardAddress address : p.answer.shards()) {
                try (Connection c = links.open(address.shard())) {
                    awaitReplicating(address.shard(), c);
                }
            }
            PeerShardAccount.forget(home, links, p.answer.shards().stream().map(Attachment.ShardAddress::shard).toList());
            rewriteCnfs.run();
        } catch (Exception e) {
            p.step = SwitchoverStep.REPLICATE;
            String semiSync;
            try {
                standby.semiSync(false);
                semiSync = "its semi-sync was turned off so that its commits do not wait for this home";
            } catch (IOException off) {
                semiSync = "turning its semi-sync off failed too (" + off.getMessage() + "): run 'cleave standby"
                        + " --semi-sync off' on it, or its commits wait";
            }
            throw new SwitchoverFailed("switchover failed at step " + p.step + " (" + p.step.what() + "): "
                    + e.getMessage() + ". " + peer.url() + " is the primary at epoch " + p.answer.epoch()
                    + " and this home's proxy routes to it; " + semiSync + ". This home's shards are read-only and do"
                    + " not all replicate it: seed a new standby from the primary ('cleave standby')", e);
        }
    }

    /**
     * Until the shard's replica runs both threads: the new primary's commits wait for its acknowledgement,
     * so one that cannot log in or apply would hold them up unseen.
     */
    private static void awaitReplicating(int shard, Connection c) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + REPLICA_START_NANOS;
        while (true) {
            String state = "no replica configured";
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                if (rs.next()) {
                    if ("Yes".equals(rs.getString("Slave_IO_Running")) && "Yes".equals(rs.getString("Slave_SQL_Running"))) {
                        return;
                    }
                    String error = rs.getString("Last_IO_Error") + rs.getString("Last_SQL_Error");
                    state = "IO " + rs.getString("Slave_IO_Running") + ", SQL " + rs.getString("Slave_SQL_Running")
                            + (error.isBlank() ? "" : ": " + error);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("shard " + shard + "'s replica does not run after "
                        + REPLICA_START_NANOS / 1_000_000_000 + " s (" + state + ")");
            }
            Thread.sleep(20);
        }
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
