package io.cleave.manager.move;

import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Moves of whole tables (a {@code cleave shard-table}) the map names and no journal here records: a promoted
 * standby's map carries the frozen tables, and after the flip the ghosts, of the table moves its old primary
 * was running, whose journals stayed there. Whether the move had flipped or not, the map's rule of each of its
 * tables says where the table's rows belong now: before the flip its old home (the targets' copies are not
 * read), after it the new placement (the old home's rows that left are ghosts). So each is settled the same
 * way: on every shard, the table's rows the rule does not place there are deleted (whole copies where it is
 * unsharded elsewhere, rows of other shards' keys where it is sharded, none where it is a reference table),
 * then the move is dropped from the map (its tables unfrozen, its ghosts gone). Not settled here, left refused:
 * a scale's move adding shards ({@link ShardMap#EVERY_TABLE}: whether the new shards were published is not in
 * the map alone), and a move building a global unique key of its table (its lookup and catalog marks).
 */
final class LeftoverTableMoves {

    private static final Logger log = LoggerFactory.getLogger(LeftoverTableMoves.class);

    private LeftoverTableMoves() {
    }

    /**
     * The table moves of the current map outside {@code known} that this settles: not a scale's, and none that
     * was making a global unique key of one of its tables (its lookup's rows and catalog marks are not settled
     * here: it stays refused, naming it, rather than leave a key half built).
     */
    static Set<Long> unknown(MoveEnvironment env, Set<Long> known) throws SQLException {
        ShardMap map = env.maps().current();
        Set<Long> out = new TreeSet<>();
        Set<Long> unsettled = new TreeSet<>();
        for (Map.Entry<String, Long> e : map.movingTables().entrySet()) {
            if (known.contains(e.getValue())) {
                continue;
            }
            if (e.getKey().equals(ShardMap.EVERY_TABLE) || buildsUniqueKey(env, e.getKey())) {
                unsettled.add(e.getValue());
            } else {
                out.add(e.getValue());
            }
        }
        if (!unsettled.isEmpty()) {
            log.warn("moves {} of tables this home has no record of are not settled (a scale's adding shards, or one"
                    + " building a global unique key): moves stay refused", unsettled);
        }
        out.removeAll(unsettled);
        return out;
    }

    /** Whether Cleave's catalog marks a global unique key of {@code table} as being built. */
    private static boolean buildsUniqueKey(MoveEnvironment env, String table) throws SQLException {
        try (Connection c = env.shards().open(env.maps().topology().defaultShard());
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM cleave.unique_key_builds"
                     + " WHERE table_name = ?")) {
            ps.setString(1, table);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146) {
                return false; // a home from before global unique keys has no catalog
            }
            throw e;
        }
    }

    /**
     * Deletes the rows of move {@code id}'s tables that their rules place elsewhere, then drops it from the map;
     * returns its record, ended, for the journal (so {@code cleave moves} shows it, and new ids stay after it).
     */
    static MoveRecord settle(MoveEnvironment env, long id) throws SQLException, InterruptedException {
        ShardMap map = env.maps().current();
        Topology routing = env.maps().routing();
        RowDeleter deleter = new RowDeleter(env.settings());
        MoveRecord r = new MoveRecord();
        r.id = id;
        r.kind = MoveKind.TABLES;
        r.origin = "leftover";
        r.created = Instant.now().toString();
        r.source = map.ghosts().stream().filter(g -> g.moveId() == id).mapToInt(Ghost::shard).findFirst()
                .orElse(routing.defaultShard());
        for (Map.Entry<String, Long> e : map.movingTables().entrySet()) {
            if (e.getValue() != id) {
                continue;
            }
            TableRule rule = routing.ruleFor(e.getKey());
            for (int shard = 0; shard < map.shardCount(); shard++) {
                try (Connection c = env.shards().openForWrites(shard)) {
                    for (String[] found : Catalog.find(c, e.getKey())) {
                        TableProgress table = TableProgress.of(found[0], found[1], Catalog.primaryKey(c, found[0], found[1]),
                                rule);
                        long deleted = deleteMisplaced(env, map, c, shard, table, rule, deleter);
                        r.rowsCleaned += deleted;
                        if (deleted > 0 && !r.targets.contains(shard)) {
                            r.targets.add(shard);
                        }
                        if (r.tables.stream().noneMatch(t -> t.toString().equals(table.toString()))) {
                            r.tables.add(table);
                        }
                    }
                }
            }
        }
        env.maps().update(m -> m.withoutGhosts(id).withoutMovingTables(id).asVersion(m.version() + 1));
        r.phase = MovePhase.DONE;
        r.ended = Instant.now().toString();
        r.message = "a move of tables this home has no record of (the old primary's, when this home was promoted),"
                + " settled by the tables' rules in the shard map: " + r.rowsCleaned + " rows deleted from shards "
                + r.targets + ", where the rules do not place them";
        log.info("move {}: {} ({})", id, r.message, r.what());
        return r;
    }

    private static long deleteMisplaced(MoveEnvironment env, ShardMap map, Connection c, int shard, TableProgress table,
                                        TableRule rule, RowDeleter deleter) throws SQLException, InterruptedException {
        RowDeleter.ChunkListener none = n -> { };
        if (rule instanceof TableRule.Reference) {
            return 0;
        }
        if (rule instanceof TableRule.Unsharded u) {
            return u.homeShard() == shard ? 0 : deleter.deleteAll(c, table, none);
        }
        TableRule.Sharded s = (TableRule.Sharded) rule;
        var function = map.function(s.keyspace(), env.maps().topology().keyspace(s.keyspace()).function());
        TableShape shape = TableShape.read(c, table);
        shape.placement = new Placement.ByKey(table.toString(), s.keyspace(), function, map, shard);
        return deleter.deleteLeaving(c, shape, none);
    }
}
