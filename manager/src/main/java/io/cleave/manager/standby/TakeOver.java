package io.cleave.manager.standby;

import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The standby's part of a switchover: its primary is read-only and has read each shard's GTID position;
 * every replica waits until it has applied exactly that ({@code MASTER_GTID_WAIT}, bounded), and only
 * when all have does anything change: the replicas are promoted (the promotion's own steps, without a
 * relay log to drain), the epoch is bumped, the shards wait for the old primary's acknowledgement from
 * their first commit on (semi-sync, no fallback), and the old primary becomes this home's known standby.
 * A replica that does not get there refuses the switchover with nothing changed here. The shards' my.cnf
 * are the caller's to write afterwards, for the primary's role.
 */
public final class TakeOver {

    private static final Logger log = LoggerFactory.getLogger(TakeOver.class);

    private final CleaveHome home;
    private final ShardLinks links;
    private final List<ShardEndpoint> shards;
    private final PrimarySide primarySide;
    private final ClaimMove claim;

    /**
     * Moves the pair's primary to this home where the pair keeps it outside the homes (etcd), between the catch-up
     * and the promotion: refused (an IllegalStateException, nothing changed) when it cannot.
     */
    @FunctionalInterface
    public interface ClaimMove {
        /** Nothing to move: a pair whose epoch lives in the homes' standby.json only. */
        ClaimMove NONE = from -> { };

        /** The primary at {@code from} hands its claim to this home at {@code from + 1}. */
        void take(long from) throws Exception;
    }

    public TakeOver(CleaveHome home, ShardLinks links, List<ShardEndpoint> shards, PrimarySide primarySide,
                    ClaimMove claim) {
        this.home = home;
        this.links = links;
        this.shards = List.copyOf(shards);
        this.primarySide = primarySide;
        this.claim = claim;
    }

    public TakeOverAnswer run(TakeOverRequest request) throws Exception {
        StandbyState state = StandbyState.of(home).orElseThrow(() -> new IllegalStateException(
                "this home is no standby: there is nothing to switch over to"));
        if (state.role() != HostRole.STANDBY) {
            throw new IllegalStateException("this home is already the primary (epoch " + state.epoch() + ")");
        }
        if (!request.gtids().keySet().equals(shards.stream().map(ShardEndpoint::index).collect(
                java.util.stream.Collectors.toSet()))) {
            throw new IllegalStateException("the primary's shards " + request.gtids().keySet() + " are not this"
                    + " standby's " + shards.stream().map(ShardEndpoint::index).toList());
        }
        for (ShardEndpoint e : shards) {
            reach(e.index(), request.gtids().get(e.index()), request.waitMillis());
        }
        // Every replica holds all the read-only primary wrote: the claim moves now, before anything here changes,
        // and the promotion below bumps standby.json to the same epoch.
        claim.take(state.epoch());
        // Known before the promotion, so a proxy started from here on leaves the forwarding proxy's branches alone.
        ForwardingProxies.add(home, request.forwardingRun());
        // And that proxy routes by the map it has now: no layout change here until it stops (before this home is primary).
        io.cleave.manager.standby.forwarding.ForwardingPeer.mark(home.state(), state.primary());
        ReplicationAccount account = ReplicationAccount.adopt(home, request.replicationPassword());
        // The old primary replicates this home's shards next, as this home's shards run: over TLS when they offer it.
        io.cleave.manager.standby.tls.ShardTls tls = io.cleave.manager.standby.tls.ShardTls.of(home);
        // The old primary's proxy forwards its clients here next; from another host it logs in with an account of its own.
        java.util.Optional<PeerShardAccount> peer = PeerShardAccount.forPeer(request.peerHost(), account.password());
        for (ShardEndpoint e : shards) {
            try (Connection c = links.open(e.index())) {
                account.ensure(c, tls.accountRequirement());
                if (peer.isPresent()) {
                    peer.get().ensure(c);
                }
            }
        }
        if (peer.isPresent()) {
            peer.get().remember(home);
        }
        new Promotion(home, links, 0).promoteCaughtUp(shards.stream().map(ShardEndpoint::index).toList());
        new PairPeer(state.primary(), PairPeer.primaryToken(home)).save(home);
        primarySide.semiSyncNow(true);
        long epoch = StandbyState.of(home).orElseThrow().epoch();
        List<Attachment.ShardAddress> addresses = new ArrayList<>();
        java.util.Map<Integer, String> sockets = new java.util.HashMap<>();
        for (ShardEndpoint e : shards) {
            addresses.add(new Attachment.ShardAddress(e.index(), e.host(), e.port()));
            if (e.socket() != null) {
                sockets.put(e.index(), e.socket().toAbsolutePath().toString());
            }
        }
        log.info("took over from {} at {}: primary at epoch {}", state.primary(), request.gtids(), epoch);
        return answer(epoch, shards.get(0), addresses, sockets, peer, tls.certificate());
    }

    /**
     * How the old primary's proxy logs in here: with this home's shard account through the Unix sockets when it is on
     * this host, else over TCP with the account made for its address (no sockets then: its password is the peer's).
     * {@code shardCertificate}: what this home's shards offer, for the old primary's replicas to verify.
     */
    static TakeOverAnswer answer(long epoch, ShardEndpoint any, List<Attachment.ShardAddress> addresses,
                                 java.util.Map<Integer, String> sockets, java.util.Optional<PeerShardAccount> peer,
                                 String shardCertificate) {
        return peer.map(p -> new TakeOverAnswer(epoch, p.user(), p.password(), addresses, java.util.Map.of(),
                        shardCertificate))
                .orElseGet(() -> new TakeOverAnswer(epoch, any.user(), any.secret(), addresses, sockets, shardCertificate));
    }

    /** Waits until the shard's replica applied {@code gtid}; refuses when it does not in time. */
    private void reach(int shard, String gtid, long waitMillis) throws SQLException {
        try (Connection c = links.open(shard)) {
            if (!applies(c, gtid, waitMillis)) {
                throw new IllegalStateException("shard " + shard + "'s replica did not apply the primary's GTID " + gtid
                        + " within " + waitMillis + " ms (it is at " + applied(c) + "): nothing was changed on the standby");
            }
        }
    }

    /** Whether the replica applied {@code gtid} within {@code waitMillis} (MASTER_GTID_WAIT). */
    private static boolean applies(Connection c, String gtid, long waitMillis) throws SQLException {
        try (PreparedStatement wait = c.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
            wait.setString(1, ReplicaSetup.gtid(gtid));
            wait.setDouble(2, Math.max(0, waitMillis) / 1000.0);
            try (ResultSet rs = wait.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 0;
            }
        }
    }

    /**
     * A switchover's catch-up before its hold ({@link CatchUp}): waits, within the request's time for all shards
     * together, until every replica applied the primary's position; changes nothing.
     */
    public CatchUp.Result catchUp(CatchUp request) throws SQLException {
        StandbyState state = StandbyState.of(home).orElseThrow(() -> new IllegalStateException(
                "this home is no standby: there is nothing to catch up"));
        if (state.role() != HostRole.STANDBY) {
            throw new IllegalStateException("this home is the primary (epoch " + state.epoch() + ")");
        }
        long started = System.nanoTime();
        long deadline = started + request.waitMillis() * 1_000_000L;
        boolean reached = true;
        for (ShardEndpoint e : shards) {
            String gtid = request.gtids().get(e.index());
            if (gtid == null) {
                continue;
            }
            try (Connection c = links.open(e.index())) {
                reached &= applies(c, gtid, (deadline - System.nanoTime()) / 1_000_000L);
            }
        }
        return new CatchUp.Result((System.nanoTime() - started) / 1_000_000L, reached);
    }

    private static String applied(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@gtid_slave_pos")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
