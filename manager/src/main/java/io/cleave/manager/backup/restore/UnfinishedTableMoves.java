package io.cleave.manager.backup.restore;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.Sql;
import io.cleave.router.unique.UniqueIndex;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
     * under way in {@code cutMap} registered; the lines say what went. Run once the home's tables are
     * checked against the backup, which read those rows as they were.
     */
    static List<String> settleKeys(NewHome home, ShardMap cutMap, Topology topology) throws SQLException {
        List<String> said = new ArrayList<>();
        Topology routing = cutMap.routing(topology);
        for (Map.Entry<String, Long> moving : cutMap.movingTables().entrySet()) {
            if (!moving.getKey().equals(ShardMap.EVERY_TABLE)) {
                boolean sharded = routing.ruleFor(moving.getKey()) instanceof TableRule.Sharded;
                said.addAll(settleKeys(home, topology.defaultShard(), moving.getKey(), sharded, moving.getValue()));
                if (!sharded) {
                    said.addAll(dropLookups(home, topology.defaultShard(), moving.getKey(), moving.getValue()));
                }
            }
        }
        return said;
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

    /**
     * The catalog rows of the global unique keys the move registered for {@code table}: its unfinished
     * marks go once the table was sharded at the cut, the keys with them while it was not.
     */
    private static List<String> settleKeys(NewHome home, int defaultShard, String table, boolean sharded, long move)
            throws SQLException {
        try (Connection c = home.links().open(defaultShard); Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
            if (!catalogHasBuilds(s)) {
                return List.of();
            }
            String which = " WHERE table_name = " + Sql.string(table);
            int keys = 0;
            if (!sharded) {
                keys = s.executeUpdate("DELETE FROM cleave.unique_keys WHERE (schema_name, table_name, key_name) IN"
                        + " (SELECT schema_name, table_name, key_name FROM cleave.unique_key_builds" + which + ")");
            }
            int builds = s.executeUpdate("DELETE FROM cleave.unique_key_builds" + which);
            if (builds == 0) {
                return List.of();
            }
            return List.of(sharded ? "the global unique keys move " + move + " made for " + table + " are complete (it was"
                    + " sharded at the cut)" : "removed the " + keys + " global unique keys move " + move + " had registered"
                    + " for " + table + " (it was not sharded yet at the cut)");
        }
    }

    /**
     * The lookup tables a move made for {@code table}'s unique keys before each cutover attempt (empty
     * before its hold, filled in it), dropped on every shard: the table was not sharded at the cut, so
     * no key of it has a lookup. Found by name from the table's unique indexes, as the move names them,
     * whether or not the cut was after their keys were registered.
     */
    private static List<String> dropLookups(NewHome home, int defaultShard, String table, long move) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = home.links().open(defaultShard);
             PreparedStatement p = c.prepareStatement("SELECT DISTINCT TABLE_SCHEMA, INDEX_NAME FROM"
                     + " information_schema.STATISTICS WHERE TABLE_NAME = ? AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'")) {
            p.setString(1, table);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    if (!Catalog.SYSTEM_SCHEMAS.contains(rs.getString(1).toLowerCase(Locale.ROOT))) {
                        names.add(UniqueIndex.lookupName(rs.getString(1), table, rs.getString(2)));
                    }
                }
            }
        }
        List<String> said = new ArrayList<>();
        for (int shard = 0; shard < home.shards() && !names.isEmpty(); shard++) {
            try (Connection c = home.links().open(shard); Statement s = c.createStatement()) {
                s.execute("SET sql_log_bin = 0");
                for (String name : names) {
                    boolean there;
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE"
                            + " TABLE_SCHEMA = 'cleave' AND TABLE_NAME = " + Sql.string(name))) {
                        there = rs.next() && rs.getInt(1) > 0;
                    }
                    if (there) {
                        s.execute("DROP TABLE cleave." + Sql.quote(name));
                        said.add("shard " + shard + ": dropped lookup table cleave." + name + ", which move " + move
                                + " had made for " + table + " (it was not sharded yet at the cut)");
                    }
                }
            }
        }
        return said;
    }

    private static boolean catalogHasBuilds(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave'"
                + " AND TABLE_NAME IN ('unique_keys', 'unique_key_builds')")) {
            rs.next();
            return rs.getInt(1) == 2;
        }
    }
}
