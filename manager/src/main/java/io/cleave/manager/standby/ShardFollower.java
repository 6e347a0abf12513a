package io.cleave.manager.standby;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * On a standby: follows the primary's shards as a scale adds and removes them. Every poll asks the primary for its
 * shards ({@code POST /v1/standby/shards}); a shard this home has no replica of gets one: an instance of
 * this home's own plan (its ports, server id and my.cnf, with the replica options) is started, then
 * replicates the primary's shard from its first transaction. The primary writes nothing to a new shard
 * until that replica is connected, and from then on waits for its acknowledgements (semi-sync), so no row
 * lands there that the standby lacks. The primary also learns from the asking that this daemon is up: a
 * scale is refused while it has not heard from it. A shard a scale down took away (the primary names it
 * retired) loses its replica here once the map without it has replicated ({@link Retirer}); the primary's
 * shard waits for that before it stops.
 */
public final class ShardFollower {

    private static final Logger log = LoggerFactory.getLogger(ShardFollower.class);

    /** Starts this home's instance of shard {@code index} (idempotent) and returns once it answers. */
    public interface ShardStarter {
        ShardEndpoint start(int index) throws InterruptedException;
    }

    /** Lets go of this home's replica of a shard the primary retired; false while it must stay (see the implementation). */
    public interface Retirer {
        boolean retire(int index) throws InterruptedException, SQLException;
    }

    private final CleaveHome home;
    private final ShardLinks links;
    private final Supplier<List<ShardEndpoint>> shards;
    private final ShardStarter starter;
    private final Retirer retirer;
    /** This home's own admin API, told to the primary at every asking (see {@link PrimarySide#shardsForStandby}). */
    private final PairPeer self;
    /** The address this home's relay connects to the primary's proxy from (its advertised address). */
    private final String relayFrom;
    /**
     * Told where the primary's proxy listens, at every answer that says, and why this home cannot reach it at all
     * (null when it may).
     */
    private final java.util.function.BiConsumer<io.cleave.manager.config.HostPort, String> primaryProxy;
    private volatile String lastProblem;
    /** The retired shards whose replica waits for the map without them (logged once). */
    private final Set<Integer> waiting = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public ShardFollower(CleaveHome home, ShardLinks links, Supplier<List<ShardEndpoint>> shards, ShardStarter starter,
                         Retirer retirer, PairPeer self, String relayFrom,
                         java.util.function.BiConsumer<io.cleave.manager.config.HostPort, String> primaryProxy) {
        this.home = home;
        this.self = self;
        this.relayFrom = relayFrom;
        this.primaryProxy = primaryProxy;
        this.links = links;
        this.shards = shards;
        this.starter = starter;
        this.retirer = retirer;
    }

    /** One round: the primary's shards, and a replica of each this home lacks. Errors are logged, not thrown. */
    public void poll() {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null || state.role() != HostRole.STANDBY) {
            return;
        }
        try {
            AdminClient client = AdminClient.remote(state.primary(), PairPeer.primaryToken(home));
            Attachment primary = client.standbyShards(replicas(), self, relayFrom);
            if (primary.proxy() != null) {
                primaryProxy.accept(primary.proxy().hostPort(), loopbackElsewhere(primary));
            }
            // Kept current at every asking: a primary that made its certificate again (its names changed) is verified
            // with the new one from its replicas' next connection.
            io.cleave.manager.standby.tls.ReplicaLink link = io.cleave.manager.standby.tls.ShardTls.of(home)
                    .toPrimary(primary.shardCertificate());
            Set<Integer> have = Set.copyOf(replicas());
            boolean retiredAny = false;
            for (int retired : primary.retired()) {
                if (have.contains(retired)) {
                    retiredAny |= retire(retired);
                }
            }
            if (retiredAny) {
                // The primary's shard waits for this before it stops.
                client.standbyShards(replicas(), self, relayFrom);
            }
            have = Set.copyOf(replicas());
            relink(primary, have, link);
            for (Attachment.ShardAddress address : primary.shards()) {
                if (!have.contains(address.shard()) && !primary.retired().contains(address.shard())) {
                    follow(address, primary.account(), link);
                }
            }
            lastProblem = null;
        } catch (java.io.IOException | SQLException | RuntimeException e) {
            String problem = e.getMessage();
            if (!java.util.Objects.equals(problem, lastProblem)) {
                log.warn("could not follow the primary's shards at {}: {}", state.primary(), problem);
                lastProblem = problem;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Why the primary's proxy cannot be reached from this host: it listens on a loopback address while the primary's
     * shards are advertised at another address (the primary runs on another host); else null.
     */
    static String loopbackElsewhere(Attachment primary) {
        String proxyHost = primary.proxy().host();
        if (!io.cleave.manager.config.ListenAddresses.isLoopback(proxyHost)) {
            return null;
        }
        return primary.shards().stream().map(Attachment.ShardAddress::host)
                .filter(h -> !io.cleave.manager.config.ListenAddresses.isLoopback(h)).findFirst()
                .map(h -> "the primary's proxy listens on " + primary.proxy().hostPort() + ", a loopback address of the"
                        + " primary's host (its shards are at " + h + "): not reachable from this standby; give the"
                        + " primary a proxy.listen address this host reaches")
                .orElse(null);
    }

    private List<Integer> replicas() {
        return shards.get().stream().map(ShardEndpoint::index).toList();
    }

    /** Every replica of a primary shard connects as {@code link} says (see {@link ReplicaSetup#relink}). */
    private void relink(Attachment primary, Set<Integer> have, io.cleave.manager.standby.tls.ReplicaLink link)
            throws SQLException {
        for (Attachment.ShardAddress address : primary.shards()) {
            if (!have.contains(address.shard())) {
                continue;
            }
            try (Connection c = links.open(address.shard())) {
                if (ReplicaSetup.relink(c, link)) {
                    log.info("shard {}: the replica connects to the primary's shard {} now", address.shard(),
                            link.encrypted() ? "over TLS, verifying its certificate" : "in clear");
                }
            }
        }
    }

    private boolean retire(int index) throws InterruptedException, SQLException {
        if (retirer.retire(index)) {
            waiting.remove(index);
            return true;
        }
        if (waiting.add(index)) {
            log.info("the primary took shard {} away (a scale down): its replica here goes once the shard map without it"
                    + " has replicated", index);
        }
        return false;
    }

    private void follow(Attachment.ShardAddress primary, ReplicationAccount account,
                        io.cleave.manager.standby.tls.ReplicaLink link) throws InterruptedException, SQLException {
        log.info("the primary runs shard {} ({}:{}), which this home has no replica of: starting one", primary.shard(),
                primary.host(), primary.port());
        starter.start(primary.shard());
        try (Connection c = links.open(primary.shard())) {
            if (ReplicaSetup.startFromScratch(c, primary, account, link,
                    io.cleave.manager.standby.tls.ShardTls.of(home).accountRequirement())) {
                log.info("shard {}: replicating the primary's shard from its first transaction", primary.shard());
            }
        }
    }
}
