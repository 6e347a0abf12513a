package io.cleave.manager.instance;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** my.cnf as each server flavour gets it: only its options, only values off its defaults, each with its reason. */
class CnfRendererTest extends FakeHostTest {

    private String render(String yaml, ServerBinary binary, ServerDefaults defaults, int shard) {
        return CnfRenderer.packaged().render(f.plan(yaml, binary, defaults).instances().get(shard), binary);
    }

    @Test
    void mariadb114WritesOnlyWhatDiffersFromItsDefaults() {
        String cnf = render("shards: 4\nbuffer_pool: 1G", PlannerFixture.mariadb("11.4.5"), PlannerFixture.mariadbDefaults(), 1);
        assertThat(cnf).startsWith("# shard-1: rendered by cleave for MariaDB 11.4.5")
                .contains("\n[mysqld]\n# Identity and addresses: loopback TCP and a private Unix socket only\n")
                .contains("\nserver_id = 1001\n", "\nport = 3308\n", "\nbind_address = 127.0.0.1\n", "\nssl = 0\n",
                        "\nsocket = " + f.home.run().resolve("shard-1.sock") + "\n", "\nbasedir = /opt/db\n",
                        "\ninnodb_buffer_pool_size = 256M\n", "\ninnodb_flush_neighbors = 0\n", "\ninnodb_read_ahead_threshold = 0\n",
                        "\nlog_bin = " + f.home.data().resolve("shard-1/binlog") + "\n", "\nbinlog_format = ROW\n",
                        "\ncharacter_set_server = utf8mb4\n")
                .contains("\n# device nvme0n1 (NVMe flash, 4 shards share it): NVMe flash takes about 10000, / 4\ninnodb_io_capacity = 2500\n")
                .doesNotContain("innodb_buffer_pool_instances", "mysqlx", "innodb_log_group_home_dir", "innodb_flush_method",
                        "innodb_adaptive_flushing", "innodb_doublewrite", "innodb_log_file_size", "\nuser =", "{{");
        long options = Arrays.stream(cnf.split("\n")).filter(l -> l.contains(" = ") && !l.startsWith("#")).count();
        long reasons = Arrays.stream(cnf.split("\n")).filter(l -> l.startsWith("# ")).count();
        assertThat(reasons).as("a reason above every option, plus the header and the headings").isGreaterThan(options);
    }

    @Test
    void mysql84NamesItsRedoCapacityAndKeepsItsOwnOptions() {
        String cnf = render("shards: 2\nbuffer_pool: 8G\nlog_dir: " + tmp.resolve("srv/logs")
                        + "\nserver: {options: {max_connections: 500}}",
                PlannerFixture.binary(Flavour.MYSQL, "8.4.3"), ServerDefaults.unknown("not probed in this test"), 0);
        assertThat(cnf).contains("\ninnodb_buffer_pool_instances = 4\n", "\nmysqlx = OFF\n", "\ninnodb_redo_log_capacity = 1G\n",
                        "\ninnodb_log_group_home_dir = " + tmp.resolve("srv/logs/shard-0") + "\n",
                        "\nlog_bin = " + tmp.resolve("srv/logs/shard-0/binlog") + "\n",
                        "\n# From server.options in the config\n# server.options in " + tmp.resolve("etc/cleave.yaml")
                                + "\nmax_connections = 500\n")
                .doesNotContain("\nssl =", "\nuser =", "innodb_use_atomic_writes", "innodb_log_file_size");
    }

    @Test
    void mysqlBefore8030SplitsRedoOverTwoFiles() {
        String cnf = render("shards: 1\nbuffer_pool: 8G", PlannerFixture.binary(Flavour.MYSQL, "8.0.28"),
                ServerDefaults.unknown("not probed in this test"), 0);
        assertThat(cnf).contains("\ninnodb_log_file_size = 1G\n").doesNotContain("innodb_redo_log_capacity");
    }

    @Test
    void olderMariadbStillGetsPoolInstances() {
        assertThat(render("shards: 1\nbuffer_pool: 2G", PlannerFixture.mariadb("10.5.20"), ServerDefaults.unknown("test"), 0))
                .contains("\ninnodb_buffer_pool_instances = 2\n", "\ninnodb_use_atomic_writes = ON\n");
    }

    @Test
    void anOverriddenOptionIsWrittenOnceWithTheConfiguredValue() {
        String cnf = render("shards: 2\nbuffer_pool: 1G\nserver: {options: {innodb_io_capacity: 7000}}",
                PlannerFixture.mariadb("11.4.5"), PlannerFixture.mariadbDefaults(), 0);
        assertThat(cnf).containsOnlyOnce("innodb_io_capacity =").contains("\ninnodb_io_capacity = 7000\n");
    }

    @Test
    void unknownPlaceholderInATemplateIsAnError() {
        InstancePlan plan = f.plan("shards: 1\nbuffer_pool: 128M").instances().get(0);
        assertThatThrownBy(() -> new CnfRenderer("[mysqld]\nfoo = {{bogus}}\n").render(plan, PlannerFixture.mariadb("11.4.5")))
                .hasMessageStartingWith("my.cnf template uses {{bogus}}, which is not defined");
    }
}
