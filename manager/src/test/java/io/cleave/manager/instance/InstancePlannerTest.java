package io.cleave.manager.instance;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.host.FakeHostTree;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static io.cleave.manager.instance.PlannerFixture.setting;
import static io.cleave.manager.instance.Setting.Outcome.FROM_OPTIONS;
import static io.cleave.manager.instance.Setting.Outcome.NOT_IN_SERVER;
import static io.cleave.manager.instance.Setting.Outcome.REPLACED;
import static io.cleave.manager.instance.Setting.Outcome.SERVER_DEFAULT;
import static io.cleave.manager.instance.Setting.Outcome.WRITTEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The planner over fake /sys trees: NVMe, SATA SSD, rotational and tmpfs storage, and the plans it refuses. */
class InstancePlannerTest extends FakeHostTest {

    private void sataSsd() {
        f.tree.disk("sda", "8:0", false, 64, 32, 512, 512, "INTEL SSDSC2KB96", 0);
        f.tree.mount("mnt/ssd", "8:0", "ext4", "/dev/sda", false);
    }

    @Test
    void fourShardsOnTheHomesNvmeDevice() {
        HostPlan plan = f.plan("shards: 4\nbuffer_pool: 1G");
        assertThat(plan.instances()).hasSize(4);
        InstancePlan p = plan.instances().get(2);
        assertThat(p.name()).isEqualTo("shard-2");
        assertThat(p.serverId()).isEqualTo(1002);
        assertThat(f.plan("shards: 4\nbuffer_pool: 1G\nserver:\n  server_id_base: 2000").instances().get(2).serverId())
                .as("a standby's shards, apart from its primary's").isEqualTo(2002);
        assertThat(p.port()).isEqualTo(3309);
        assertThat(p.socket()).isEqualTo(f.home.run().resolve("shard-2.sock"));
        assertThat(p.datadir()).isEqualTo(f.home.data().resolve("shard-2"));
        assertThat(p.logDir()).isEqualTo(p.datadir());
        assertThat(p.cnf()).isEqualTo(f.home.etc().resolve("shard-2.cnf"));
        assertThat(p.bufferPoolBytes()).isEqualTo(256L << 20);
        assertThat(p.dataStorage().deviceName()).isEqualTo("nvme0n1");

        Setting io = setting(p, "innodb_io_capacity");
        assertThat(io.value()).isEqualTo("2500");
        assertThat(io.outcome()).isEqualTo(WRITTEN);
        assertThat(io.reason()).startsWith("device nvme0n1 (NVMe flash, 4 shards share it): NVMe flash takes about 10000, / 4");
        assertThat(setting(p, "innodb_io_capacity_max").value()).isEqualTo("5000");
        assertThat(setting(p, "innodb_flush_neighbors")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("0");
            assertThat(s.outcome()).isEqualTo(WRITTEN);
            assertThat(s.reason()).startsWith("nvme0n1 is non-rotational");
        });
        assertThat(setting(p, "innodb_read_ahead_threshold").value()).isEqualTo("0");
        assertThat(setting(p, "innodb_flush_method")).extracting(Setting::value, Setting::outcome)
                .as("MariaDB 11.4 uses O_DIRECT by default").containsExactly("O_DIRECT", SERVER_DEFAULT);
        assertThat(setting(p, "innodb_adaptive_flushing").outcome()).isEqualTo(SERVER_DEFAULT);
        assertThat(setting(p, "innodb_read_io_threads")).extracting(Setting::value, Setting::outcome)
                .as("unpinned: 8 CPUs shared by 4 shards, 2 each, half of them").containsExactly("1", WRITTEN);
        assertThat(setting(p, "innodb_write_io_threads")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("2");
            assertThat(s.reason()).endsWith("; raised to MariaDB's minimum of 2 write threads");
        });
        assertThat(setting(p, "innodb_log_file_size")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("96M");
            assertThat(s.outcome()).as("a quarter of 256M is below the floor, the server's own default").isEqualTo(SERVER_DEFAULT);
            assertThat(s.reason()).startsWith("at least 96M");
        });
        assertThat(setting(p, "innodb_buffer_pool_instances").outcome()).isEqualTo(NOT_IN_SERVER);
        assertThat(setting(p, "character_set_server")).extracting(Setting::value, Setting::outcome).containsExactly("utf8mb4", WRITTEN);
        assertThat(setting(p, "innodb_doublewrite")).satisfies(s -> {
            assertThat(s.outcome()).isEqualTo(SERVER_DEFAULT);
            assertThat(s.reason()).startsWith("nvme0n1 promises no atomic 16K page writes");
        });
        assertThat(plan.instances()).extracting(InstancePlan::serverId).doesNotHaveDuplicates();
        assertThat(plan.instances()).extracting(InstancePlan::port).doesNotHaveDuplicates();
    }

    @Test
    void shardsListenOnLoopbackAndOnTheConfiguredAddress() {
        assertThat(setting(f.plan("shards: 2\nbuffer_pool: 1G").instances().get(0), "bind_address").value())
                .isEqualTo("127.0.0.1");
        Setting both = setting(f.plan("shards: 2\nbuffer_pool: 1G\nserver:\n  bind_address: 10.0.0.5").instances().get(1),
                "bind_address");
        assertThat(both.value()).as("the proxy's TCP and local tools keep loopback").isEqualTo("127.0.0.1,10.0.0.5");
        assertThat(both.reason()).contains("server.bind_address");
        assertThat(setting(f.plan("shards: 2\nbuffer_pool: 1G\nserver:\n  bind_address: 0.0.0.0\n  advertise_host: db-a")
                .instances().get(0), "bind_address").value()).isEqualTo("0.0.0.0");
    }

    @Test
    void datadirsSpreadAcrossDevicesAndLogsGoToTheLogDevice() {
        f.tree.cpus(32, false).memory(256L * 1024 * 1024)
                .disk("nvme1n1", "259:1", false, 1023, null, 512, 512, "Samsung PM9A3", 0);
        f.tree.mount("mnt/nvme0", "259:0", "xfs", "/dev/nvme0n1", false);
        f.tree.mount("mnt/nvme1", "259:1", "xfs", "/dev/nvme1n1", false);
        sataSsd();
        Path nvme0 = tmp.resolve("mnt/nvme0/cleave");
        Path nvme1 = tmp.resolve("mnt/nvme1/cleave");
        Path logs = tmp.resolve("mnt/ssd/logs");
        HostPlan plan = f.plan("shards: 4\nbuffer_pool: 64G\ndatadir_roots: [" + nvme0 + ", " + nvme1 + "]\nlog_dir: " + logs
                + "\ncpu_sets: [\"0-7\", \"8-15\", \"16-23\", \"24-31\"]");
        assertThat(plan.instances()).extracting(InstancePlan::datadir).containsExactly(
                nvme0.resolve("shard-0"), nvme1.resolve("shard-1"), nvme0.resolve("shard-2"), nvme1.resolve("shard-3"));
        assertThat(plan.instances()).extracting(p -> setting(p, "innodb_io_capacity").value()).containsOnly("5000");
        InstancePlan p = plan.instances().get(1);
        assertThat(p.dataStorage().deviceName()).isEqualTo("nvme1n1");
        assertThat(p.logStorage().deviceName()).isEqualTo("sda");
        assertThat(p.logDir()).isEqualTo(logs.resolve("shard-1"));
        assertThat(p.writtenValue("innodb_log_group_home_dir")).contains(logs.resolve("shard-1").toString());
        assertThat(p.writtenValue("log_bin")).contains(logs.resolve("shard-1/binlog").toString());
        assertThat(setting(p, "innodb_log_group_home_dir").reason()).isEqualTo(
                "log_dir in the config: redo on sda, apart from the datadir's nvme1n1");
        assertThat(p.cpu().launch()).containsExactly("taskset", "-c", "8-15");
        assertThat(setting(p, "innodb_read_io_threads").value()).isEqualTo("4");
        assertThat(setting(p, "innodb_log_file_size")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("4G");
            assertThat(s.outcome()).isEqualTo(WRITTEN);
            assertThat(s.reason()).isEqualTo("a quarter of its 16G buffer pool; on sda; redo_write_rate would size it from the workload");
        });
        assertThat(plan.devices()).containsOnlyKeys("nvme0n1", "nvme1n1", "sda");
    }

    @Test
    void sataSsdGetsAFlashDevicesCapacitySplitByItsShards() {
        sataSsd();
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 1G\ndatadir_roots: [" + tmp.resolve("mnt/ssd/cleave") + "]");
        InstancePlan p = plan.instances().get(0);
        assertThat(p.dataStorage().device().orElseThrow().queueDepth()).isEqualTo(32);
        assertThat(setting(p, "innodb_io_capacity").value()).isEqualTo("1000");
        assertThat(setting(p, "innodb_io_capacity_max").value()).isEqualTo("2000");
        assertThat(setting(p, "innodb_flush_neighbors").value()).isEqualTo("0");
    }

    @Test
    void rotationalDiskKeepsNeighbourFlushingAndReadAhead() {
        f.tree.disk("sdb", "8:16", true, 64, 32, 512, 4096, "ST4000NM0035", 0);
        f.tree.mount("mnt/hdd", "8:16", "ext4", "/dev/sdb", false);
        HostPlan plan = f.plan("shards: 4\nbuffer_pool: 1G\ndatadir_roots: [" + tmp.resolve("mnt/hdd/cleave") + "]");
        InstancePlan p = plan.instances().get(3);
        assertThat(setting(p, "innodb_flush_neighbors")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("1");
            assertThat(s.outcome()).isEqualTo(SERVER_DEFAULT);
            assertThat(s.reason()).startsWith("sdb is rotational");
        });
        assertThat(setting(p, "innodb_read_ahead_threshold").outcome()).isEqualTo(SERVER_DEFAULT);
        assertThat(setting(p, "innodb_io_capacity").value()).as("200 / 4, raised to the server's minimum").isEqualTo("100");
        assertThat(setting(p, "innodb_io_capacity").reason()).endsWith("raised to the server's minimum 100");
        assertThat(setting(p, "innodb_io_capacity_max").value()).isEqualTo("500");
    }

    @Test
    void configuredIoCapacityReplacesTheDeviceClass() {
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 1G\nio_capacity: 4000");
        InstancePlan p = plan.instances().get(0);
        assertThat(setting(p, "innodb_io_capacity").value()).isEqualTo("2000");
        assertThat(setting(p, "innodb_io_capacity").reason()).contains("io_capacity 4000 per device in the config");
        assertThat(setting(p, "innodb_io_capacity_max").value()).isEqualTo("4000");
    }

    @Test
    void redoHoldsAnHourOfTheConfiguredWriteRate() {
        HostPlan plan = f.plan("shards: 4\nbuffer_pool: 8G\nredo_write_rate: 8M");
        Setting redo = setting(plan.instances().get(0), "innodb_log_file_size");
        assertThat(redo.value()).as("8M/s / 4 shards x 3600 s").isEqualTo("7200M");
        assertThat(redo.reason()).startsWith("an hour of its share of redo_write_rate (8M/s / 4 x 3600 s)");
    }

    @Test
    void filesystemWithoutDirectIoFallsBackToFsyncWithTheReason() {
        Path root = f.tree.dir("srv/nodirect");
        InstancePlan p = f.plan("shards: 1\nbuffer_pool: 128M\ndatadir_roots: [" + root + "]").instances().get(0);
        assertThat(setting(p, "innodb_flush_method")).satisfies(s -> {
            assertThat(s.value()).isEqualTo("fsync");
            assertThat(s.outcome()).isEqualTo(WRITTEN);
            assertThat(s.reason()).isEqualTo("O_DIRECT unavailable: the test filesystem refuses O_DIRECT");
        });
    }

    @Test
    void serverOptionsWinOverThePlan() {
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 1G\nserver: {options: {innodb_io_capacity: 7000, max-connections: 500,"
                + " innodb_no_such_thing: 1}}");
        InstancePlan p = plan.instances().get(0);
        assertThat(p.settings()).filteredOn(s -> s.option().equals("innodb_io_capacity"))
                .extracting(Setting::value, Setting::outcome).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("5000", REPLACED), org.assertj.core.groups.Tuple.tuple("7000", FROM_OPTIONS));
        assertThat(p.writtenValue("innodb_io_capacity")).contains("7000");
        assertThat(p.written()).extracting(Setting::option).containsOnlyOnce("innodb_io_capacity", "max-connections");
        assertThat(plan.notes()).singleElement().asString().startsWith("server.options sets innodb_no_such_thing, which MariaDB 11.4.5 does not list");
    }

    @Test
    void devicesMariadbWritesAtomicallyAndDevicesThatOnlyPromiseIt() {
        f.tree.disk("sfdv0n1", "250:0", false, 1023, null, 4096, 4096, "ScaleFlux CSD 3000", 0);
        f.tree.mount("mnt/sfx", "250:0", "ext4", "/dev/sfdv0n1", false);
        f.tree.disk("nvme2n1", "259:5", false, 1023, null, 4096, 4096, "Atomic NVMe", 65536);
        f.tree.mount("mnt/atomic", "259:5", "ext4", "/dev/nvme2n1", false);
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 1G\ndatadir_roots: [" + tmp.resolve("mnt/sfx/c") + ", " + tmp.resolve("mnt/atomic/c") + "]");
        assertThat(setting(plan.instances().get(0), "innodb_doublewrite").reason())
                .startsWith("sfdv0n1 is a ScaleFlux device: MariaDB detects its atomic writes and skips the doublewrite buffer");
        assertThat(setting(plan.instances().get(1), "innodb_doublewrite").reason())
                .startsWith("nvme2n1 promises atomic writes up to 65536 B, but MariaDB 11.4.5 does not ask for them");
        assertThat(plan.instances()).extracting(p -> setting(p, "innodb_doublewrite").value()).containsOnly("ON");
    }

    @Test
    void aPlanThatCannotWorkIsRefusedWithEveryReasonAndWhatToChange() {
        Path ram = f.tree.mount("mnt/ram", "0:50", "tmpfs", "tmpfs", false);
        Path ro = f.tree.mount("mnt/ro", "8:99", "ext4", "/dev/sdz", true);
        assertThatThrownBy(() -> f.plan("shards: 4\nbuffer_pool: 48G\nserver: {base_port: 6030}\ndatadir_roots: ["
                + ram.resolve("cleave") + ", " + ro.resolve("cleave") + "]"))
                .isInstanceOfSatisfying(PlanRefusedException.class, e -> assertThat(e.problems()).containsExactlyInAnyOrder(
                        "datadir_roots[0] " + ram.resolve("cleave") + " is on tmpfs (at " + ram + "): its data would vanish at reboot"
                                + " and take memory from the buffer pools: choose a writable directory on a disk",
                        "datadir_roots[1] " + ro.resolve("cleave") + " cannot be used: the filesystem mounted at " + ro
                                + " is read-only: choose a writable directory on a disk",
                        "buffer_pool 48G is more than this host's 32.0G of memory: lower buffer_pool, leaving about a quarter"
                                + " of memory for the servers' other buffers and the OS",
                        "port 6033 is taken twice: by shard-3 (server.base_port + 3) and the proxy (proxy.listen): move"
                                + " server.base_port, proxy.listen or admin.port so each has its own"))
                .hasMessageStartingWith("the plan for " + tmp.resolve("etc/cleave.yaml") + " cannot work:\n  - ");
    }

    @Test
    void aHomeOnTmpfsIsRefusedWithAdviceForTheHome() {
        Path ram = f.tree.mount("dev-shm", "0:51", "tmpfs", "tmpfs", false);
        FakeHostTree tree = f.tree;
        CleaveHome onRam = new CleaveHome(ram.resolve("home"));
        assertThatThrownBy(() -> new InstancePlanner(new io.cleave.manager.host.SysfsStorage(tree.sys(), tree.proc(),
                d -> java.util.Optional.empty()), f.host()).plan(f.config("shards: 1"), onRam, PlannerFixture.mariadb("11.4.5"),
                PlannerFixture.mariadbDefaults(), null))
                .isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("the home's data directory " + onRam.data() + " is on tmpfs")
                .hasMessageContaining("put the home (--home) on a disk, or set datadir_roots");
    }

    @Test
    void poolsNearlyFillingMemoryAreANote() {
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 28G");
        assertThat(plan.notes()).containsExactly("the buffer pools take 88% of this host's 32.0G of memory: connections, sorts"
                + " and the OS need the rest");
    }

    @Test
    void tooLongHomeMovesSocketsToAShortPath() {
        CleaveHome deep = new CleaveHome(tmp.resolve("srv/" + "d".repeat(100)));
        FakeHostTree tree = f.tree;
        List<InstancePlan> plans = new InstancePlanner(new io.cleave.manager.host.SysfsStorage(tree.sys(), tree.proc(),
                d -> java.util.Optional.empty()), f.host()).plan(f.config("shards: 2\nbuffer_pool: 128M"), deep,
                PlannerFixture.mariadb("11.4.5"), PlannerFixture.mariadbDefaults(), null).instances();
        assertThat(plans.get(1).socket().toString().length()).isLessThanOrEqualTo(CleaveHome.MAX_SOCKET_PATH);
        assertThat(plans.get(1).socket().getFileName().toString()).isEqualTo("shard-1.sock");
        assertThat(plans.get(1).socket().getParent()).isEqualTo(deep.run());
    }

    @Test
    void aRootDaemonsShardsRunAsTheirOsUserWithFilesInTheHomeOnly() {
        FakeHostTree tree = f.tree;
        InstancePlan p = new InstancePlanner(new io.cleave.manager.host.SysfsStorage(tree.sys(), tree.proc(),
                d -> java.util.Optional.empty()), f.host()).plan(f.config("shards: 1"), f.home,
                PlannerFixture.mariadb("11.4.5"), PlannerFixture.mariadbDefaults(), "cleave").instances().get(0);
        assertThat(PlannerFixture.setting(p, "user").value()).isEqualTo("cleave");
        assertThat(PlannerFixture.setting(p, "secure_file_priv").value()).isEqualTo(f.home.files().toString());
        assertThat(PlannerFixture.setting(p, "proxy_protocol_networks").value()).isEqualTo("127.0.0.1");
        InstancePlan own = f.plan("shards: 1").instances().get(0);
        assertThat(own.settings()).noneMatch(s -> s.option().equals("user"));
        assertThat(PlannerFixture.setting(own, "secure_file_priv").value()).isEqualTo(f.home.files().toString());
    }
}
