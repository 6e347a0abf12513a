package io.cleave.e2e.support;

import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The sharding section of a TPC-C home for tests: warehouse w on shard w - 1, the last shard open-ended; item everywhere. */
public final class TpccSharding {

    private TpccSharding() {
    }

    public static String yaml(int shards) {
        return "sharding:\n  keyspaces:\n" + keyspace(shards) + "  tables:\n" + tables();
    }

    /** The keyspace {@code warehouse} as an entry of sharding.keyspaces: warehouse w on shard w - 1. */
    public static String keyspace(int shards) {
        StringBuilder b = new StringBuilder("""
                    - name: warehouse
                      function: range
                      ranges:
                """);
        for (int s = 0; s < shards; s++) {
            b.append("        - { from: ").append(s + 1).append(s == shards - 1 ? "" : ", to: " + (s + 1))
                    .append(", shard: ").append(s).append(" }\n");
        }
        return b.toString();
    }

    /** TPC-C's tables as entries of sharding.tables. */
    public static String tables() {
        return """
                    - { name: warehouse, keyspace: warehouse, column: w_id }
                    - { name: district, keyspace: warehouse, column: d_w_id }
                    - { name: customer, keyspace: warehouse, column: c_w_id }
                    - { name: history, keyspace: warehouse, column: h_w_id }
                    - { name: new_orders, keyspace: warehouse, column: no_w_id }
                    - { name: orders, keyspace: warehouse, column: o_w_id }
                    - { name: order_line, keyspace: warehouse, column: ol_w_id }
                    - { name: stock, keyspace: warehouse, column: s_w_id }
                    - { name: item, type: reference }
                """;
    }

    /** Loads warehouse s + 1 (and its copy of item) into each {@code shards[s]} directly, all shards at once. */
    public static void loadOneWarehousePerShard(List<DataSource> shards) throws Exception {
        ExecutorService loaders = Executors.newFixedThreadPool(shards.size());
        try {
            List<Future<?>> loads = new ArrayList<>();
            for (int shard = 0; shard < shards.size(); shard++) {
                DataSource target = shards.get(shard);
                int warehouse = shard + 1;
                loads.add(loaders.submit(() -> TpccLoader.load(target,
                        new LoadOptions(1, warehouse, 1, false, LoadOptions.DEFAULT_SEED))));
            }
            for (Future<?> load : loads) {
                load.get(10, TimeUnit.MINUTES);
            }
        } finally {
            loaders.shutdownNow();
        }
    }
}
