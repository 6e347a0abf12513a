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

    /**
     * Starts {@code cleave up} for the home in its own process with {@code jvmOptions} (e.g. a test
     * hook's system property), its output going to {@code log}.
     */
    public static Process up(CleaveTestHome home, java.nio.file.Path log, String... jvmOptions) throws IOException {
        return start(upCommand(home.root(), home.configFile(), jvmOptions), log);
    }

    /** The command line of {@code cleave up} for the home at {@code root} (to run as is, or inside another host). */
    public static List<String> upCommand(Path root, Path config, String... jvmOptions) {
        List<String> cmd = new ArrayList<>(List.of(javaBin()));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-jar", JAR.toString(), "up", "--home=" + root, "--config=" + config));
        return cmd;
    }

    /** The command line of {@code cleave ARGS}. */
    public static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts {@code command}, its output (stdout and stderr) going to {@code log}. */
    public static Process start(List<String> command, java.nio.file.Path log) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Waits up to 90 s for a daemon {@link #up started} with a halting test hook to die like kill -9, saying {@code logged}. */
    public static void awaitHalt(Process up, java.nio.file.Path log, String logged) throws IOException, InterruptedException {
        assertThat(up.waitFor(90, TimeUnit.SECONDS)).as("the daemon halted:\n%s", java.nio.file.Files.readString(log)).isTrue();
        assertThat(up.exitValue()).as(java.nio.file.Files.readString(log)).isEqualTo(137);
        assertThat(java.nio.file.Files.readString(log)).contains(logged);
    }

    /** The admin API of a daemon started by {@link #up} once it reports ready; fails if the daemon exits first. */
    public static io.cleave.manager.admin.AdminClient awaitAdmin(CleaveTestHome home, Process up, java.nio.file.Path log)
            throws Exception {
        return awaitAdmin(() -> io.cleave.manager.admin.AdminClient.connect(home.home()), up, log);
    }

    /** The admin API {@code client} finds, once it reports ready; fails if the daemon {@code up} exits first. */
    public static io.cleave.manager.admin.AdminClient awaitAdmin(
            java.util.function.Supplier<java.util.Optional<io.cleave.manager.admin.AdminClient>> clients, Process up,
            java.nio.file.Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertThat(up.isAlive()).as("daemon running:\n%s", java.nio.file.Files.readString(log)).isTrue();
            var client = clients.get();
            if (client.isPresent()) {
                try {
                    if (client.get().status().ready()) {
                        return client.get();
                    }
                } catch (IOException e) {
                    // not answering yet
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the daemon was not ready within 90 s:\n" + java.nio.file.Files.readString(log));
    }

    /** Logs in to the proxy of a daemon started by {@link #up} once it listens; fails if the daemon exits first. */
    public static java.sql.Connection awaitProxy(CleaveTestHome home, Process up, java.nio.file.Path log, String database)
            throws Exception {
        return awaitProxy("127.0.0.1:" + home.proxyPort(), "", up, log, database);
    }

    /** Logs in as root with {@code password} to the proxy at {@code proxy} (host:port) once it listens. */
    public static java.sql.Connection awaitProxy(String proxy, String password, Process up, java.nio.file.Path log,
                                                 String database) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        java.sql.SQLException last = null;
        while (System.nanoTime() < deadline) {
            assertThat(up.isAlive()).as("daemon running:\n%s", java.nio.file.Files.readString(log)).isTrue();
            try {
                return java.sql.DriverManager.getConnection("jdbc:mysql://" + proxy + "/" + database
                        + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=2000", "root", password);
            } catch (java.sql.SQLException e) {
                last = e;
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the proxy did not accept a login within 90 s:\n" + java.nio.file.Files.readString(log),
                last);
    }

    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
