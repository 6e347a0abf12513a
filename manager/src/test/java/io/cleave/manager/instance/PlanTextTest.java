package io.cleave.manager.instance;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** The plan as printed: host and devices, what every shard shares once, then each shard's own. */
class PlanTextTest extends FakeHostTest {

    @Test
    void sharedSettingsAreListedOnceAndEachShardsOwnUnderIt() {
        f.tree.cpus(16, true).memory(64L * 1024 * 1024).node(0, "0-3,8-11", 32L * 1024 * 1024).node(1, "4-7,12-15", 32L * 1024 * 1024);
        f.tool("numactl");
        String text = PlanText.render(f.plan("shards: 2\nbuffer_pool: 16G\ncpu_sets: auto"));
        assertThat(text).startsWith("2 shards of MariaDB 11.4.5 (/opt/db/bin/mysqld, configured)\n")
                .contains("host: 16 CPUs (0-15) in 8 cores, 2 NUMA nodes, 64.0G of memory; buffer pools 16G in total (25% of memory)\n",
                        "  NUMA node 1: CPUs 4-7,12-15, 32.0G\n",
                        "devices:\n  ext4 at " + tmp.resolve("srv") + " on nvme0n1: NVMe flash, non-rotational, queue depth 1023,"
                                + " sectors 512/4096 B, Samsung PM9A3\n    O_DIRECT works; datadirs, redo logs and binlogs of shard-0, shard-1\n",
                        "\nevery shard:\n  my.cnf (differs from the server's default):\n",
                        "    innodb_io_capacity = 5000 ", "  kept at MariaDB 11.4.5's default:\n", "  left out:\n    innodb_buffer_pool_instances ",
                        "\nshard-1: port 3308, buffer pool 8G, my.cnf " + f.home.etc().resolve("shard-1.cnf") + "\n"
                                + "  CPUs 4-7,12-15, NUMA node 1, memory bound to node 1: NUMA node 1 of 2, its CPUs and its memory\n"
                                + "  runs as: numactl --cpunodebind=1 --membind=1 mysqld ...\n")
                .containsOnlyOnce("innodb_io_capacity = 5000")
                .containsOnlyOnce("innodb_log_file_size = 2G");
        int shard1 = text.indexOf("\nshard-1:");
        assertThat(text.substring(shard1)).contains("server_id = 1001", "auto_increment_offset = 2").doesNotContain("innodb_io_capacity");
    }

    @Test
    void oneShardListsEverythingUnderItself() {
        String text = PlanText.render(f.plan("shards: 1\nbuffer_pool: 1G"));
        assertThat(text).doesNotContain("every shard:").contains("\nshard-0: port 3307", "innodb_io_capacity = 10000");
    }

    @Test
    void jsonReportCarriesEveryOptionWithItsOutcomeAndGroup() {
        PlanReport report = PlanReport.of(f.plan("shards: 2\nbuffer_pool: 1G\nserver: {options: {innodb_io_capacity: 300}}"));
        assertThat(report.devices()).singleElement().satisfies(d -> {
            assertThat(d.name()).isEqualTo("nvme0n1");
            assertThat(d.kind()).isEqualTo("nvme");
            assertThat(d.physicalSectorBytes()).isEqualTo(4096);
        });
        assertThat(report.instances().get(0).settings()).filteredOn(o -> o.option().equals("innodb_io_capacity"))
                .extracting(PlanReport.Option::outcome, PlanReport.Option::value, PlanReport.Option::group)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("replaced", "5000", "flash"),
                        org.assertj.core.groups.Tuple.tuple("from_options", "300", "options"));
    }
}
