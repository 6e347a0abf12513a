package io.cleave.bench.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of the whole host from the first line of /proc/stat: busy (user, nice, system, irq,
 * softirq, steal) and total (busy + idle + iowait), over all cores. Minus what the benchmark's own
 * processes used, it tells how much other work ran during a measurement: unlike the load average,
 * which counts the benchmark's own threads too.
 */
public record HostCpu(long busyMicros, long totalMicros) {

    public static HostCpu read() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/stat")).get(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static HostCpu parse(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        if (!f[0].equals("cpu") || f.length < 9) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
        }
        long user = Long.parseLong(f[1]);
        long nice = Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]);
        long idle = Long.parseLong(f[4]);
        long iowait = Long.parseLong(f[5]);
        long irq = Long.parseLong(f[6]);
        long softirq = Long.parseLong(f[7]);
        long steal = Long.parseLong(f[8]);
        long busy = user + nice + system + irq + softirq + steal;
        return new HostCpu(ProcessCpu.ticksToMicros(busy), ProcessCpu.ticksToMicros(busy + idle + iowait));
    }

    public HostCpu minus(HostCpu earlier) {
        return new HostCpu(busyMicros - earlier.busyMicros, totalMicros - earlier.totalMicros);
    }
}
