package io.cleave.bench.exec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end with a deadline and returns what it printed (stdout and stderr together). */
public final class ChildProcess {

    private ChildProcess() {
    }

    public record Result(int exitCode, String output) {
        public String lastLines(int n) {
            List<String> lines = output.strip().lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        }
    }

    /** Fails when the command cannot start or outlives the timeout (it is then killed). */
    public static Result run(List<String> command, Duration timeout) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " did not finish within " + timeout);
            }
            return new Result(process.exitValue(), output.join());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + command.get(0) + " ran", e);
        }
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e.getMessage() + ")";
        }
    }
}
