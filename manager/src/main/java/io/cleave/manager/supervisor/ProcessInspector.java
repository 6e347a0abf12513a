package io.cleave.manager.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Reads /proc to tell whether a pid is this shard's server (its command line names the shard's cnf). */
public final class ProcessInspector {

    private ProcessInspector() {
    }

    /** The process's arguments, or empty when it is gone or unreadable. */
    public static Optional<List<String>> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            if (raw.length == 0) {
                return Optional.empty(); // a zombie or kernel thread
            }
            return Optional.of(List.of(new String(raw, StandardCharsets.UTF_8).split("\0")));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public static boolean isServerFor(long pid, Path cnf) {
        String flag = "--defaults-file=" + cnf;
        return commandLine(pid).map(args -> args.contains(flag)).orElse(false);
    }

    /** Any live process whose command line is the server of this cnf. */
    public static Optional<ProcessHandle> findServerFor(Path cnf) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> isServerFor(p.pid(), cnf)).findFirst();
    }

    /** A short description of a process for log messages. */
    public static String describe(long pid) {
        return commandLine(pid).map(args -> String.join(" ", args.subList(0, Math.min(3, args.size()))))
                .orElse("(gone)");
    }
}
