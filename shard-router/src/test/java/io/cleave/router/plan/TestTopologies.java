package io.cleave.router.plan;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology the planner tests use: 4 shards; TPC-C sharded by warehouse ranges of 25 (item a
 * reference table), sysbench tables hashed by id, and a few tables for the hard cases.
 */
final class TestTopologies {

    private TestTopologies() {
    }

    static Topology fourShards() {
        Map<String, Keyspace> keyspaces = new LinkedHashMap<>();
        keyspaces.put("warehouse", new Keyspace("warehouse", new RangeShardFunction(List.of(
                new KeyRange(1, 25), new KeyRange(26, 50), new KeyRange(51, 75), new KeyRange(76, Long.MAX_VALUE)))));
        keyspaces.put("sbtest", new Keyspace("sbtest", new HashShardFunction(256, KeyType.INTEGER)));
        keyspaces.put("item", new Keyspace("item", new HashShardFunction(64, KeyType.INTEGER)));
        keyspaces.put("tenant", new Keyspace("tenant", new HashShardFunction(64, KeyType.STRING)));
        Map<String, TableRule> tables = new LinkedHashMap<>();
        sharded(tables, "warehouse", "warehouse", "w_id");
        sharded(tables, "district", "warehouse", "d_w_id");
        sharded(tables, "customer", "warehouse", "c_w_id");
        sharded(tables, "history", "warehouse", "h_w_id");
        sharded(tables, "new_orders", "warehouse", "no_w_id");
        sharded(tables, "orders", "warehouse", "o_w_id");
        sharded(tables, "order_line", "warehouse", "ol_w_id");
        sharded(tables, "stock", "warehouse", "s_w_id");
        tables.put("item", new TableRule.Reference("item"));
        sharded(tables, "item_price", "item", "ip_i_id");
        for (int i = 1; i <= 4; i++) {
            sharded(tables, "sbtest" + i, "sbtest", "id");
        }
        sharded(tables, "accounts", "tenant", "tenant");
        tables.put("settings", new TableRule.Unsharded("settings", 1));
        tables.put("audit_log", new TableRule.Unsharded("audit_log", 2));
        return new Topology(4, keyspaces, tables, 0);
    }

    static ShardMap map(Topology topology) {
        return ShardMap.initial(topology, Map.of());
    }

    private static void sharded(Map<String, TableRule> tables, String table, String keyspace, String column) {
        tables.put(table, new TableRule.Sharded(table, keyspace, column));
    }
}
