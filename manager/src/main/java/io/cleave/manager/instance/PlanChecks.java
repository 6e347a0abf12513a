package io.cleave.manager.instance;

import io.cleave.manager.config.ByteSize;
import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.NumaNode;
import io.cleave.manager.host.Storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The checks that refuse a plan that cannot work, each saying what to change. */
final class PlanChecks {

    /** Above this share of memory in buffer pools, the plan carries a warning. */
    private static final double POOL_SHARE_WARNING = 0.75;

    private PlanChecks() {
    }

    /**
     * A directory that would hold datadirs or logs: it must be writable and on a disk.
     *
     * @param what how the config names it, e.g. {@code datadir_roots[1]}
     * @param fix  what to change when it cannot be used
     */
    static void storage(Storage s, String what, String fix, List<String> refusals) {
        s.notWritable().ifPresent(why -> refusals.add(what + " " + s.dir() + " cannot be used: " + why + ": " + fix));
        if (s.mount().inMemory()) {
            refusals.add(what + " " + s.dir() + " is on " + s.mount().fsType() + " (at " + s.mount().mountPoint()
                    + "): its data would vanish at reboot and take memory from the buffer pools: " + fix);
        }
    }

    static void memory(CleaveConfig config, HostFacts host, List<InstancePlan> plans, List<String> refusals,
                       List<String> notes) {
        long pools = config.bufferPoolBytes();
        if (pools > host.memoryBytes()) {
            refusals.add("buffer_pool " + ByteSize.format(pools) + " is more than this host's " + gib(host.memoryBytes())
                    + " of memory: lower buffer_pool, leaving about a quarter of memory for the servers' other buffers and the OS");
        } else if (pools > host.memoryBytes() * POOL_SHARE_WARNING) {
            notes.add("the buffer pools take " + Math.round(100.0 * pools / host.memoryBytes()) + "% of this host's "
                    + gib(host.memoryBytes()) + " of memory: connections, sorts and the OS need the rest");
        }
        Map<List<Integer>, List<InstancePlan>> bound = new LinkedHashMap<>();
        for (InstancePlan p : plans) {
            if (!p.cpu().memoryNodes().isEmpty()) {
                bound.computeIfAbsent(p.cpu().memoryNodes(), k -> new ArrayList<>()).add(p);
            }
        }
        bound.forEach((nodes, members) -> {
            long nodeMemory = host.nodes().stream().filter(n -> nodes.contains(n.id())).mapToLong(NumaNode::memoryBytes).sum();
            long used = members.stream().mapToLong(InstancePlan::bufferPoolBytes).sum();
            if (nodeMemory > 0 && used > nodeMemory) {
                boolean one = members.size() == 1;
                String names = String.join(", ", members.stream().map(InstancePlan::name).toList());
                String where = (nodes.size() > 1 ? "NUMA nodes " : "NUMA node ")
                        + String.join(",", nodes.stream().map(String::valueOf).toList());
                refusals.add(names + (one ? " binds its memory to " : " bind their memory to ") + where + " (" + gib(nodeMemory)
                        + "), but " + (one ? "its buffer pool takes " : "their buffer pools take ") + gib(used)
                        + ": lower buffer_pool, or run fewer shards per node");
            }
        });
    }

    /** No two listeners of the home on one port: shards, proxy and admin API. */
    static void ports(CleaveConfig config, List<InstancePlan> plans, List<String> refusals) {
        Map<Integer, List<String>> owners = new LinkedHashMap<>();
        for (InstancePlan p : plans) {
            owners.computeIfAbsent(p.port(), k -> new ArrayList<>()).add(p.name() + " (server.base_port + " + p.index() + ")");
        }
        owners.computeIfAbsent(config.proxy().listen().port(), k -> new ArrayList<>()).add("the proxy (proxy.listen)");
        if (config.adminPort() != 0) {
            owners.computeIfAbsent(config.adminPort(), k -> new ArrayList<>()).add("the admin API (admin.port)");
        }
        owners.forEach((port, who) -> {
            if (who.size() > 1) {
                refusals.add("port " + port + " is taken twice: by " + String.join(" and ", who)
                        + ": move server.base_port, proxy.listen or admin.port so each has its own");
            }
        });
    }

    static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1fG", bytes / (double) (1L << 30));
    }
}
