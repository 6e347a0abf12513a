package io.cleave.bench.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * CPU time (user + system, all threads) a process has used, from /proc/PID/stat. The clock tick is
 * read once from {@code getconf CLK_TCK}; Linux reports 100 on every common build.
 */
public final class ProcessCpu {
    private static final int UTIME_AFTER_STATE = 11;
    private static final int STIME_AFTER_STATE = 12;
    private static final int CUTIME_AFTER_STATE = 13;
    private static final int CSTIME_AFTER_STATE = 14;
    private static final long TICKS_PER_SECOND = clockTicks();

    private ProcessCpu() {
    }

    /** CPU microseconds used so far by the process. */
    public static long micros(long pid) {
        return ticksToMicros(parseTicks(stat(pid)));
    }

    /**
     * CPU microseconds of this JVM plus its children it has waited for: the benchmark client,
     * whether it runs in-process (TPC-C) or as a child that has exited (sysbench).
     */
    public static long selfAndChildrenMicros() {
        return ticksToMicros(parseTicksWithChildren(stat(ProcessHandle.current().pid())));
    }

    /** CPU microseconds of a process plus its children it has waited for (a daemon and the shards it stopped). */
    public static long withChildrenMicros(long pid) {
        return ticksToMicros(parseTicksWithChildren(stat(pid)));
    }

    /** Whether the process still runs (its /proc entry is there). */
    public static boolean alive(long pid) {
        return Files.exists(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static String stat(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            return Files.readString(stat, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("process " + pid + " is gone (no " + stat + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Summed CPU microseconds of several processes. */
    public static long micros(Iterable<Long> pids) {
        long sum = 0;
        for (long pid : pids) {
            sum += micros(pid);
        }
        return sum;
    }

    /** utime + stime in clock ticks from one stat line; the command name may hold spaces and parentheses. */
    static long parseTicks(String statLine) {
        String[] fields = fieldsAfterState(statLine);
        return Long.parseLong(fields[UTIME_AFTER_STATE]) + Long.parseLong(fields[STIME_AFTER_STATE]);
    }

    /** utime + stime + cutime + cstime: the process and its waited-for children. */
    static long parseTicksWithChildren(String statLine) {
        String[] fields = fieldsAfterState(statLine);
        return parseTicks(statLine) + Long.parseLong(fields[CUTIME_AFTER_STATE])
            + Long.parseLong(fields[CSTIME_AFTER_STATE]);
    }

    private static String[] fieldsAfterState(String statLine) {
        int end = statLine.lastIndexOf(')');
        if (end < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + statLine);
        }
        String[] fields = statLine.substring(end + 2).trim().split(" +");
        if (fields.length <= CSTIME_AFTER_STATE) {
            throw new IllegalArgumentException("too few fields in /proc/PID/stat: " + statLine);
        }
        return fields;
    }

    static long ticksToMicros(long ticks) {
        return ticks * 1_000_000L / TICKS_PER_SECOND;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
