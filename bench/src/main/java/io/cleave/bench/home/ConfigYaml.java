package io.cleave.bench.home;

import io.cleave.bench.tpcc.schema.TpccSchema;

/** Renders a home's cleave.yaml in the shape of the sample configs (single.yaml, tpcc.yaml, sysbench.yaml). */
final class ConfigYaml {
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
            case CHAOS -> chaos(spec, y);
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

    /**
     * TPC-C's tables and keyspace (when it has warehouses), bank tables sharded by branch in one
     * fixed range per shard, and kv_hashed hashed by key into 64 buckets.
     */
    private static void chaos(HomeSpec spec, StringBuilder y) {
        y.append("sharding:\n  default_shard: 0\n  keyspaces:\n");
        if (spec.warehouses() > 0) {
            warehouseKeyspace(spec, y);
        }
        y.append("    - name: branch\n      function: range\n      ranges:\n");
        for (int s = 0; s < spec.shards(); s++) {
            y.append("        - { from: ").append(HomeSpec.firstBranch(s));
            if (s < spec.shards() - 1) {
                y.append(", to: ").append(HomeSpec.firstBranch(s + 1) - 1);
            }
            y.append(", shard: ").append(s).append(" }\n");
        }
        y.append("    - { name: kv, function: hash, buckets: 64, key_type: integer }\n");
        y.append("  tables:\n");
        if (spec.warehouses() > 0) {
            tpccTables(y);
        }
        y.append("    - { name: accounts, keyspace: branch, column: branch }\n");
        y.append("    - { name: entries, keyspace: branch, column: branch }\n");
        y.append("    - { name: kv_hashed, keyspace: kv, column: k }\n");
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
        TpccSchema.WAREHOUSE_COLUMNS.forEach((table, column) -> y.append("    - { name: ").append(table)
            .append(", keyspace: warehouse, column: ").append(column).append(" }\n"));
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
