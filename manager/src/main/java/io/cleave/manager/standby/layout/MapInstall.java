package io.cleave.manager.standby.layout;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.unique.LookupFill;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A promotion's routing state: the newest shard map version the promoted default shard replicated from
 * the primary, written to {@code state/shard-map.json} and made current before the proxy starts. The
 * seed's version (the map at the seed's cut) stays when the primary wrote none since.
 */
public final class MapInstall {

    private static final Logger log = LoggerFactory.getLogger(MapInstall.class);

    /**
     * What the promotion routes by.
     *
     * @param before  the version this home held (the seed's)
     * @param now     the version it routes by now
     * @param source  where {@code now} came from
     * @param settled what installing it settled (an import cut short before its cutover), or null
     */
    public record Installed(long before, long now, String source, String settled) {
        public Installed(long before, long now, String source) {
            this(before, now, source, null);
        }

        @Override
        public String toString() {
            return (before == now ? "version " + now + " (" + source + ")" : "version " + now + " (" + source + "; was "
                    + before + ")") + (settled == null ? "" : "; " + settled);
        }
    }

    private MapInstall() {
    }

    /**
     * Installs the newest version the default shard (reached by {@code c}: a promoted replica) holds when it is
     * newer than the current one.
     *
     * @param localShards the shards this home runs
     * @param settling    this home's shards, when it is the primary and so settles an import the version names
     *                    before its cutover ({@link UnfinishedImport}); null on a standby (its replicas take no writes:
     *                    such a version is not installed)
     * @throws IllegalStateException when that version names shards or servers this home lacks (nothing installed)
     */
    public static Installed install(Connection c, MapUpdates maps, int localShards, LookupFill.Shards settling)
            throws SQLException {
        ShardMap mine = maps.current();
        Topology topology = maps.topology();
        Optional<MapRows.Row> row = MapRows.newest(c);
        if (row.isEmpty() || row.get().version() <= mine.version()) {
            return new Installed(mine.version(), mine.version(), row.isEmpty() ? "the seed's; the primary wrote none since"
                    : "already the newest the primary wrote");
        }
        ShardMap replicated;
        List<UnfinishedImport> unfinished;
        try {
            replicated = withoutUnrouted(ShardMapStore.parse(row.get().json()));
            unfinished = settling == null ? List.of() : UnfinishedImport.in(replicated);
            replicated = UnfinishedImport.settle(replicated, unfinished).asVersion(row.get().version());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the shard map version " + row.get().version() + " replicated from the"
                    + " primary cannot be read: " + e.getMessage(), e);
        }
        String unfit = unfit(replicated, topology, localShards);
        if (unfit != null) {
            throw new IllegalStateException("the primary's newest shard map (version " + replicated.version() + ") "
                    + unfit + ": this home cannot route by it, and routing by its own older version would give wrong"
                    + " answers; the proxy is not started");
        }
        for (UnfinishedImport i : unfinished) {
            // Before the map that refuses the database is installed: until then no proxy serves this home's shards.
            i.clear(c, settling, replicated.shardCount());
        }
        maps.adopt(replicated);
        Installed installed = new Installed(mine.version(), replicated.version(), "replicated from the primary",
                unfinished.isEmpty() ? null : unfinished.stream().map(i -> "the import of " + i.source().label()
                        + " had not reached its cutover: its tables here set aside, database " + i.database()
                        + " refused until imported again").collect(java.util.stream.Collectors.joining("; ")));
        log.info("shard map {}", installed);
        return installed;
    }

    /**
     * {@code map} without the servers attached for an import that nothing routes to any more. After an import's
     * cutover its rules place every table and view on the local shards, whose rows the standby acknowledged before
     * the cutover's version; until the primary detaches the source its versions still name it, though no statement
     * reaches it. This home cannot reach the source (its password stayed on the primary), nor needs to: dropping it
     * changes no route. One a rule or a ghost still names (the import cut short before its cutover) stays: a primary
     * settles it ({@link UnfinishedImport}), a standby's {@link #unfit} refuses the map. The version number is the
     * replicated one (the caller sets it).
     */
    static ShardMap withoutUnrouted(ShardMap map) {
        ShardMap out = map;
        // Last first: the others keep their indexes.
        for (int i = map.attached().size() - 1; i >= 0; i--) {
            int index = map.attached().get(i).index();
            if (routesTo(map, index)) {
                break;
            }
            out = out.withoutAttached(index);
        }
        return out;
    }

    private static boolean routesTo(ShardMap map, int index) {
        return map.rules().values().stream().anyMatch(r -> r instanceof TableRule.Unsharded u && u.homeShard() == index)
                || map.ghosts().stream().anyMatch(g -> g.shard() == index);
    }

    /**
     * Why {@code map} cannot be routed by here, or null. A home may run more shards than the map names: this home
     * makes its replica of each shard a scale adds as soon as the primary starts it, and the map names the shard
     * only from that scale's flip on, so a primary lost in between leaves it here unrouted (the proxy serves the
     * shards the map names; a scale's move adding shards cut short is settled by the move package's
     * LeftoverTableMoves).
     */
    static String unfit(ShardMap map, Topology topology, int localShards) {
        if (map.shardCount() > localShards) {
            return "names " + map.shardCount() + " shards, this home has " + localShards;
        }
        if (!map.attached().isEmpty()) {
            return "routes to attached servers (" + map.attached() + ") this home does not reach: an import was under way on"
                    + " the primary and had not reached its cutover (the source still holds the database)";
        }
        if (!new TreeSet<>(map.keyspaces()).equals(new TreeSet<>(topology.keyspaces().keySet()))) {
            return "holds keyspaces " + new TreeSet<>(map.keyspaces()) + ", this home's config defines "
                    + new TreeSet<>(topology.keyspaces().keySet());
        }
        return null;
    }
}
