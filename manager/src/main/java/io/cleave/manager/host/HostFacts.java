package io.cleave.manager.host;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What planning needs to know about the host's CPUs and memory.
 *
 * @param cpus        the CPUs this process may run on (online and allowed)
 * @param cores       the same CPUs grouped by physical core (hyperthread siblings together), in CPU order
 * @param nodes       NUMA nodes with CPUs among {@link #cpus}; one node on a host without NUMA
 * @param memoryBytes the host's memory (MemTotal)
 * @param numactl     numactl, when installed
 * @param taskset     taskset, when installed
 */
public record HostFacts(CpuList cpus, List<CpuList> cores, List<NumaNode> nodes, long memoryBytes,
                        Optional<Path> numactl, Optional<Path> taskset) {

    public HostFacts {
        cores = List.copyOf(cores);
        nodes = List.copyOf(nodes);
    }

    /** The node holding a CPU; empty when the host reported none for it. */
    public Optional<NumaNode> nodeOf(int cpu) {
        return nodes.stream().filter(n -> n.cpus().contains(cpu)).findFirst();
    }

    /** The nodes holding any of these CPUs, in id order. */
    public List<NumaNode> nodesOf(CpuList cpus) {
        return nodes.stream().filter(n -> n.cpus().intersects(cpus)).toList();
    }
}
