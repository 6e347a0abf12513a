package io.cleave.bench.online;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.measure.ProcessCpu;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time this benchmark's own processes used over a window, while shards come and go: the
 * daemons with the shards they stopped (a stopped shard's whole lifetime lands in its daemon's
 * children's time, so what it used before the window is taken off), the shards running at the end,
 * and the benchmark with its sysbench children.
 */
public final class OwnCpu {

    private final List<BenchHome> homes;
    private final Map<Long, Long> shardsAtStart = new HashMap<>();
    private final long daemonsAtStart;
    private final long selfAtStart;

    public OwnCpu(List<BenchHome> homes) {
        this.homes = homes;
        long daemons = 0;
        for (BenchHome h : homes) {
            daemons += ProcessCpu.withChildrenMicros(h.daemonPid());
            for (long pid : h.currentShardPids()) {
                shardsAtStart.put(pid, ProcessCpu.micros(pid));
            }
        }
        this.daemonsAtStart = daemons;
        this.selfAtStart = ProcessCpu.selfAndChildrenMicros();
    }

    /** Microseconds used since this was made. */
    public long micros() {
        long used = ProcessCpu.selfAndChildrenMicros() - selfAtStart - daemonsAtStart;
        for (BenchHome h : homes) {
            used += ProcessCpu.withChildrenMicros(h.daemonPid());
            for (long pid : h.currentShardPids()) {
                used += ProcessCpu.micros(pid) - shardsAtStart.getOrDefault(pid, 0L);
            }
        }
        for (Map.Entry<Long, Long> e : shardsAtStart.entrySet()) {
            if (!ProcessCpu.alive(e.getKey())) {
                used -= e.getValue();
            }
        }
        return used;
    }
}
