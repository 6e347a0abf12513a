package io.cleave.manager.backup;

import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a backup reads one table: from which shards (the shards its rule puts rows on: every shard
 * for a sharded table, one for a reference or unsharded table), leaving out on each shard the rows
 * a move has copied there but that the map does not place there yet, or that a finished move has
 * not deleted yet (ghosts): the rows read are exactly the rows clients see.
 */
record TablePlan(String schema, String table, String rule, String keyspace, String column, int home, String create,
                 List<BackupManifest.Column> columns, List<String> primaryKey, int[] sourceShards, int keyColumn,
                 ShardFunction function, List<Ghost> ghosts) {

    static final String SHARDED = "sharded";
    static final String REFERENCE = "reference";
    static final String UNSHARDED = "unsharded";
    static final String LOCAL = "local";

    /** The plan for a table under {@code map}; a reference table is read on {@code anyShard}. */
    static TablePlan of(String schema, String table, String create, List<BackupManifest.Column> columns,
                        List<String> primaryKey, ShardMap map, Topology configured, int anyShard) {
        TableRule r = map.routing(configured).ruleFor(table);
        if (r instanceof TableRule.Sharded s) {
            int[] all = new int[map.shardCount()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            int key = -1;
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(s.column())) {
                    key = i;
                }
            }
            if (key < 0) {
                throw new IllegalStateException("table " + schema + "." + table + " is sharded by " + s.column()
                        + ", which it does not have");
            }
            List<Ghost> ghosts = new ArrayList<>();
            for (Ghost g : map.ghosts()) {
                if (g.keyspace().equals(s.keyspace())) {
                    ghosts.add(g);
                }
            }
            return new TablePlan(schema, table, SHARDED, s.keyspace(), columns.get(key).name(), -1, create, columns,
                    primaryKey, all, key, map.function(s.keyspace(), configured.keyspace(s.keyspace()).function()), ghosts);
        }
        if (r instanceof TableRule.Reference) {
            return new TablePlan(schema, table, REFERENCE, null, null, -1, create, columns, primaryKey,
                    new int[] {anyShard}, -1, null, List.of());
        }
        int home = ((TableRule.Unsharded) r).homeShard();
        return new TablePlan(schema, table, UNSHARDED, null, null, home, create, columns, primaryKey, new int[] {home},
                -1, null, List.of());
    }

    /** A table whose rows belong to the shard they are on (Cleave's own decision records). */
    static TablePlan local(String schema, String table, String create, List<BackupManifest.Column> columns,
                           List<String> primaryKey, int shards) {
        int[] all = new int[shards];
        for (int i = 0; i < shards; i++) {
            all[i] = i;
        }
        return new TablePlan(schema, table, LOCAL, null, null, -1, create, columns, primaryKey, all, -1, null, List.of());
    }

    String name() {
        return schema + "." + table;
    }

    List<String> columnNames() {
        return columns.stream().map(BackupManifest.Column::name).toList();
    }

    /** Whether a row read on {@code shard} is a ghost there (a move's copy or leftover), which clients do not see. */
    boolean ghost(int shard, byte[][] row) {
        if (ghosts.isEmpty()) {
            return false;
        }
        ShardKey key = null;
        for (Ghost g : ghosts) {
            if (g.shard() != shard) {
                continue;
            }
            if (key == null) {
                key = RowKeys.of(row[keyColumn], function, name());
            }
            if (g.keys().contains(key, function)) {
                return true;
            }
        }
        return false;
    }

    /** How a primary-key column's last value is bound when paging on from it. */
    static boolean integer(BackupManifest.Column c) {
        String t = c.type().toLowerCase(Locale.ROOT);
        return t.startsWith("tinyint") || t.startsWith("smallint") || t.startsWith("mediumint") || t.startsWith("int")
                || t.startsWith("bigint") || t.startsWith("decimal") || t.startsWith("year");
    }
}
