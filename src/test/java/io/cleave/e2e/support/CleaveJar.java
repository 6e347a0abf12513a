package io.cleave.e2e.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped {@code cleave.jar}, run in its own process as an operator runs it. */
public final class CleaveJar {

    public static final Path JAR = Path.of(System.getProperty("cleave.jar", "../manager/target/cleave.jar"));

    /** Exit code and everything the command printed (stdout and stderr together). */
    public record Result(int code, String out) {
    }

    private CleaveJar() {
    }

    /** {@code cleave ARGS --home=<home>}, waited for up to 5 minutes. */
    public static Result run(CleaveTestHome home, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        cmd.add("--home=" + home.root());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("cleave %s finished", String.join(" ", args)).isTrue();
        return new Result(p.exitValue(), out);
    }

    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
