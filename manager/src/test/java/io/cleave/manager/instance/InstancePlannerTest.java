package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.CleaveHome;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class InstancePlannerTest {

    /** Two devices: /mnt/nvme0 and /mnt/nvme1; the home's disk is a third. tmpfs refuses O_DIRECT. */
    static final class FakeStorage implements StorageProbe {
        @Override
        public String deviceOf(Path path) {
            return path.startsWith("/mnt/nvme0") ? "nvme0" : path.startsWith("/mnt/nvme1") ? "nvme1" : "root";
        }

        @Override
        public Optional<String> directIoUnsupported(Path dir) {
            return dir.startsWith("/mnt/tmpfs") ? Optional.of("tmpfs refuses O_DIRECT") : Optional.empty();
        }
    }

    private final CleaveHome home = new CleaveHome(Path.of("/srv/cleave"));

    private static CleaveConfig config(String yaml) {
        return ConfigLoader.parse(Path.of("/etc/cleave/cleave.yaml"), yaml + "\nproxy: {users: [{name: root, password: \"\"}]}\n");
    }

    @Test
    void fourShardsOnTheHomeDisk() {
        List<InstancePlan> plans = new InstancePlanner(new FakeStorage()).plan(config("shards: 4\nbuffer_pool: 1G\nio_capacity: 2000"), home);
        assertThat(plans).hasSize(4);
        InstancePlan p = plans.get(2);
        assertThat(p.name()).isEqualTo("shard-2");
        assertThat(p.serverId()).isEqualTo(1002);
        assertThat(p.port()).isEqualTo(3309);
        assertThat(p.socket()).isEqualTo(Path.of("/srv/cleave/run/shard-2.sock"));
        assertThat(p.pidFile()).isEqualTo(Path.of("/srv/cleave/run/shard-2.pid"));
        assertThat(p.datadir()).isEqualTo(Path.of("/srv/cleave/data/shard-2"));
        assertThat(p.logDir()).isEqualTo(p.datadir());
        assertThat(p.separateLogDir()).isFalse();
        assertThat(p.cnf()).isEqualTo(Path.of("/srv/cleave/etc/shard-2.cnf"));
        assertThat(p.bufferPoolBytes()).isEqualTo(256L << 20);
        assertThat(p.bufferPoolInstances()).isEqualTo(1);
        assertThat(p.ioCapacity()).as("2000 shared by 4 instances on one device").isEqualTo(500);
        assertThat(p.directIo()).isTrue();
        assertThat(plans).extracting(InstancePlan::serverId).doesNotHaveDuplicates();
    }

    @Test
    void datadirsSpreadAcrossRootsAndIoCapacitySplitsPerDevice() {
        List<InstancePlan> plans = new InstancePlanner(new FakeStorage()).plan(config("""
                shards: 4
                buffer_pool: 64G
                io_capacity: 4000
                datadir_roots: [/mnt/nvme0/cleave, /mnt/nvme1/cleave]
                log_dir: /mnt/nvme1/logs
                cpu_sets: ["0-7", "8-15", "16-23", "24-31"]
                """), home);
        assertThat(plans).extracting(InstancePlan::datadir).containsExactly(
                Path.of("/mnt/nvme0/cleave/shard-0"), Path.of("/mnt/nvme1/cleave/shard-1"),
                Path.of("/mnt/nvme0/cleave/shard-2"), Path.of("/mnt/nvme1/cleave/shard-3"));
        assertThat(plans).extracting(InstancePlan::ioCapacity).containsOnly(2000);
        assertThat(plans.get(1).logDir()).isEqualTo(Path.of("/mnt/nvme1/logs/shard-1"));
        assertThat(plans.get(1).separateLogDir()).isTrue();
        assertThat(plans.get(3).cpuSet()).contains("24-31");
        assertThat(plans.get(0).bufferPoolBytes()).isEqualTo(16L << 30);
        assertThat(plans.get(0).bufferPoolInstances()).isEqualTo(8);
    }

    @Test
    void filesystemWithoutDirectIoFallsBackToFsyncWithTheReason() {
        List<InstancePlan> plans = new InstancePlanner(new FakeStorage()).plan(
                config("shards: 2\nbuffer_pool: 128M\ndatadir_roots: [/mnt/tmpfs]"), home);
        assertThat(plans.get(0).directIo()).isFalse();
        assertThat(plans.get(0).flushMethodReason()).isEqualTo("tmpfs refuses O_DIRECT");
    }

    @Test
    void tooLongHomeMovesSocketsToAShortPath() {
        CleaveHome deep = new CleaveHome(Path.of("/tmp/" + "d".repeat(100)));
        List<InstancePlan> plans = new InstancePlanner(new FakeStorage()).plan(config("shards: 2\nbuffer_pool: 128M"), deep);
        assertThat(plans.get(1).socket().toString().length()).isLessThanOrEqualTo(CleaveHome.MAX_SOCKET_PATH);
        assertThat(plans.get(1).socket().getFileName().toString()).isEqualTo("shard-1.sock");
        assertThat(plans.get(1).socket().getParent()).isEqualTo(deep.run());
        assertThat(new CleaveHome(Path.of("/tmp/" + "d".repeat(100))).run()).as("stable for the same home").isEqualTo(deep.run());
    }

    private static ServerBinary binary(Flavour flavour, String version) {
        return new ServerBinary(Path.of("/opt/db/bin/mysqld"), Path.of("/opt/db"), flavour, ServerVersion.parse(version),
                ServerBinary.Source.CONFIGURED, "mysqld Ver " + version);
    }

    @Test
    void mariadbCnfHasNoPoolInstancesNoXProtocolAndNoTls() {
        InstancePlan plan = new InstancePlanner(new FakeStorage()).plan(config("shards: 4\nbuffer_pool: 1G"), home).get(1);
        String cnf = CnfRenderer.packaged().render(plan, binary(Flavour.MARIADB, "11.4.5"), Map.of(), true);
        assertThat(cnf).contains("[mysqld]\n")
                .contains("\nserver_id = 1001\n")
                .contains("\nport = 3308\n")
                .contains("\nbind_address = 127.0.0.1\n")
                .contains("\nsocket = /srv/cleave/run/shard-1.sock\n")
                .contains("\nuser = root\n")
                .contains("\nssl = 0\n")
                .contains("\ninnodb_buffer_pool_size = 256M\n")
                .contains("\ninnodb_flush_method = O_DIRECT\n")
                .contains("\ninnodb_flush_neighbors = 0\n")
                .contains("\ninnodb_io_capacity = 500\n")
                .contains("\ninnodb_io_capacity_max = 1000\n")
                .contains("\nlog_bin = /srv/cleave/data/shard-1/binlog\n")
                .contains("\nbinlog_format = ROW\n")
                .contains("\nbasedir = /opt/db\n")
                .doesNotContain("innodb_buffer_pool_instances")
                .doesNotContain("mysqlx")
                .doesNotContain("innodb_log_group_home_dir")
                .doesNotContain("{{");
    }

    @Test
    void mysqlCnfHasPoolInstancesXProtocolOffAndKeepsTls() {
        InstancePlan plan = new InstancePlanner(new FakeStorage()).plan(
                config("shards: 2\nbuffer_pool: 8G\nlog_dir: /mnt/nvme1/logs"), home).get(0);
        String cnf = CnfRenderer.packaged().render(plan, binary(Flavour.MYSQL, "8.4.3"), Map.of("max_connections", "500"), false);
        assertThat(cnf).contains("\ninnodb_buffer_pool_instances = 4\n")
                .contains("\nmysqlx = OFF\n")
                .contains("\ninnodb_log_group_home_dir = /mnt/nvme1/logs/shard-0\n")
                .contains("\nlog_bin = /mnt/nvme1/logs/shard-0/binlog\n")
                .contains("\nmax_connections = 500\n")
                .doesNotContain("\nssl =")
                .doesNotContain("\nuser =");
    }

    @Test
    void olderMariadbStillGetsPoolInstances() {
        InstancePlan plan = new InstancePlanner(new FakeStorage()).plan(config("shards: 1\nbuffer_pool: 2G"), home).get(0);
        assertThat(CnfRenderer.packaged().render(plan, binary(Flavour.MARIADB, "10.5.20"), Map.of(), false))
                .contains("\ninnodb_buffer_pool_instances = 2\n");
    }

    @Test
    void fsyncFallbackIsExplainedInTheCnf() {
        InstancePlan plan = new InstancePlanner(new FakeStorage()).plan(
                config("shards: 1\nbuffer_pool: 128M\ndatadir_roots: [/mnt/tmpfs]"), home).get(0);
        assertThat(CnfRenderer.packaged().render(plan, binary(Flavour.MARIADB, "11.4.5"), Map.of(), false))
                .contains("# O_DIRECT unavailable: tmpfs refuses O_DIRECT\ninnodb_flush_method = fsync\n");
    }

    @Test
    void unknownPlaceholderInATemplateIsAnError() {
        InstancePlan plan = new InstancePlanner(new FakeStorage()).plan(config("shards: 1\nbuffer_pool: 128M"), home).get(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new CnfRenderer("[mysqld]\nfoo = {{bogus}}\n")
                        .render(plan, binary(Flavour.MARIADB, "11.4.5"), Map.of(), false))
                .hasMessageStartingWith("my.cnf template uses {{bogus}}, which is not defined");
    }
}
