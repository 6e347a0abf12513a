package io.cleave.manager.instance;

import io.cleave.manager.host.CpuList;

import java.util.List;

/**
 * Where one instance runs.
 *
 * @param cpus        the CPUs it may run on (all of the host's when unpinned)
 * @param nodes       the NUMA nodes those CPUs belong to
 * @param memoryNodes the nodes its memory is bound to (numactl --membind); empty when not bound
 * @param launch      the command put before mysqld ({@code numactl ...} or {@code taskset -c ...}); empty when unpinned
 * @param cores       how many CPUs' worth of work it can count on (at least 1): its own CPUs, or its
 *                    share of the CPUs it shares with other shards
 * @param reason      why it runs there, in words
 */
public record CpuPlacement(CpuList cpus, List<Integer> nodes, List<Integer> memoryNodes, List<String> launch, int cores,
                           String reason) {

    public CpuPlacement {
        nodes = List.copyOf(nodes);
        memoryNodes = List.copyOf(memoryNodes);
        launch = List.copyOf(launch);
    }

    public boolean pinned() {
        return !launch.isEmpty();
    }
}
