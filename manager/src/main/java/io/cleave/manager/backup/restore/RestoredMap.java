package io.cleave.manager.backup.restore;

import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shard map of a restored home: the backed-up one without what belonged to work under way
 * (ghosts, tables being copied, attached servers: the backup holds the rows clients saw, placed by
 * the rules), and, restored into another shard count, each keyspace's buckets (or ranges) spread
 * over the new shards in even contiguous blocks as a new home spreads them.
 */
final class RestoredMap {

    private RestoredMap() {
    }

    static ShardMap of(ShardMap backedUp, int shards) {
        Map<String, int[]> assignments = new HashMap<>();
        for (String keyspace : backedUp.keyspaces()) {
            int[] buckets = backedUp.buckets(keyspace);
            if (shards != backedUp.shardCount()) {
                for (int b = 0; b < buckets.length; b++) {
                    buckets[b] = (int) ((long) b * shards / buckets.length);
                }
            }
            assignments.put(keyspace, buckets);
        }
        for (TableRule rule : backedUp.rules().values()) {
            if (rule instanceof TableRule.Unsharded u && u.homeShard() >= shards) {
                throw new IllegalArgumentException("table " + u.table() + " lives on shard " + u.homeShard()
                        + " (cleave shard-table gave it that home): restore into at least " + (u.homeShard() + 1) + " shards");
            }
        }
        return new ShardMap(backedUp.version() + 1, shards, assignments, backedUp.splitRanges(), List.of(),
                backedUp.rules(), List.of(), Map.of(), backedUp.refusedDatabases());
    }
}
