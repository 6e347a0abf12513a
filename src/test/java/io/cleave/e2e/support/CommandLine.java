package io.cleave.e2e.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs system programs the end-to-end tests drive (Debian's {@code mariadb} client, {@code sysbench}).
 * scripts/test installs them when missing; a test run without them fails with that advice rather
 * than skipping, so a missing client never passes for a working one.
 */
public final class CommandLine {

    /** Exit code and everything the program printed (stdout then stderr). */
    public record Result(int exitCode, String stdout, String stderr) {
        public String output() {
            return stdout + stderr;
        }
    }

    private CommandLine() {
    }

    /** The absolute path of {@code program} on PATH, or an assertion error saying how to get it. */
    public static String require(String program, String debianPackage) {
        String path = onPath(program);
        if (path != null) {
            return path;
        }
        throw new AssertionError(program + " is not installed: scripts/test installs it (apt-get install "
                + debianPackage + ")");
    }

    /** The absolute path of {@code program} on PATH, or null. */
    public static String onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    public static Result run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    /** Debian's mariadb client against the proxy over TCP, with {@code extra} options and {@code sql} as -e. */
    public static Result mariadb(int port, String user, String password, List<String> extra, String sql)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(require("mariadb", "mariadb-client"), "--no-defaults",
                "--protocol=TCP", "-h127.0.0.1", "-P" + port, "-u" + user, "--batch"));
        if (!password.isEmpty()) {
            cmd.add("-p" + password);
        }
        cmd.addAll(extra);
        cmd.add("-e");
        cmd.add(sql);
        return run(cmd, 60);
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
