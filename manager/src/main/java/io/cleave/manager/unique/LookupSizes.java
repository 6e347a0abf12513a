package io.cleave.manager.unique;

import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.ShardsReport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The global unique keys for {@code cleave shards}: each key with its lookup table's rows and bytes
 * over the shards it is spread on (from the shards' statistics, or counted), read from the catalog
 * the proxy keeps on the default shard, and its state: {@code building} while CREATE UNIQUE INDEX
 * fills its lookup (or after a crash interrupted that: writes to the table are then refused until
 * the key is dropped) and from a move's cutover that filled it until the move goes on after the
 * flip ({@code LookupFill}), {@code enforced} once built.
 */
public final class LookupSizes {

    private LookupSizes() {
    }

    public static List<ShardsReport.UniqueKeyLookup> measure(ShardLinks links, int home, int shardCount, boolean exact) {
        List<ShardsReport.UniqueKeyLookup> out = new ArrayList<>();
        List<String[]> keys = new ArrayList<>();
        try (Connection c = links.open(home); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT schema_name, table_name, key_name, columns, lookup_table, lookup_shards"
                     + " FROM cleave.unique_keys ORDER BY schema_name, table_name, key_name")) {
            while (rs.next()) {
                keys.add(new String[]{rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6)});
            }
        } catch (SQLException e) {
            return out; // no catalog yet (a home from before global unique keys), or the default shard is down
        }
        java.util.Set<String> building = new java.util.HashSet<>();
        try (Connection c = links.open(home); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT schema_name, table_name, key_name FROM cleave.unique_key_builds")) {
            while (rs.next()) {
                building.add((rs.getString(1) + "." + rs.getString(2) + "." + rs.getString(3)).toLowerCase(java.util.Locale.ROOT));
            }
        } catch (SQLException e) {
            // No table of builds yet (a home from before CREATE UNIQUE INDEX built lookups): none runs.
        }
        for (String[] k : keys) {
            int spread = Math.min(Integer.parseInt(k[5]), shardCount);
            long rows = 0;
            long bytes = 0;
            for (int shard = 0; shard < spread && rows >= 0; shard++) {
                try (Connection c = links.open(shard)) {
                    if (exact) {
                        try (Statement s = c.createStatement();
                             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cleave.`" + k[4].replace("`", "``") + "`")) {
                            rs.next();
                            rows += rs.getLong(1);
                        }
                    }
                    try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_ROWS, DATA_LENGTH + INDEX_LENGTH FROM"
                            + " information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave' AND TABLE_NAME = ?")) {
                        ps.setString(1, k[4]);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) {
                                rows += exact ? 0 : rs.getLong(1);
                                bytes += rs.getLong(2);
                            }
                        }
                    }
                } catch (SQLException e) {
                    rows = -1;
                    bytes = -1;
                }
            }
            out.add(new ShardsReport.UniqueKeyLookup(k[0] + "." + k[1], k[2], List.of(k[3].split(",")), "cleave." + k[4],
                    spread, rows, bytes, building.contains((k[0] + "." + k[1] + "." + k[2]).toLowerCase(java.util.Locale.ROOT))
                    ? "building" : "enforced"));
        }
        return out;
    }
}
