package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.host.FakeHostTree;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.SysfsHost;
import io.cleave.manager.host.SysfsStorage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A planner over a fake host: a fake /sys and /proc with an NVMe disk mounted at {@code srv} (where
 * the home lives), and whatever devices and NUMA nodes a test adds. Directories whose name contains
 * {@code nodirect} refuse O_DIRECT.
 */
final class PlannerFixture {

    final FakeHostTree tree;
    final CleaveHome home;
    final Path bin;

    PlannerFixture(Path tmp) {
        tree = new FakeHostTree(tmp).cpus(8, false).memory(32L * 1024 * 1024)
                .disk("nvme0n1", "259:0", false, 1023, null, 512, 4096, "Samsung PM9A3", 0);
        home = new CleaveHome(tree.mount("srv", "259:0", "ext4", "/dev/nvme0n1", false).resolve("cleave"));
        bin = tree.dir("bin");
        tool("taskset");
    }

    /** Puts an executable of that name in the fake PATH. */
    PlannerFixture tool(String name) {
        try {
            Path p = bin.resolve(name);
            if (!Files.exists(p)) {
                Files.createFile(p).toFile().setExecutable(true);
            }
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HostFacts host() {
        return new SysfsHost(tree.sys(), tree.proc(), bin.toString()).facts();
    }

    CleaveConfig config(String yaml) {
        return ConfigLoader.parse(tree.dir("etc").resolve("cleave.yaml"),
                yaml + "\nproxy: {listen: 127.0.0.1:6033, users: [{name: root, password: \"\"}]}\n");
    }

    HostPlan plan(String yaml, ServerBinary binary, ServerDefaults defaults) {
        SysfsStorage storage = new SysfsStorage(tree.sys(), tree.proc(),
                dir -> dir.toString().contains("nodirect") ? Optional.of("the test filesystem refuses O_DIRECT") : Optional.empty());
        return new InstancePlanner(storage, host()).plan(config(yaml), home, binary, defaults, null);
    }

    HostPlan plan(String yaml) {
        return plan(yaml, mariadb("11.4.5"), mariadbDefaults());
    }

    static ServerBinary mariadb(String version) {
        return binary(Flavour.MARIADB, version);
    }

    static ServerBinary binary(Flavour flavour, String version) {
        return new ServerBinary(Path.of("/opt/db/bin/mysqld"), Path.of("/opt/db"), flavour, ServerVersion.parse(version),
                ServerBinary.Source.CONFIGURED, "mysqld Ver " + version);
    }

    static ServerDefaults mariadbDefaults() {
        return ServerDefaultsTest.mariadb114();
    }

    static Setting setting(InstancePlan plan, String option) {
        return plan.settings().stream().filter(s -> s.option().equals(option)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError(option + " is not in the plan of " + plan.name() + ": " + plan.settings()));
    }
}
