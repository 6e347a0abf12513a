package io.cleave.manager.standby.layout;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.scale.Instances;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * On a standby: lets go of its replica of a shard the primary's scale down took away, the reverse of making
 * one for a shard a scale adds. Only once this home's default shard holds the primary's map version that no
 * longer names the shard (replicated like every version): until then a promotion installs a map that still
 * routes to it, so the replica stays. Then replication stops and is forgotten on it, the instance stops
 * (its datadir kept, as the primary keeps its own until {@code cleave scale --purge}), and the replicated
 * version becomes this home's state, so the daemon's next start plans the new count and a promotion
 * installs a map naming exactly the shards it has.
 */
public final class ReplicaRetirement {

    private static final Logger log = LoggerFactory.getLogger(ReplicaRetirement.class);

    private final ShardLinks links;
    private final MapUpdates maps;
    private final Instances instances;
    private final Supplier<List<Integer>> localShards;

    public ReplicaRetirement(ShardLinks links, MapUpdates maps, Instances instances, Supplier<List<Integer>> localShards) {
        this.links = links;
        this.maps = maps;
        this.instances = instances;
        this.localShards = localShards;
    }

    /**
     * Lets go of this home's replica of {@code shard} when the newest replicated map version leaves it out.
     *
     * @return whether it went now; false while the map without it has not replicated here yet
     */
    public boolean retire(int shard) throws SQLException, InterruptedException {
        if (!localShards.get().contains(shard) || !replicatedWithout(shard)) {
            return false;
        }
        try (Connection c = links.open(shard); Statement s = c.createStatement()) {
            s.execute("STOP SLAVE");
            s.execute("RESET SLAVE ALL");
        }
        links.remove(shard);
        instances.stop(shard);
        log.info("shard {}: the primary's shard map no longer names it (a scale down): the replica stopped, its datadir"
                + " kept", shard);
        followCount();
        return true;
    }

    /**
     * After a promotion (every replica applied what it received, replication reset): the shards the newest
     * replicated version leaves out (the primary was lost between publishing a scale down's map and this home
     * letting go of them) stop, so the map installed next names exactly the shards this home has.
     */
    public void retireLeftOut() throws SQLException, InterruptedException {
        if (scaleUpUnpublished()) {
            // The shards past the map's count are a scale's new ones, before its flip: the promoted home settles
            // that move (LeftoverTableMoves deletes the copies it made there, which needs them running); unrouted.
            return;
        }
        for (int shard : localShards.get()) {
            if (replicatedWithout(shard)) {
                links.remove(shard);
                instances.stop(shard);
                log.info("shard {}: the primary's newest shard map no longer names it (a scale down): stopped", shard);
            }
        }
    }

    /** The replicated version as this home's state, once the shards it names are the ones that run here. */
    private void followCount() throws SQLException {
        try (Connection c = links.open(maps.topology().defaultShard())) {
            MapInstall.install(c, maps, localShards.get().size(), null);
        } catch (IllegalStateException e) {
            log.warn("the shard map replicated from the primary is not this home's state yet: {}", e.getMessage());
        }
    }

    /** Whether the newest version this home's default shard replicated names a scale's move adding shards. */
    private boolean scaleUpUnpublished() throws SQLException {
        return newestReplicated().map(m -> m.movingTables().containsKey(io.cleave.router.shardmap.ShardMap.EVERY_TABLE))
                .orElse(false);
    }

    /** Whether the newest version this home's default shard replicated names fewer shards than {@code shard + 1}. */
    boolean replicatedWithout(int shard) throws SQLException {
        return newestReplicated().map(m -> m.shardCount() <= shard).orElse(false);
    }

    /** The newest shard map version this home's default shard replicated from the primary, if any. */
    private Optional<io.cleave.router.shardmap.ShardMap> newestReplicated() throws SQLException {
        try (Connection c = links.open(maps.topology().defaultShard())) {
            Optional<MapRows.Row> row = MapRows.newest(c);
            return row.isEmpty() ? Optional.empty() : Optional.of(ShardMapStore.parse(row.get().json()));
        } catch (IOException e) {
            throw new SQLException("the newest shard map version on shard " + maps.topology().defaultShard()
                    + " cannot be read: " + e.getMessage(), e);
        }
    }
}
