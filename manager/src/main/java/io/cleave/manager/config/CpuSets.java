package io.cleave.manager.config;

import java.util.List;

/** How the config places shards on CPUs ({@code cpu_sets}). */
public sealed interface CpuSets {

    /** {@code cpu_sets: []}: shards run wherever the kernel puts them. */
    record Unpinned() implements CpuSets {
    }

    /** {@code cpu_sets: auto}: the planner splits the host's cores evenly, a NUMA node per shard where it can. */
    record Auto() implements CpuSets {
    }

    /** One taskset-style CPU list per shard. */
    record Explicit(List<String> lists) implements CpuSets {
        public Explicit {
            lists = List.copyOf(lists);
        }
    }
}
