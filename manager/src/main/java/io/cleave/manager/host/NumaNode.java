package io.cleave.manager.host;

/** One NUMA node: its CPUs and its memory. */
public record NumaNode(int id, CpuList cpus, long memoryBytes) {
}
