package io.cleave.bench.memory;

import io.cleave.bench.exec.ChildProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of a running daemon: its resident set (VmRSS, what the host pays: heap, Netty's
 * direct buffers, thread stacks) and its Java heap in use right after a full GC (live objects
 * only), read with the JDK's jcmd.
 *
 * @param rssBytes  resident set size
 * @param heapBytes heap in use after a full GC
 */
public record DaemonMemory(long rssBytes, long heapBytes) {

    private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");
    /** "garbage-first heap   total 262144K, used 23451K [...]" and the like of other collectors. */
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

    /** Runs a full GC in the daemon, lets it settle, and reads both figures. */
    public static DaemonMemory read(long pid, Path jcmd) throws IOException, InterruptedException {
        jcmd(jcmd, pid, "GC.run");
        Thread.sleep(1_000);
        Matcher heap = HEAP_USED.matcher(jcmd(jcmd, pid, "GC.heap_info"));
        if (!heap.find()) {
            throw new IllegalStateException("jcmd " + pid + " GC.heap_info printed no heap use");
        }
        Matcher rss = RSS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        if (!rss.find()) {
            throw new IllegalStateException("/proc/" + pid + "/status has no VmRSS");
        }
        return new DaemonMemory(Long.parseLong(rss.group(1)) * 1024, Long.parseLong(heap.group(1)) * 1024);
    }

    /** jcmd of the JDK running this benchmark (the daemon runs on the same java). */
    public static Path jcmdOfThisJdk() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd");
    }

    private static String jcmd(Path jcmd, long pid, String command) {
        ChildProcess.Result r = ChildProcess.run(List.of(jcmd.toString(), Long.toString(pid), command),
                Duration.ofMinutes(1));
        if (r.exitCode() != 0) {
            throw new IllegalStateException("jcmd " + pid + " " + command + " failed (exit " + r.exitCode() + "): "
                    + r.lastLines(5));
        }
        return r.output();
    }
}
