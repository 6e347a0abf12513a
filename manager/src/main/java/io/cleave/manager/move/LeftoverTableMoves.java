package io.cleave.manager.move;

import io.cleave.manager.unique.UnfinishedKeys;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Moves of whole tables (a {@code cleave shard-table}, a scale's adding of shards) the map names and no journal here
 * records: a promoted standby's map carries the frozen tables, and after the flip the ghosts, of the table moves its
 * old primary was running, whose journals stayed there. Whether the move had flipped or not, the map says where
 * the rows belong now, and each is settled by it, then dropped from the map (its tables unfrozen, its ghosts gone):
 * <ul>
 *   <li>a shard-table: the map's rule of each of its tables (before the flip its old home, whose rows are whole;
 *       after it the new placement, the old home's rows that left being ghosts). On every shard, the table's rows
 *       the rule does not place there are deleted (whole copies where it is unsharded elsewhere, rows of other
 *       shards' keys where it is sharded, none where it is a reference table). The global unique keys it was
 *       making for the table are settled by the same rule ({@link UnfinishedKeys}): complete where it is sharded,
 *       gone with their lookups where it is not.</li>
 *   <li>a scale's move adding shards ({@link ShardMap#EVERY_TABLE}): it copies the reference tables onto the new
 *       shards, keeping the source's, and its flip publishes the new shard count. The map's count says which
 *       happened: every shard it names holds whole copies (the flip came after the copies were verified), and
 *       the reference tables' rows on this home's shards past it are the unpublished copies, deleted (the pre-move
 *       map stays in force; a later scale takes those shards again). Left refused while servers are attached for
 *       an import (their indexes follow the local shards').</li>
 * </ul>
 */
final class LeftoverTableMoves {

    private static final Logger log = LoggerFactory.getLogger(LeftoverTableMoves.class);

    private LeftoverTableMoves() {
    }

    /**
     * The table moves of the current map outside {@code known} that this settles: all but a scale's while servers
     * are attached (it stays refused, naming it).
     */
    static Set<Long> unknown(MoveEnvironment env, Set<Long> known) {
        ShardMap map = env.maps().current();
        Set<Long> out = new TreeSet<>();
        for (Map.Entry<String, Long> e : map.movingTables().entrySet()) {
            if (known.contains(e.getValue())) {
                continue;
            }
            if (e.getKey().equals(ShardMap.EVERY_TABLE) && !map.attached().isEmpty()) {
                log.warn("move {}, a scale's adding shards this home has no record of, is not settled while servers are"
                        + " attached: moves stay refused", e.getValue());
            } else {
                out.add(e.getValue());
            }
        }
        return out;
    }

    /**
     * Deletes the rows of move {@code id}'s tables that their rules place elsewhere, then drops it from the map;
     * returns its record, ended, for the journal (so {@code cleave moves} shows it, and new ids stay after it).
     */
    static MoveRecord settle(MoveEnvironment env, long id) throws SQLException, InterruptedException {
        ShardMap map = env.maps().current();
        Topology routing = env.maps().routing();
        RowDeleter deleter = new RowDeleter(env.settings());
        List<String> keys = new ArrayList<>();
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
            if (e.getKey().equals(ShardMap.EVERY_TABLE)) {
                deleteUnpublishedCopies(env, map, routing, r, deleter);
                continue;
            }
            TableRule rule = routing.ruleFor(e.getKey());
            try (Connection home = env.shards().openForWrites(routing.defaultShard())) {
                keys.addAll(UnfinishedKeys.settle(home, env.shards()::openForWrites, map.shardCount(), e.getKey(),
                        rule instanceof TableRule.Sharded, id, "when this home was promoted", env.keys()));
            }
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
                + r.targets + ", where the rules do not place them" + (keys.isEmpty() ? "" : "; " + String.join("; ", keys));
        log.info("move {}: {} ({})", id, r.message, r.what());
        return r;
    }

    /**
     * A scale's move adding shards: the reference tables' rows on this home's shards past the map's count, copies the
     * flip never published (none once it was: the count then names every shard the move added).
     */
    private static void deleteUnpublishedCopies(MoveEnvironment env, ShardMap map, Topology routing, MoveRecord r,
                                                RowDeleter deleter) throws SQLException, InterruptedException {
        for (int shard = map.shardCount(); env.shards().has(shard); shard++) {
            try (Connection c = env.shards().openForWrites(shard)) {
                for (TableRule rule : routing.tables().values()) {
                    if (!(rule instanceof TableRule.Reference)) {
                        continue;
                    }
                    for (String[] found : Catalog.find(c, rule.table())) {
                        TableProgress table = TableProgress.of(found[0], found[1], Catalog.primaryKey(c, found[0], found[1]),
                                rule);
                        long deleted = deleter.deleteAll(c, table, n -> { });
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
