package io.cleave.manager.unique;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.Sql;
import io.cleave.proxy.unique.UniqueIndexes;
import io.cleave.router.unique.UniqueIndex;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The global unique keys a move of tables ({@code cleave shard-table}) was making for its table when it was cut
 * short, and whose own run will never finish them: a restore to a cut inside the move, or a promoted standby whose
 * old primary ran the move. The move registers its keys ({@code cleave.unique_keys}, each with a
 * {@code cleave.unique_key_builds} mark) inside its held cutover, before the map's flip, and removes the marks
 * after it (see {@link LookupFill}). So the map in force says what they are: where it shards the table the flip
 * was published and clients had the keys enforced from it on, so the marks go and the keys are complete; where it
 * does not, no client ever had them, so the keys go with their marks and their lookup tables (found by name from
 * the table's unique indexes, so a lookup made before the keys were registered goes too).
 */
public final class UnfinishedKeys {

    private UnfinishedKeys() {
    }

    /**
     * Settles {@code table}'s unfinished keys as above; the lines say what went.
     *
     * @param home       the default shard, which holds the catalog
     * @param shards     every shard of the home, {@code shardCount} of them (lookups live on them)
     * @param sharded    whether the map in force shards the table
     * @param context    when, in the lines: "at the cut", "when this home was promoted"
     * @param registry   the proxy, told of keys completed or dropped
     */
    public static List<String> settle(Connection home, LookupFill.Shards shards, int shardCount, String table,
                                      boolean sharded, long move, String context, KeyRegistry registry) throws SQLException {
        List<String> said = new ArrayList<>(settleCatalog(home, table, sharded, move, context, registry));
        if (!sharded) {
            said.addAll(dropLookups(home, shards, shardCount, table, move, context));
        }
        return said;
    }

    /** Whether the catalog marks a global unique key of {@code table} as being built by a move. */
    public static boolean marked(Connection home, String table) throws SQLException {
        if (!catalogHasBuilds(home)) {
            return false; // a home from before global unique keys has no catalog
        }
        try (PreparedStatement ps = home.prepareStatement("SELECT COUNT(*) FROM cleave.unique_key_builds"
                + " WHERE table_name = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    private static List<String> settleCatalog(Connection home, String table, boolean sharded, long move, String context,
                                              KeyRegistry registry) throws SQLException {
        if (!catalogHasBuilds(home)) {
            return List.of();
        }
        List<UniqueIndex> keys = new ArrayList<>();
        try (Statement s = home.createStatement(); ResultSet rs = s.executeQuery(UniqueIndexes.CATALOG_SELECT
                + " WHERE (schema_name, table_name, key_name) IN (SELECT schema_name, table_name, key_name FROM"
                + " cleave.unique_key_builds WHERE table_name = " + Sql.string(table) + ")")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int c = 1; c <= 8; c++) {
                    row.add(rs.getString(c));
                }
                keys.add(UniqueIndexes.fromRow(row));
            }
        }
        String which = " WHERE table_name = " + Sql.string(table);
        int dropped = 0;
        try (Statement s = home.createStatement()) {
            if (!sharded) {
                keys.forEach(registry::dropped);
                dropped = s.executeUpdate("DELETE FROM cleave.unique_keys WHERE (schema_name, table_name, key_name) IN"
                        + " (SELECT schema_name, table_name, key_name FROM cleave.unique_key_builds" + which + ")");
            }
            if (s.executeUpdate("DELETE FROM cleave.unique_key_builds" + which) == 0) {
                return List.of();
            }
        }
        if (sharded) {
            keys.forEach(registry::complete);
            return List.of("the global unique keys move " + move + " made for " + table + " are complete (it was sharded "
                    + context + ")");
        }
        return List.of("removed the " + dropped + " global unique keys move " + move + " had registered for " + table
                + " (it was not sharded yet " + context + ")");
    }

    /**
     * The lookup tables a move made for {@code table}'s unique keys before each cutover attempt (empty before its
     * hold, filled in it), dropped on every shard: the table is not sharded, so no key of it has a lookup.
     */
    private static List<String> dropLookups(Connection home, LookupFill.Shards shards, int shardCount, String table,
                                            long move, String context) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement p = home.prepareStatement("SELECT DISTINCT TABLE_SCHEMA, INDEX_NAME FROM"
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
        for (int shard = 0; shard < shardCount && !names.isEmpty(); shard++) {
            try (Connection c = shards.open(shard); Statement s = c.createStatement()) {
                for (String name : names) {
                    boolean there;
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE"
                            + " TABLE_SCHEMA = 'cleave' AND TABLE_NAME = " + Sql.string(name))) {
                        there = rs.next() && rs.getInt(1) > 0;
                    }
                    if (there) {
                        s.execute("DROP TABLE cleave." + Sql.quote(name));
                        said.add("shard " + shard + ": dropped lookup table cleave." + name + ", which move " + move
                                + " had made for " + table + " (it was not sharded yet " + context + ")");
                    }
                }
            }
        }
        return said;
    }

    private static boolean catalogHasBuilds(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM"
                + " information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave' AND TABLE_NAME IN ('unique_keys',"
                + " 'unique_key_builds')")) {
            rs.next();
            return rs.getInt(1) == 2;
        }
    }
}
