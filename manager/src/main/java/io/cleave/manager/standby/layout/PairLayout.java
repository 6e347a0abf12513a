package io.cleave.manager.standby.layout;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyState;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;

/**
 * What a daemon does so that a standby follows its layout: the map versions replicated as they are
 * published, the newest one installed when this home becomes (or starts as) the primary, and the layout
 * changes a standby cannot follow refused.
 */
public final class PairLayout {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PairLayout.class);

    private final CleaveHome home;
    private final ShardLinks links;
    private final MapUpdates maps;
    private final MapReplication replication;
    private final LayoutGuard guard;

    /** Registers the replication of every version {@code maps} publishes from now on. */
    public PairLayout(CleaveHome home, ShardLinks links, MapUpdates maps, BooleanSupplier scaling) {
        this.home = home;
        this.links = links;
        this.maps = maps;
        this.replication = new MapReplication(home, links, maps.topology());
        this.guard = new LayoutGuard(home, maps::current, scaling);
        maps.beforePublish(replication);
    }

    public LayoutGuard guard() {
        return guard;
    }

    /**
     * Before a primary's proxy starts: a version newer than the state file's on the default shard (a promotion
     * that died before installing it) is installed, and the current one written there when it is missing.
     *
     * @return why the proxy must not start (the newer version cannot be routed by here), or null
     */
    public String primaryStarting(int localShards) {
        if (StandbyState.of(home).map(s -> s.role() != HostRole.PRIMARY).orElse(true)) {
            return null;
        }
        try (Connection c = links.open(maps.topology().defaultShard())) {
            MapInstall.install(c, maps, localShards, links::open);
        } catch (SQLException e) {
            // A default shard that is down: the proxy serves the others by the state file's version.
            log.warn("shard {} not read for a newer shard map version: {}", maps.topology().defaultShard(), e.getMessage());
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
        replication.catchUp(maps.current());
        return null;
    }

    /** After a promotion, before the proxy starts: the newest version the replicas hold becomes current. */
    public MapInstall.Installed promoted(int localShards) throws SQLException {
        try (Connection c = links.open(maps.topology().defaultShard())) {
            return MapInstall.install(c, maps, localShards, links::open);
        }
    }
}
