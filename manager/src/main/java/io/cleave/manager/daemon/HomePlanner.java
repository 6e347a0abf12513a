package io.cleave.manager.daemon;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.StorageProbe;
import io.cleave.manager.host.SysfsHost;
import io.cleave.manager.host.SysfsStorage;
import io.cleave.manager.instance.BinaryResolver;
import io.cleave.manager.instance.EmbeddedServer;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlanner;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ServerDefaultsProbe;

import java.nio.file.Path;

/**
 * Plans a home on this host without changing anything: finds the server binary and its defaults,
 * reads the host's CPUs, memory and devices, and plans every instance. {@code cleave plan} prints
 * the result; {@code init} and {@code up} provision from it.
 */
public final class HomePlanner {

    private final CleaveHome home;
    private final CleaveConfig config;
    private final Path cacheDir;
    private final String pathVariable;
    private final boolean runAsRoot = "root".equals(System.getProperty("user.name"));

    public HomePlanner(CleaveHome home, CleaveConfig config, Path cacheDir, String pathVariable) {
        this.home = home;
        this.config = config;
        this.cacheDir = cacheDir;
        this.pathVariable = pathVariable;
    }

    public CleaveHome home() {
        return home;
    }

    public boolean runAsRoot() {
        return runAsRoot;
    }

    /** The OS user the shards run as: server.os_user when the daemon is root, else null (the daemon's own). */
    public String serverUser() {
        return runAsRoot ? config.server().osUser() : null;
    }

    /**
     * The plan for as many shards as the home has: the state's count once a scale changed it, else
     * the config's.
     *
     * @throws io.cleave.manager.instance.PlanRefusedException when the plan cannot work
     */
    public HostPlan plan() {
        return plan(shardCount());
    }

    /** The plan for {@code shards} shards (a scale plans the count it goes to). */
    public HostPlan plan(int shards) {
        ServerBinary binary = new BinaryResolver(pathVariable, () -> EmbeddedServer.standard(cacheDir))
                .resolve(config.server().binary());
        return plan(config.withShards(shards), binary, SysfsHost.local(pathVariable).facts(), SysfsStorage.local());
    }

    /** The home's shard count: the state's when it holds a shard map, else the config's. */
    public int shardCount() {
        return new ShardMapStore(home.shardMapFile()).storedShardCount().orElse(config.shards());
    }

    HostPlan plan(ServerBinary binary, HostFacts host, StorageProbe storage) {
        return plan(config, binary, host, storage);
    }

    private HostPlan plan(CleaveConfig config, ServerBinary binary, HostFacts host, StorageProbe storage) {
        return new InstancePlanner(storage, host).plan(config, home, binary,
                new ServerDefaultsProbe(cacheDir, runAsRoot).defaultsOf(binary), serverUser());
    }
}
