package io.cleave.bench.home;

/** Renders a home's cleave.yaml in the shape of the sample configs (single.yaml, tpcc.yaml, sysbench.yaml). */
final class ConfigYaml {
    private static final String[] TPCC_TABLES = {
        "warehouse:w_id", "district:d_w_id", "customer:c_w_id", "history:h_w_id", "new_orders:no_w_id",
        "orders:o_w_id", "order_line:ol_w_id", "stock:s_w_id"};

    private ConfigYaml() {
    }

    static String render(HomeSpec spec, int basePort, int proxyPort, int adminPort) {
        StringBuilder y = new StringBuilder();
        y.append("# Written by cleave-bench: ").append(spec.shards()).append(" shard(s), ").append(spec.layout())
            .append(" layout.\n");
        y.append("shards: ").append(spec.shards()).append('\n');
        y.append("server: { binary: ").append(quoted(spec.serverBinary())).append(", base_port: ").append(basePort)
            .append(" }\n");
        y.append("buffer_pool: ").append(spec.bufferPool()).append('\n');
        spec.datadirRoot().ifPresent(root -> y.append("datadir_roots: [").append(quoted(root)).append("]\n"));
        if (spec.cpuSets().equals("auto")) {
            y.append("cpu_sets: auto\n");
        }
        y.append("proxy:\n  listen: 127.0.0.1:").append(proxyPort).append('\n');
        if (spec.proxyThreads() > 0) {
            y.append("  threads: ").append(spec.proxyThreads()).append('\n');
        }
        spec.proxyOptions().forEach((key, value) -> y.append("  ").append(key).append(": ").append(quoted(value))
            .append('\n'));
        y.append("  users: [ { name: root, password: \"\" } ]\n");
        y.append("admin: { port: ").append(adminPort).append(" }\n");
        switch (spec.layout()) {
            case SINGLE -> { }
            case TPCC -> tpcc(spec, y);
            case SYSBENCH -> sysbench(spec, y);
            case CROSS_SHARD -> crossShard(spec, y);
        }
        return y.toString();
    }

    private static void tpcc(HomeSpec spec, StringBuilder y) {
        y.append("sharding:\n  default_shard: 0\n  keyspaces:\n");
        warehouseKeyspace(spec, y);
        y.append("  tables:\n");
        tpccTables(y);
    }

    /** TPC-C's tables and keyspace, plus accounts sharded by id in one fixed range per shard. */
    private static void crossShard(HomeSpec spec, StringBuilder y) {
        y.append("sharding:\n  default_shard: 0\n  keyspaces:\n");
        warehouseKeyspace(spec, y);
        y.append("    - name: account\n      function: range\n      ranges:\n");
        for (int s = 0; s < spec.shards(); s++) {
            y.append("        - { from: ").append(HomeSpec.firstAccount(s));
            if (s < spec.shards() - 1) {
                y.append(", to: ").append(HomeSpec.firstAccount(s + 1) - 1);
            }
            y.append(", shard: ").append(s).append(" }\n");
        }
        y.append("  tables:\n");
        tpccTables(y);
        y.append("    - { name: accounts, keyspace: account, column: id }\n");
    }

    private static void warehouseKeyspace(HomeSpec spec, StringBuilder y) {
        y.append("    - name: warehouse\n      function: range\n      ranges:\n");
        for (int s = 0; s < spec.shards(); s++) {
            y.append("        - { from: ").append(spec.firstWarehouse(s));
            if (s < spec.shards() - 1) {
                y.append(", to: ").append(spec.lastWarehouse(s));
            }
            y.append(", shard: ").append(s).append(" }\n");
        }
    }

    private static void tpccTables(StringBuilder y) {
        for (String table : TPCC_TABLES) {
            String[] nameColumn = table.split(":");
            y.append("    - { name: ").append(nameColumn[0]).append(", keyspace: warehouse, column: ")
                .append(nameColumn[1]).append(" }\n");
        }
        y.append("    - { name: item, type: reference }\n");
    }

    private static void sysbench(HomeSpec spec, StringBuilder y) {
        y.append("sharding:\n  keyspaces:\n    - { name: sbtest, function: hash, buckets: 256, key_type: integer }\n")
            .append("  tables:\n");
        for (int t = 1; t <= spec.sysbenchTables(); t++) {
            y.append("    - { name: sbtest").append(t).append(", keyspace: sbtest, column: id }\n");
        }
    }

    private static String quoted(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
