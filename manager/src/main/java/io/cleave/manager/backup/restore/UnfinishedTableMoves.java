package io.cleave.manager.backup.restore;

import io.cleave.manager.move.Sql;
import io.cleave.manager.unique.KeyRegistry;
import io.cleave.manager.unique.UnfinishedKeys;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a move of whole tables ({@code cleave shard-table}, a scale's re-homing or adding of shards)
 * under way at a recorded cut left on the shards that no client saw, removed from a home replayed to
 * that cut. Where its rows are (see the move package's {@code TablesScope} and {@code TableMovePlanner}):
 * <ul>
 *   <li>Before the cutover the map still routes the table by its old rule, one home shard: every row
 *       of it on another shard is the move's copy (the planner refused targets holding any row of it,
 *       and no statement reaches them), so it goes. A reference table or another home after the move
 *       is the same case.</li>
 *   <li>After the cutover, until the cleanup ends the move: a table now sharded keeps its old home's
 *       rows of other shards' keys as the map's ghosts (removed with the ghosts of moves of keys); a
 *       table given another home leaves all its rows on the old one, which is not its home any more,
 *       so they go by the same rule as above; a reference table's old home is one of its copies.</li>
 *   <li>A scale adding shards copies onto the new shards only, which the cut does not hold (its map
 *       has the old count): nothing to remove.</li>
 * </ul>
 * The global unique keys such a move registers are in Cleave's catalog on the default shard from
 * inside its held cutover: before the flip they are dropped with the copy (the table was not sharded
 * for clients), and so are the lookup tables it made for them; after it their unfinished marks go
 * (clients had the key enforced from the flip on).
 */
final class UnfinishedTableMoves {

    private UnfinishedTableMoves() {
    }

    /**
     * Removes, on the home's shards, the rows the table moves under way in {@code cutMap} copied or left
     * where its rules do not route them; the lines say what went. Their keys: {@link #settleKeys}.
     */
    static List<String> removeCopies(NewHome home, ShardMap cutMap, Topology topology) throws SQLException {
        List<String> said = new ArrayList<>();
        Topology routing = cutMap.routing(topology);
        for (Map.Entry<String, Long> moving : cutMap.movingTables().entrySet()) {
            if (moving.getKey().equals(ShardMap.EVERY_TABLE)) {
                continue;
            }
            TableRule rule = routing.ruleFor(moving.getKey());
            if (rule instanceof TableRule.Unsharded u) {
                if (u.homeShard() >= cutMap.shardCount()) {
                    throw new IllegalStateException("table " + u.table() + " lived on attached server " + u.homeShard()
                            + " at the cut: an import's tables cannot be restored");
                }
                for (int shard = 0; shard < cutMap.shardCount(); shard++) {
                    if (shard != u.homeShard()) {
                        said.addAll(deleteCopies(home, shard, u, moving.getValue()));
                    }
                }
            }
        }
        return said;
    }

    /**
     * Settles, on the home's default shard, the catalog rows of the global unique keys the table moves
     * under way in {@code cutMap} registered, and their lookups ({@link UnfinishedKeys}); the lines say what
     * went. Run once the home's tables are checked against the backup, which read those rows as they were.
     */
    static List<String> settleKeys(NewHome home, ShardMap cutMap, Topology topology) throws SQLException {
        List<String> said = new ArrayList<>();
        Topology routing = cutMap.routing(topology);
        for (Map.Entry<String, Long> moving : cutMap.movingTables().entrySet()) {
            if (!moving.getKey().equals(ShardMap.EVERY_TABLE)) {
                boolean sharded = routing.ruleFor(moving.getKey()) instanceof TableRule.Sharded;
                try (Connection c = unlogged(home, topology.defaultShard())) {
                    said.addAll(UnfinishedKeys.settle(c, shard -> unlogged(home, shard), home.shards(), moving.getKey(),
                            sharded, moving.getValue(), "at the cut", KeyRegistry.NONE));
                }
            }
        }
        return said;
    }

    /** A connection to {@code shard} whose changes stay out of the binlog (the restore's own repairs). */
    private static Connection unlogged(NewHome home, int shard) throws SQLException {
        Connection c = home.links().open(shard);
        try (Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Deletes every row of {@code u}'s table (in whichever database holds one of that name) on {@code shard}. */
    private static List<String> deleteCopies(NewHome home, int shard, TableRule.Unsharded u, long move) throws SQLException {
        List<String> said = new ArrayList<>();
        try (Connection c = home.links().open(shard); Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
            for (String[] table : CutMapRouting.tables(s)) {
                if (table[1].equalsIgnoreCase(u.table())) {
                    int n = s.executeUpdate("DELETE FROM " + Sql.quote(table[0]) + "." + Sql.quote(table[1]));
                    if (n > 0) {
                        said.add("shard " + shard + ": removed " + n + " rows of " + table[0] + "." + table[1] + " that"
                                + " move " + move + " had copied or left there; the map of the cut routes it to shard "
                                + u.homeShard());
                    }
                }
            }
        }
        return said;
    }
}
