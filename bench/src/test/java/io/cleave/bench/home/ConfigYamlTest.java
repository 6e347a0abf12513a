package io.cleave.bench.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigYamlTest {

    private static HomeSpec spec(int shards, Layout layout, int warehouses) {
        return new HomeSpec(shards, "4G", layout, warehouses, 3, "auto", Optional.empty(), 0, "none");
    }

    @Test
    void warehousesSplitIntoContiguousRangesWithAnOpenEnd() {
        String yaml = ConfigYaml.render(spec(4, Layout.TPCC, 8), 21000, 22000, 23000);
        assertThat(yaml).contains("shards: 4\n", "base_port: 21000", "buffer_pool: 4G\n", "listen: 127.0.0.1:22000\n",
            "admin: { port: 23000 }\n", "function: range",
            "- { from: 1, to: 2, shard: 0 }\n", "- { from: 3, to: 4, shard: 1 }\n",
            "- { from: 5, to: 6, shard: 2 }\n", "- { from: 7, shard: 3 }\n",
            "- { name: order_line, keyspace: warehouse, column: ol_w_id }\n", "- { name: item, type: reference }\n");
        assertThat(yaml).doesNotContain("threads:", "datadir_roots");
    }

    @Test
    void proxyOptionsGoIntoTheProxySection() {
        HomeSpec s = spec(4, Layout.SYSBENCH, 0).withProxyOptions(java.util.Map.of("deadlock_check_after_ms", "0"));
        String yaml = ConfigYaml.render(s, 1, 2, 3);
        assertThat(yaml).contains("proxy:\n  listen: 127.0.0.1:2\n  deadlock_check_after_ms: \"0\"\n  users:");
        assertThat(s.withShards(2).proxyOptions()).containsEntry("deadlock_check_after_ms", "0");
        assertThatThrownBy(() -> spec(1, Layout.SINGLE, 0).withProxyOptions(java.util.Map.of("x: 1\nshards", "9")))
            .hasMessageContaining("not a proxy setting");
    }

    @Test
    void oneShardStillRoutesByWarehouse() {
        String yaml = ConfigYaml.render(spec(1, Layout.TPCC, 8), 1, 2, 3);
        assertThat(yaml).contains("- { from: 1, shard: 0 }\n").doesNotContain("to:");
    }

    @Test
    void unevenWarehouseCountsPutTheRemainderOnTheLastShards() {
        HomeSpec s = spec(4, Layout.TPCC, 10);
        int total = 0;
        for (int shard = 0; shard < 4; shard++) {
            int count = s.lastWarehouse(shard) - s.firstWarehouse(shard) + 1;
            assertThat(count).isBetween(2, 3);
            if (shard > 0) {
                assertThat(s.firstWarehouse(shard)).isEqualTo(s.lastWarehouse(shard - 1) + 1);
            }
            total += count;
        }
        assertThat(total).isEqualTo(10);
        assertThat(s.firstWarehouse(0)).isEqualTo(1);
        assertThat(s.lastWarehouse(3)).isEqualTo(10);
    }

    @Test
    void chaosShardsBankBranchesInFixedRangesAndHashesKvBesideTpcc() {
        String yaml = ConfigYaml.render(spec(3, Layout.CHAOS, 3), 1, 2, 3);
        assertThat(yaml).contains("- name: branch\n      function: range\n",
            "- { from: 1, to: 1000, shard: 0 }\n", "- { from: 1001, to: 2000, shard: 1 }\n", "- { from: 2001, shard: 2 }\n",
            "- { name: kv, function: hash, buckets: 64, key_type: integer }\n",
            "- { name: accounts, keyspace: branch, column: branch }\n", "- { name: entries, keyspace: branch, column: branch }\n",
            "- { name: kv_hashed, keyspace: kv, column: k }\n", "- { name: stock, keyspace: warehouse, column: s_w_id }\n");
        String withoutTpcc = ConfigYaml.render(spec(3, Layout.CHAOS, 0), 1, 2, 3);
        assertThat(withoutTpcc).doesNotContain("warehouse", "item").contains("kv_hashed");
        assertThatThrownBy(() -> spec(3, Layout.CHAOS, 2)).hasMessageContaining("needs at least 3 warehouses");
    }

    @Test
    void crossShardAddsAccountsInOneFixedIdRangePerShardToTpcc() {
        String yaml = ConfigYaml.render(spec(4, Layout.CROSS_SHARD, 4), 1, 2, 3);
        assertThat(yaml).contains("- { from: 1, to: 1, shard: 0 }\n", "- { from: 4, shard: 3 }\n",
            "    - name: account\n      function: range\n",
            "- { from: 1, to: 1000000000, shard: 0 }\n", "- { from: 1000000001, to: 2000000000, shard: 1 }\n",
            "- { from: 3000000001, shard: 3 }\n", "- { name: accounts, keyspace: account, column: id }\n",
            "- { name: stock, keyspace: warehouse, column: s_w_id }\n", "- { name: item, type: reference }\n");
        assertThat(yaml.indexOf("  tables:")).isGreaterThan(yaml.indexOf("name: account\n"));
        assertThatThrownBy(() -> spec(4, Layout.CROSS_SHARD, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sysbenchTablesAreHashedById() {
        String yaml = ConfigYaml.render(spec(2, Layout.SYSBENCH, 0), 1, 2, 3);
        assertThat(yaml).contains("function: hash, buckets: 256", "- { name: sbtest1, keyspace: sbtest, column: id }\n",
            "- { name: sbtest3, keyspace: sbtest, column: id }\n").doesNotContain("sbtest4");
    }

    @Test
    void singleHasNoShardingSectionAndOptionalSettingsAppearWhenSet() {
        HomeSpec s = new HomeSpec(1, "512M", Layout.SINGLE, 0, 0, "/opt/mysql/bin/mysqld", Optional.of("/mnt/nvme0/cb"), 2, "auto");
        String yaml = ConfigYaml.render(s, 1, 2, 3);
        assertThat(yaml).doesNotContain("sharding:")
            .contains("binary: \"/opt/mysql/bin/mysqld\"", "datadir_roots: [\"/mnt/nvme0/cb\"]\n", "  threads: 2\n",
                "cpu_sets: auto\n");
        assertThat(ConfigYaml.render(spec(2, Layout.SINGLE, 0), 1, 2, 3)).doesNotContain("cpu_sets");
    }

    @Test
    void impossibleHomesAreRefused() {
        assertThatThrownBy(() -> spec(4, Layout.TPCC, 2)).hasMessageContaining("at least 4 warehouses");
        assertThatThrownBy(() -> new HomeSpec(1, "lots", Layout.SINGLE, 0, 0, "auto", Optional.empty(), 0, "none"))
            .hasMessageContaining("buffer pool");
        assertThatThrownBy(() -> new HomeSpec(1, "1G", Layout.SINGLE, 0, 0, "auto", Optional.empty(), 0, "some"))
            .hasMessageContaining("cpu sets auto or none");
    }
}
