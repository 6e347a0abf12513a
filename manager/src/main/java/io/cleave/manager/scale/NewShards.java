package io.cleave.manager.scale;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.MoveKind;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.SchemaCopier;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.TableProgress;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** What shards a scale adds need before the map names them, and whether shards that go still hold anything. */
final class NewShards {

    private NewShards() {
    }

    /** Every database of shard 0 (tables, views, routines) on the shards {@code from} to {@code to - 1}. */
    static void copySchema(ShardLinks links, int from, int to) throws SQLException {
        try (Connection source = links.open(0)) {
            for (String db : SchemaCopier.databases(source)) {
                SchemaCopier.Objects objects = SchemaCopier.objects(source, db);
                for (int s = from; s < to; s++) {
                    try (Connection target = links.open(s)) {
                        SchemaCopier.copy(source, target, db, objects.tables(), objects.views(), objects.routines());
                    }
                }
            }
        }
    }

    /**
     * The move copying every reference table (in every database) from shard 0 to the new shards;
     * its cutover publishes the new shard count, so reads any shard may answer reach the new ones
     * only once they hold the copies.
     */
    static MoveRecord referenceCopies(ShardLinks links, MapUpdates maps, int from, int to) throws SQLException {
        MoveRecord m = new MoveRecord();
        m.kind = MoveKind.TABLES;
        m.source = 0;
        m.keepSource = true;
        m.shardCountAfter = to;
        m.origin = "scale";
        for (int s = from; s < to; s++) {
            m.targets.add(s);
        }
        try (Connection c = links.open(0)) {
            for (TableRule rule : maps.routing().tables().values()) {
                if (rule instanceof TableRule.Reference) {
                    for (String[] found : Catalog.find(c, rule.table())) {
                        m.tables.add(TableProgress.of(found[0], found[1], Catalog.primaryKey(c, found[0], found[1]),
                                new TableRule.Reference(found[1])));
                    }
                }
            }
        }
        return m;
    }

    /** Whether shards {@code keep} and above still hold a bucket or a table's home. */
    static boolean holdsAny(MapUpdates maps, int keep) {
        ShardMap map = maps.current();
        for (String keyspace : map.keyspaces()) {
            for (int owner : map.owners(keyspace)) {
                if (owner >= keep) {
                    return true;
                }
            }
        }
        List<TableRule> rules = new ArrayList<>(maps.routing().tables().values());
        return rules.stream().anyMatch(r -> r instanceof TableRule.Unsharded u && u.homeShard() >= keep);
    }
}
