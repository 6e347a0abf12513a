package io.cleave.bench.sysbench;

import io.cleave.bench.exec.ChildProcess;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs Debian's sysbench binary (1.0.x) and reads its output. */
public final class Sysbench {
    /** Time a run may take beyond its --time before it counts as hung: connecting, preparing, draining. */
    private static final Duration GRACE = Duration.ofMinutes(2);

    private final String binary;

    public Sysbench(String binary) {
        this.binary = binary;
    }

    public static Sysbench onPath() {
        return new Sysbench("sysbench");
    }

    /** The first line of {@code sysbench --version}; fails with the installation hint when it is missing. */
    public String version() {
        return execute(List.of(binary, "--version"), Duration.ofSeconds(30)).lines().findFirst().orElse("").trim();
    }

    /** Creates and fills the tables (sysbench's prepare step, through whatever the target is). */
    public void prepare(SysbenchTarget target, SysbenchOptions options, int loaderThreads) {
        List<String> command = new ArrayList<>(List.of(binary, options.workload()));
        command.addAll(target.arguments());
        command.addAll(options.arguments());
        command.add("--threads=" + Math.min(loaderThreads, options.tables()));
        command.add("prepare");
        execute(command, Duration.ofHours(2));
    }

    /** One timed run with a per-second report and the latency histogram. */
    public SysbenchOutput run(SysbenchTarget target, SysbenchOptions options, Duration time) {
        return SysbenchOutput.parse(execute(runCommand(target, options, time), time.plus(GRACE)));
    }

    List<String> runCommand(SysbenchTarget target, SysbenchOptions options, Duration time) {
        List<String> command = new ArrayList<>(List.of(binary, options.workload()));
        command.addAll(target.arguments());
        command.addAll(options.arguments());
        command.addAll(List.of("--threads=" + options.threads(), "--time=" + Math.max(1, time.toSeconds()),
            "--report-interval=1", "--histogram=on", "run"));
        return command;
    }

    private static String execute(List<String> command, Duration timeout) {
        ChildProcess.Result result;
        try {
            result = ChildProcess.run(command, timeout);
        } catch (UncheckedIOException e) {
            throw new IllegalStateException(e.getMessage() + "; on Debian: apt-get install sysbench", e);
        }
        if (result.exitCode() != 0) {
            throw new IllegalStateException("sysbench failed (exit " + result.exitCode() + "): " + redacted(command)
                + "\n" + result.lastLines(15));
        }
        return result.output();
    }

    static String redacted(List<String> command) {
        return String.join(" ", command).replaceAll("--mysql-password=\\S*", "--mysql-password=***");
    }
}
