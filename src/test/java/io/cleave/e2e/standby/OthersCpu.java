package io.cleave.e2e.standby;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The CPU that processes other than a test's own used while it ran (the machine is shared: its figures mean little
 * when others were busy), and the load average at the end. The test's processes are read from {@code ours} at each
 * {@link #sample}, so one killed later still counts with what it used until the last sample before its death.
 */
final class OthersCpu {

    private final Supplier<List<Long>> ours;
    private final long startNanos = System.nanoTime();
    private final long busyAtStart;
    /** Per pid: its CPU (ticks) when first seen, and when last seen. */
    private final Map<Long, long[]> seen = new TreeMap<>();

    OthersCpu(Supplier<List<Long>> ours) throws IOException {
        this.ours = ours;
        this.busyAtStart = busyTicks();
        sample();
    }

    /** Reads the CPU of the test's processes now: call it before killing any of them. */
    synchronized void sample() throws IOException {
        for (long pid : ours.get()) {
            long ticks = ticksOf(pid);
            if (ticks >= 0) {
                seen.computeIfAbsent(pid, p -> new long[] {ticks, ticks})[1] = ticks;
            }
        }
    }

    /** Others' CPU since the start, in % of one core, and the 1-minute load average now. */
    synchronized String report() throws IOException {
        sample();
        long mine = seen.values().stream().mapToLong(t -> t[1] - t[0]).sum();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double others = (busyTicks() - busyAtStart - mine) / 100.0 / seconds * 100;
        String load = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0];
        return String.format(Locale.ROOT, "other processes' CPU %.0f%% of one core over %.0f s, load %s", others, seconds,
                load);
    }

    /** Busy ticks of the whole machine (all but idle and iowait), in USER_HZ (100 a second). */
    private static long busyTicks() throws IOException {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long busy = 0;
        for (int i = 1; i < cpu.length; i++) {
            if (i != 4 && i != 5) {
                busy += Long.parseLong(cpu[i]);
            }
        }
        return busy;
    }

    /** User and system ticks of {@code pid}, -1 when it is gone. */
    private static long ticksOf(long pid) {
        try {
            String text = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
