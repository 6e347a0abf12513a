package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.router.keyspace.KeyOutOfRangeException;
import io.cleave.manager.backup.RowKeys;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;


/**
 * Where a backed-up row goes in the restored home, by the rules the backup recorded: a sharded
 * table's row to the shard its key's bucket is on in the restored map (so a restore into another
 * shard count spreads the rows as that map says), a reference table's to every shard, an
 * unsharded table's to its home, and a shard's own rows (Cleave's decisions) back to that shard.
 */
final class RowRouter {

    private final ShardMap map;
    private final Topology topology;
    private final int[] all;

    RowRouter(ShardMap map, Topology topology) {
        this.map = map;
        this.topology = topology;
        this.all = new int[map.shardCount()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
    }

    int[] targets(BackupManifest.TableBackup table, int fromShard, byte[][] row) {
        return switch (table.rule()) {
            case "sharded" -> new int[] {shardOf(table, row)};
            case "reference" -> all;
            case "unsharded" -> new int[] {table.home()};
            case "local" -> fromShard < all.length ? new int[] {fromShard} : new int[0];
            default -> throw new IllegalStateException("table " + table.name() + " has an unknown rule " + table.rule());
        };
    }

    private int shardOf(BackupManifest.TableBackup table, byte[][] row) {
        int column = -1;
        for (int i = 0; i < table.columns().size(); i++) {
            if (table.columns().get(i).name().equalsIgnoreCase(table.column())) {
                column = i;
            }
        }
        var function = topology.keyspace(table.keyspace()).function();
        ShardKey key = RowKeys.of(column < 0 ? null : row[column], function, table.name());
        try {
            return map.shardOf(table.keyspace(), key, function);
        } catch (KeyOutOfRangeException e) {
            throw new IllegalStateException("a row of " + table.name() + " has the key " + key + ", which no range of"
                    + " keyspace " + table.keyspace() + " covers in the restored map");
        }
    }
}
