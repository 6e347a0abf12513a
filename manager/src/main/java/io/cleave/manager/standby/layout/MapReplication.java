package io.cleave.manager.standby.layout;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyState;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * On a standby pair's primary, writes every shard map version into {@code cleave.shard_maps} on the
 * default shard after the state file holds it and before routers follow it. The write is a commit, so
 * with semi-sync (AFTER_SYNC) it returns only once the standby's replica of that shard has it: a
 * statement routed by a version reaches the shards after the standby holds that version, and every
 * row a move copied or caught up before its flip was acknowledged before the flip's version was
 * written. If the primary dies before the write is acknowledged, the version was never published:
 * the standby's older version routes to the source, which still holds every moving row.
 * <p>
 * A home without a standby writes nothing (its moves need no default shard).
 */
public final class MapReplication implements MapUpdates.BeforePublish {

    private static final Logger log = LoggerFactory.getLogger(MapReplication.class);

    private final CleaveHome home;
    private final ShardLinks links;
    private final Topology topology;
    private volatile boolean tableMade;

    public MapReplication(CleaveHome home, ShardLinks links, Topology topology) {
        this.home = home;
        this.links = links;
        this.topology = topology;
    }

    @Override
    public void written(ShardMap current, ShardMap next) {
        if (!replicating()) {
            return;
        }
        try {
            write(next.version(), next);
        } catch (SQLException e) {
            // The commit may have happened before its answer was lost: the row must not name a version
            // the routers never followed, so it is written again with the current one's content.
            try {
                write(next.version(), current);
            } catch (SQLException again) {
                log.error("shard map version {} could not be written to shard {} nor corrected ({}): if it was"
                        + " committed, a standby promoted now would route by a version this primary never used",
                        next.version(), topology.defaultShard(), again.getMessage());
            }
            throw new IllegalStateException("shard map version " + next.version() + " not published: writing it to"
                    + " shard " + topology.defaultShard() + " for the standby failed: " + e.getMessage(), e);
        }
    }

    /**
     * At the start of a primary's daemon, before its proxy: writes {@code current} when the shard's newest
     * version is older (the daemon died between the state file and the table). False when the shard
     * could not be reached (logged).
     */
    public boolean catchUp(ShardMap current) {
        if (!replicating()) {
            return true;
        }
        try (Connection c = links.open(topology.defaultShard())) {
            ensureTable();
            if (MapRows.newestVersion(c) < current.version()) {
                MapRows.write(c, current.version(), ShardMapStore.render(current, topology));
                log.info("shard map version {} written for the standby", current.version());
            }
            return true;
        } catch (SQLException e) {
            log.warn("shard map version {} not checked on shard {} for the standby: {}", current.version(),
                    topology.defaultShard(), e.getMessage());
            return false;
        }
    }

    private boolean replicating() {
        return StandbyState.of(home).map(s -> s.role() == HostRole.PRIMARY).orElse(false);
    }

    private void write(long version, ShardMap content) throws SQLException {
        ensureTable();
        try (Connection c = links.open(topology.defaultShard())) {
            MapRows.write(c, version, ShardMapStore.render(content, topology));
        }
    }

    /** The table on every local shard, once per daemon run (the proxy makes it too): a backup reads Cleave's tables on each. */
    private void ensureTable() throws SQLException {
        if (tableMade) {
            return;
        }
        for (int shard = 0; shard < topology.shardCount() || links.has(shard); shard++) {
            if (!links.has(shard) || links.endpoint(shard).attached()) {
                continue;
            }
            try (Connection c = links.open(shard)) {
                MapRows.create(c);
            }
        }
        tableMade = true;
    }
}
