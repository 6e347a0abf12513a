package io.cleave.bench.chaos;

import io.cleave.bench.home.HomeStatus;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.measure.ProcessCpu;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The soak's own CPU time against the host's, while its processes come and go: the daemon and
 * the shards are sampled every two seconds by pid (a killed one loses at most its last two
 * seconds), the soak's JVM with the commands it ran as children is read at the end. What the host
 * was busy with beyond that is other processes' work, reported with the results.
 */
final class CpuMeter implements AutoCloseable {
    private static final long SAMPLE_MILLIS = 2_000;

    private final Supplier<HomeStatus> status;
    private final HostCpu hostAtStart = HostCpu.read();
    private final long selfAtStart = ProcessCpu.selfAndChildrenMicros();
    private final Map<Long, Long> lastByPid = new HashMap<>();
    private final Thread sampler;
    private long homeMicros;
    private List<Long> pids = List.of();
    private volatile boolean stopped;

    CpuMeter(Supplier<HomeStatus> status) {
        this.status = status;
        sample();
        this.sampler = new Thread(() -> {
            while (!stopped) {
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                sample();
            }
        }, "chaos-cpu");
        sampler.setDaemon(true);
        sampler.start();
    }

    private synchronized void sample() {
        try {
            HomeStatus s = status.get();
            List<Long> now = new ArrayList<>(s.shardPids());
            now.add(s.daemonPid());
            pids = now;
        } catch (RuntimeException e) {
            // The daemon is down or stopped: the processes last seen are sampled.
        }
        for (long pid : pids) {
            if (pid <= 0 || !ProcessCpu.alive(pid)) {
                continue;
            }
            try {
                long micros = ProcessCpu.micros(pid);
                Long last = lastByPid.put(pid, micros);
                homeMicros += last == null ? 0 : micros - last;
            } catch (RuntimeException e) {
                // Gone between the check and the read.
            }
        }
    }

    /** The figures since the start: the soak's processes, the host's busy and total time. */
    synchronized Usage usage() {
        sample();
        HostCpu host = HostCpu.read().minus(hostAtStart);
        long ours = homeMicros + ProcessCpu.selfAndChildrenMicros() - selfAtStart;
        return new Usage(ours, host.busyMicros(), host.totalMicros());
    }

    /** CPU microseconds: the soak's own (daemon, shards, the soak with its commands), the host busy, the host in all. */
    record Usage(long oursMicros, long hostBusyMicros, long hostTotalMicros) {
        /** Other processes' share of the host's CPU time, in percent. */
        double othersPercent() {
            return hostTotalMicros == 0 ? 0 : 100.0 * Math.max(0, hostBusyMicros - oursMicros) / hostTotalMicros;
        }

        /** The soak's share of the host's CPU time, in percent. */
        double oursPercent() {
            return hostTotalMicros == 0 ? 0 : 100.0 * oursMicros / hostTotalMicros;
        }
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
    }
}
