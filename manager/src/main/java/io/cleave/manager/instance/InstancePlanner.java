package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.home.CleaveHome;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans N instances from the config: an even share of the buffer pool, datadirs spread round-robin
 * across the datadir roots (one per flash device), io capacity split among the instances sharing a
 * device, one port, socket and server_id each.
 */
public final class InstancePlanner {

    private static final long GIB = 1L << 30;
    private static final int MAX_POOL_INSTANCES = 8;
    private static final int MIN_IO_CAPACITY = 100;

    private final StorageProbe storage;

    public InstancePlanner(StorageProbe storage) {
        this.storage = storage;
    }

    public List<InstancePlan> plan(CleaveConfig config, CleaveHome home) {
        int n = config.shards();
        List<Path> roots = config.datadirRoots().isEmpty() ? List.of(home.data()) : config.datadirRoots();
        Path run = home.run();

        Path[] datadirs = new Path[n];
        String[] devices = new String[n];
        Map<String, Integer> perDevice = new HashMap<>();
        for (int i = 0; i < n; i++) {
            datadirs[i] = roots.get(i % roots.size()).resolve(InstancePlan.nameOf(i));
            devices[i] = storage.deviceOf(datadirs[i]);
            perDevice.merge(devices[i], 1, Integer::sum);
        }
        Map<Path, Optional<String>> directIo = new HashMap<>();
        long pool = config.bufferPoolPerShard();
        int poolInstances = (int) Math.max(1, Math.min(MAX_POOL_INSTANCES, pool / GIB));

        List<InstancePlan> plans = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = InstancePlan.nameOf(i);
            Path root = roots.get(i % roots.size());
            Optional<String> noDirect = directIo.computeIfAbsent(root, storage::directIoUnsupported);
            Path logDir = config.logDir().map(d -> d.resolve(name)).orElse(datadirs[i]);
            int ioCapacity = Math.max(MIN_IO_CAPACITY, config.ioCapacity() / perDevice.get(devices[i]));
            plans.add(new InstancePlan(i, config.shards(), name, InstancePlan.SERVER_ID_BASE + i, config.server().basePort() + i,
                    run.resolve(name + ".sock"), run.resolve(name + ".pid"), datadirs[i], logDir,
                    config.logDir().isPresent(), home.logs().resolve(name + ".err"),
                    home.logs().resolve(name + ".console.log"), home.etc().resolve(name + ".cnf"), pool, poolInstances,
                    ioCapacity, config.cpuSets().isEmpty() ? Optional.empty() : Optional.of(config.cpuSets().get(i)),
                    noDirect.isEmpty(), noDirect.orElse("")));
        }
        return plans;
    }
}
