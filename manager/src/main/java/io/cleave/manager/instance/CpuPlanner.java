package io.cleave.manager.instance;

import io.cleave.manager.config.CpuSets;
import io.cleave.manager.host.CpuList;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.NumaNode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Places N instances on the host's CPUs. {@code cpu_sets: auto} gives each instance whole NUMA nodes
 * when the node count is a multiple of N, an even share of one node's cores when N is a multiple of
 * the node count, and otherwise an even run of cores; memory follows the CPUs with
 * {@code numactl --membind} (interleaved over several nodes), or is left to the kernel when only
 * taskset is installed. Explicit lists run under {@code taskset -c} as given.
 */
final class CpuPlanner {

    private final HostFacts host;
    private final List<String> refusals;

    /** @param refusals where problems that make the placement impossible are added */
    CpuPlanner(HostFacts host, List<String> refusals) {
        this.host = host;
        this.refusals = refusals;
    }

    List<CpuPlacement> place(CpuSets sets, int n) {
        if (sets instanceof CpuSets.Explicit e) {
            return explicit(e.lists());
        }
        return sets instanceof CpuSets.Auto ? auto(n) : unpinned(n);
    }

    private List<CpuPlacement> unpinned(int n) {
        List<CpuPlacement> out = new ArrayList<>();
        int cpus = host.cpus().size();
        for (int i = 0; i < n; i++) {
            out.add(new CpuPlacement(host.cpus(), ids(host.nodes()), List.of(), List.of(), Math.max(1, cpus / n),
                    "not pinned (cpu_sets is empty): the kernel schedules it on any of the " + cpus + " CPUs"
                            + (n > 1 ? ", shared with " + (n - 1) + " other shard" + (n > 2 ? "s" : "") : "")));
        }
        return out;
    }

    private List<CpuPlacement> explicit(List<String> lists) {
        List<CpuPlacement> out = new ArrayList<>();
        for (int i = 0; i < lists.size(); i++) {
            CpuList cpus = CpuList.parse(lists.get(i));
            if (!host.cpus().containsAll(cpus)) {
                refusals.add("cpu_sets[" + i + "] is " + cpus + ", but this host has CPUs " + host.cpus()
                        + " only: name CPUs it has, or use cpu_sets: auto");
            }
            if (host.taskset().isEmpty()) {
                refusals.add("cpu_sets need taskset on PATH: install util-linux, or use cpu_sets: auto with numactl");
                return unpinned(lists.size());
            }
            out.add(new CpuPlacement(cpus, ids(host.nodesOf(cpus)), List.of(),
                    List.of("taskset", "-c", cpus.toString()), cpus.size(), "cpu_sets[" + i + "] in the config"));
        }
        return out;
    }

    private List<CpuPlacement> auto(int n) {
        if (host.numactl().isEmpty() && host.taskset().isEmpty()) {
            refusals.add("cpu_sets: auto needs numactl or taskset on PATH: install numactl (or util-linux for taskset),"
                    + " or set cpu_sets: []");
            return unpinned(n);
        }
        List<NumaNode> nodes = host.nodes();
        int k = nodes.size();
        List<CpuPlacement> out = new ArrayList<>();
        if (k >= 2 && k % n == 0) {
            int per = k / n;
            for (int i = 0; i < n; i++) {
                List<NumaNode> mine = nodes.subList(i * per, (i + 1) * per);
                CpuList cpus = CpuList.of(mine.stream().flatMap(m -> m.cpus().cpus().stream()).toList());
                String which = (per == 1 ? "NUMA node " : "NUMA nodes ") + joined(ids(mine)) + " of " + k;
                out.add(pin(cpus, ids(mine), true, cpus.size(), which + ", its CPUs and its memory"));
            }
            return out;
        }
        if (k >= 2 && n % k == 0) {
            int per = n / k;
            for (int i = 0; i < n; i++) {
                NumaNode node = nodes.get(i / per);
                CpuList cpus = split(coresOf(node.cpus()), per).get(i % per);
                out.add(pin(cpus, List.of(node.id()), false, cpus.size(), "1/" + per + " of NUMA node " + node.id()
                        + "'s cores (" + per + " shards per node, " + k + " nodes), memory on that node"));
            }
            return out;
        }
        List<CpuList> parts = split(host.cores(), n);
        for (int i = 0; i < n; i++) {
            CpuList cpus = parts.get(i);
            int sharing = (int) parts.stream().filter(p -> p.equals(cpus)).count();
            String why = sharing > 1
                    ? "CPU " + cpus + " shared with " + (sharing - 1) + " other shard" + (sharing > 2 ? "s" : "")
                    + " (" + n + " shards on " + host.cpus().size() + " CPUs)"
                    : "an even share of the host's cores (" + n + " shards on " + host.cores().size() + " cores)";
            out.add(pin(cpus, ids(host.nodesOf(cpus)), false, Math.max(1, cpus.size() / sharing),
                    k == 1 ? why + "; one NUMA node, so memory is local to every CPU" : why));
        }
        return out;
    }

    /**
     * The command that confines an instance to {@code cpus} with its memory on {@code nodes}: numactl
     * when installed and the host has several nodes, else taskset (memory then follows first touch).
     *
     * @param wholeNodes whether {@code cpus} are exactly those nodes' CPUs (then --cpunodebind)
     */
    private CpuPlacement pin(CpuList cpus, List<Integer> nodes, boolean wholeNodes, int cores, String reason) {
        boolean numa = host.nodes().size() > 1;
        if (host.numactl().isPresent() && (numa || host.taskset().isEmpty())) {
            List<String> launch = new ArrayList<>(List.of("numactl",
                    wholeNodes ? "--cpunodebind=" + joined(nodes) : "--physcpubind=" + cpus));
            if (!numa) {
                return new CpuPlacement(cpus, nodes, List.of(), launch, cores, reason);
            }
            boolean interleave = nodes.size() > 1;
            launch.add((interleave ? "--interleave=" : "--membind=") + joined(nodes));
            return new CpuPlacement(cpus, nodes, nodes, launch, cores,
                    interleave ? reason + " (memory interleaved over nodes " + joined(nodes) + ")" : reason);
        }
        String note = numa ? "; numactl is not installed, so memory goes where the kernel first touches it (install numactl to bind it)" : "";
        return new CpuPlacement(cpus, nodes, List.of(), List.of("taskset", "-c", cpus.toString()), cores, reason + note);
    }

    /** The host's cores whose CPUs lie in {@code cpus}. */
    private List<CpuList> coresOf(CpuList cpus) {
        return host.cores().stream().filter(cpus::containsAll).toList();
    }

    /**
     * Splits cores into {@code n} runs of nearly equal size (the first ones get one more); with fewer
     * cores than parts it splits their CPUs instead, and with fewer CPUs than parts parts share CPUs.
     */
    static List<CpuList> split(List<CpuList> cores, int n) {
        List<CpuList> units = cores;
        if (cores.size() < n) {
            units = cores.stream().flatMap(c -> c.cpus().stream()).map(c -> CpuList.of(List.of(c))).toList();
        }
        List<CpuList> parts = new ArrayList<>();
        if (units.size() < n) {
            for (int i = 0; i < n; i++) {
                parts.add(units.get(i % units.size()));
            }
            return parts;
        }
        int base = units.size() / n;
        int extra = units.size() % n;
        int at = 0;
        for (int i = 0; i < n; i++) {
            int size = base + (i < extra ? 1 : 0);
            parts.add(CpuList.of(units.subList(at, at + size).stream().flatMap(c -> c.cpus().stream()).toList()));
            at += size;
        }
        return parts;
    }

    private static List<Integer> ids(List<NumaNode> nodes) {
        return nodes.stream().map(NumaNode::id).toList();
    }

    private static String joined(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
