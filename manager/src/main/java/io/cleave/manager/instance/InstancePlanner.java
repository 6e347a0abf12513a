package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.Storage;
import io.cleave.manager.host.StorageProbe;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans N instances from the config and the host: an even share of the buffer pool, datadirs spread
 * round-robin across the datadir roots (one per device), CPUs and NUMA nodes, one port, socket and
 * server_id each, and every my.cnf option with its reason. Options equal to the server's default
 * are not written, options the server lacks are left out, and server.options wins over the plan.
 * A plan that cannot work is refused with what to change.
 */
public final class InstancePlanner {

    private final StorageProbe storage;
    private final HostFacts host;

    public InstancePlanner(StorageProbe storage, HostFacts host) {
        this.storage = storage;
        this.host = host;
    }

    /**
     * @param serverUser the OS user the servers run as when the daemon is root ({@code user=}), else null
     * @throws PlanRefusedException when the plan cannot work
     */
    public HostPlan plan(CleaveConfig config, CleaveHome home, ServerBinary binary, ServerDefaults defaults,
                         String serverUser) {
        List<String> refusals = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int n = config.shards();
        boolean defaultRoot = config.datadirRoots().isEmpty();
        List<Path> roots = defaultRoot ? List.of(home.data()) : config.datadirRoots();

        Map<Path, Storage> rootStorage = new LinkedHashMap<>();
        for (int r = 0; r < roots.size(); r++) {
            Storage s = storage.describe(roots.get(r));
            rootStorage.put(roots.get(r), s);
            PlanChecks.storage(s, defaultRoot ? "the home's data directory" : "datadir_roots[" + r + "]",
                    defaultRoot ? "put the home (--home) on a disk, or set datadir_roots" : "choose a writable directory on a disk", refusals);
        }
        Optional<Storage> logStorage = config.logDir().map(storage::describe);
        logStorage.ifPresent(s -> PlanChecks.storage(s, "log_dir", "choose a writable directory on a disk", refusals));

        List<CpuPlacement> cpus = new CpuPlanner(host, refusals).place(config.cpuSets(), n);
        List<InstancePlan> drafts = new ArrayList<>(n);
        Map<String, Integer> dataSharing = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String name = InstancePlan.nameOf(i);
            Path root = roots.get(i % roots.size());
            Storage data = rootStorage.get(root);
            Storage log = logStorage.orElse(data);
            Path datadir = root.resolve(name);
            Path logDir = config.logDir().map(d -> d.resolve(name)).orElse(datadir);
            drafts.add(new InstancePlan(i, n, name, config.server().serverIdBase() + i, config.server().basePort() + i,
                    home.run().resolve(name + ".sock"), home.run().resolve(name + ".pid"), datadir, logDir,
                    config.logDir().isPresent(), home.logs().resolve(name + ".err"), home.logs().resolve(name + ".console.log"),
                    home.etc().resolve(name + ".cnf"), config.bufferPoolPerShard(), cpus.get(i), data, log, List.of()));
            dataSharing.merge(data.deviceName(), 1, Integer::sum);
        }

        PlanContext context = new PlanContext(config, binary, serverUser, home.files(), dataSharing,
                home.shardTlsCertificate(), home.shardTlsKey());
        SettingResolver resolver = new SettingResolver(context, defaults, config.server().options());
        List<InstancePlan> plans = new ArrayList<>(n);
        for (InstancePlan draft : drafts) {
            List<Choice> choices = new ArrayList<>(LayoutChoices.of(draft, context));
            choices.addAll(TuningChoices.of(draft, context));
            plans.add(draft.withSettings(resolver.resolve(choices)));
        }
        notes.addAll(resolver.notes());
        defaults.unknownReason().ifPresent(why -> notes.add("the defaults of " + context.server() + " are unknown (" + why
                + "): every planned option is written"));
        PlanChecks.memory(config, host, plans, refusals, notes);
        PlanChecks.ports(config, plans, refusals);
        if (!refusals.isEmpty()) {
            throw new PlanRefusedException(config.source(), refusals);
        }
        return new HostPlan(config, binary, host, plans, notes);
    }
}
