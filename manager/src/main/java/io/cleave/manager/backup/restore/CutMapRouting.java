package io.cleave.manager.backup.restore;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.Sql;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A home restored to a recorded cut under another shard map than its base backup's: the replayed
 * binlogs left every row where the shards had it at the cut, moves that cut over in between included,
 * so the home routes by the cut's map; the rows a move under way at the cut had copied to its target
 * but not routed there yet (or not yet deleted from its source after the flip: the map's ghosts,
 * which no client read saw) are deleted, as the backup leaves them out, and so are the copies of a
 * table move under way ({@link UnfinishedTableMoves}), whose global unique keys are settled apart,
 * once the home is checked.
 */
final class CutMapRouting {

    private CutMapRouting() {
    }

    /**
     * Makes the replayed home what clients saw at the cut: the rows of every move under way in
     * {@code cutMap} that it did not route removed; the lines say what went.
     */
    static List<String> dropUnroutedRows(NewHome home, ShardMap cutMap, Topology topology) throws SQLException {
        List<String> said = new ArrayList<>(dropGhostRows(home, cutMap, topology));
        said.addAll(UnfinishedTableMoves.removeCopies(home, cutMap, topology));
        return said;
    }

    /** Deletes the cut map's ghost rows on the home's shards; the lines say what went. */
    static List<String> dropGhostRows(NewHome home, ShardMap cutMap, Topology topology) throws SQLException {
        List<String> said = new ArrayList<>();
        for (Ghost g : cutMap.ghosts()) {
            var function = cutMap.function(g.keyspace(), topology.keyspace(g.keyspace()).function());
            int buckets = topology.keyspace(g.keyspace()).function().bucketCount();
            try (Connection c = home.links().open(g.shard()); Statement s = c.createStatement()) {
                s.execute("SET sql_log_bin = 0");
                if (function instanceof HashShardFunction) {
                    Sql.installBucketFunction(s);
                }
                for (String[] table : tables(s)) {
                    if (cutMap.routing(topology).ruleFor(table[1]) instanceof TableRule.Sharded r
                            && r.keyspace().equals(g.keyspace())) {
                        int n = s.executeUpdate("DELETE FROM " + Sql.quote(table[0]) + "." + Sql.quote(table[1])
                                + " WHERE " + Sql.moving(r.column(), g.keys(), buckets));
                        if (n > 0) {
                            said.add("shard " + g.shard() + ": removed " + n + " rows of " + table[0] + "." + table[1]
                                    + " that move " + g.moveId() + " had copied or left there but the map did not route"
                                    + " there at the cut");
                        }
                    }
                }
            }
        }
        return said;
    }

    /** Routes the home by {@code cutMap} (without its ghosts, which are gone now). */
    static void route(NewHome home, ShardMap cutMap, Topology topology) {
        new ShardMapStore(home.home().shardMapFile()).save(RestoredMap.of(cutMap, cutMap.shardCount()), topology);
    }

    /** Every base table outside the server's and Cleave's own schemas: {schema, table}. */
    static List<String[]> tables(Statement s) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_TYPE = 'BASE TABLE'")) {
            while (rs.next()) {
                if (!Catalog.SYSTEM_SCHEMAS.contains(rs.getString(1).toLowerCase(java.util.Locale.ROOT))) {
                    out.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        }
        return out;
    }
}
