package io.cleave.bench.home;

import io.cleave.bench.exec.ChildProcess;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.sysbench.SysbenchTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Cleave home run by the real binary, as a user runs it: {@code cleave.jar up --detach} on a
 * generated config with free loopback ports, {@code cleave.jar down} to stop. The daemon and the
 * shards are separate processes, so their CPU time is read from /proc apart from the benchmark's.
 */
public final class BenchHome implements AutoCloseable {
    public static final String SHARD_USER = "cleave";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

    private final Path cleaveJar;
    private final Path dir;
    private final HomeSpec spec;
    private final int basePort;
    private final int proxyPort;
    private final int adminPort;
    private HomeStatus status;
    private HaproxyRelay relay;

    private BenchHome(Path cleaveJar, Path dir, HomeSpec spec, int ports) throws IOException {
        this.cleaveJar = cleaveJar;
        this.dir = dir;
        this.spec = spec;
        this.basePort = FreePorts.range(Math.max(ports, spec.shards()));
        this.proxyPort = FreePorts.one();
        this.adminPort = FreePorts.one();
        Files.writeString(config(), ConfigYaml.render(spec, basePort, proxyPort, adminPort));
    }

    /** Writes the config into a new directory under /tmp (short: the shards' Unix sockets live in it). */
    public static BenchHome create(Path cleaveJar, HomeSpec spec) {
        return create(cleaveJar, spec, spec.shards());
    }

    /** With {@code ports} consecutive shard ports kept free (a home a benchmark scales up to that many shards). */
    public static BenchHome create(Path cleaveJar, HomeSpec spec, int ports) {
        if (!Files.isRegularFile(cleaveJar)) {
            throw new IllegalArgumentException(cleaveJar + " is missing: build it with mvn -q -DskipTests package");
        }
        try {
            // Open for search: a root daemon's shards run as an unprivileged user, who must reach the home inside.
            Path dir = Files.createTempDirectory(Path.of("/tmp"), "cb" + spec.shards() + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
            return new BenchHome(cleaveJar, dir, spec, ports);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public HomeSpec spec() {
        return spec;
    }

    public Path config() {
        return dir.resolve("cleave.yaml");
    }

    public Path home() {
        return dir.resolve("home");
    }

    public boolean isUp() {
        return status != null;
    }

    /** Starts the daemon and its shards and waits until the proxy answers a query. */
    public void up() {
        if (status != null) {
            return;
        }
        HomeStatus now = start();
        if (now.shardPids().size() != spec.shards()) {
            down();
            throw new IllegalStateException("not every shard of " + home() + " runs: " + now.instances());
        }
        status = now;
    }

    /**
     * Starts the daemon again after it died (e.g. killed with SIGKILL): the shards it left running
     * are adopted, however many a scale left. Waits until the proxy answers a query.
     */
    public void restartDaemon() {
        status = null;
        status = start();
    }

    private HomeStatus start() {
        cleave(Duration.ofMinutes(11), "up", "--config=" + config(), "--home=" + home(), "--detach", "--wait=600");
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = proxy("").getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT 1");
                last = null;
                break;
            } catch (SQLException e) {
                last = e;
                sleep(200);
            }
        }
        if (last != null) {
            down();
            throw new IllegalStateException("the proxy of " + home() + " did not answer within " + READY_TIMEOUT
                + ": " + last.getMessage(), last);
        }
        HomeStatus now = HomeStatus.parse(cleave(Duration.ofMinutes(1), "status", "--home=" + home(), "--json"));
        if (!now.allRunning()) {
            down();
            throw new IllegalStateException("not every shard of " + home() + " runs: " + now.instances());
        }
        return now;
    }

    /** Stops the daemon and every shard cleanly (the datadirs stay for the next up). */
    public void down() {
        stopRelay();
        status = null;
        if (Files.isDirectory(home())) {
            cleave(Duration.ofMinutes(5), "down", "--home=" + home());
        }
    }

    public HomeStatus status() {
        requireUp();
        return status;
    }

    public long daemonPid() {
        return status().daemonPid();
    }

    public List<Long> shardPids() {
        return status().shardPids();
    }

    /** The shards running now, read afresh (a scale starts and stops some). */
    public List<Long> currentShardPids() {
        return currentStatus().shardPids();
    }

    /** {@code cleave status --json} read afresh: the daemon's pid and every shard's state and pid now. */
    public HomeStatus currentStatus() {
        requireUp();
        return HomeStatus.parse(cleave(Duration.ofMinutes(1), "status", "--home=" + home(), "--json"));
    }

    /**
     * Runs a {@code cleave} subcommand on this home ({@code --home} is added) and returns its exit
     * code and output whatever they are: a caller that expects refusals reads the exit code.
     */
    public ChildProcess.Result cleaveCommand(Duration timeout, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--home=" + home());
        return ChildProcess.run(command(all), timeout);
    }

    /** A file of the daemon's state directory (shard-map.json, scale.json, ...). */
    public Path stateFile(String name) {
        return home().resolve("state").resolve(name);
    }

    public int proxyPort() {
        return proxyPort;
    }

    public int shardPort(int shard) {
        return basePort + shard;
    }

    /** The proxy as root with the empty password (loopback only), on the given database. */
    public JdbcTarget proxy(String database) {
        return proxy(database, "root", "");
    }

    /** The proxy as {@code user}, on the given database. */
    public JdbcTarget proxy(String database, String user, String password) {
        return new JdbcTarget("jdbc:mysql://127.0.0.1:" + proxyPort + "/" + database + "?sslMode=DISABLED", user, password);
    }

    /** One shard directly, as the shard account the daemon provisions. */
    public JdbcTarget shard(int shard, String database) {
        return new JdbcTarget("jdbc:mysql://127.0.0.1:" + shardPort(shard) + "/" + database
            + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", SHARD_USER, shardSecret());
    }

    public List<JdbcTarget> shards(String database) {
        List<JdbcTarget> all = new ArrayList<>();
        for (int s = 0; s < spec.shards(); s++) {
            all.add(shard(s, database));
        }
        return all;
    }

    public SysbenchTarget sysbenchProxy(String database) {
        return sysbenchProxy(database, "root", "");
    }

    public SysbenchTarget sysbenchProxy(String database, String user, String password) {
        return new SysbenchTarget("127.0.0.1", proxyPort, user, password, database);
    }

    public SysbenchTarget sysbenchShard(int shard, String database) {
        return new SysbenchTarget("127.0.0.1", shardPort(shard), SHARD_USER, shardSecret(), database);
    }

    /** Shard 0's Unix socket, as its server listens on it. */
    public Path shardSocket() {
        return Path.of(status().instances().get(0).socket());
    }

    /** The proxy's Unix socket: next to the shards' (the daemon's run directory). */
    public Path proxySocket() {
        return shardSocket().resolveSibling("proxy.sock");
    }

    /** Starts HAProxy relaying to shard 0's socket; stopped with {@link #stopRelay} (or {@link #close}). */
    public HaproxyRelay startRelay(Path haproxy) {
        stopRelay();
        relay = HaproxyRelay.start(haproxy, shardSocket(), dir.resolve("relay"));
        return relay;
    }

    public void stopRelay() {
        if (relay != null) {
            relay.close();
            relay = null;
        }
    }

    /** The relay that runs, or null. */
    public HaproxyRelay relay() {
        return relay;
    }

    /** Client statements the proxy served so far (COM_QUERY + COM_STMT_EXECUTE). */
    public long proxyStatements() {
        return ProxyCounters.statements(adminPort);
    }

    /**
     * A call to the daemon's admin API with its bearer token (state/admin-token); returns the body.
     *
     * @throws IllegalStateException with the daemon's answer when it is not 2xx
     */
    public String admin(String method, String path, String jsonBody) {
        try {
            String token = Files.readString(home().resolve("state/admin-token"), StandardCharsets.UTF_8).trim();
            java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + adminPort + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(method, jsonBody == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                    : java.net.http.HttpRequest.BodyPublishers.ofString(jsonBody)).build();
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(request,
                java.net.http.HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach the daemon's admin API: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The daemon's Prometheus metrics as text (GET /metrics on the admin port). */
    public String metrics() {
        return ProxyCounters.fetch(adminPort);
    }

    /** The servers' own count of client statements (Questions), summed over the shards. */
    public long shardStatements() {
        return shardStatus("Questions");
    }

    /** A global status counter (e.g. Questions, Com_xa_start) summed over the shards, read on each directly. */
    public long shardStatus(String variable) {
        if (!variable.matches("[A-Za-z_]+")) {
            throw new IllegalArgumentException("not a status variable name: " + variable);
        }
        long sum = 0;
        for (JdbcTarget shard : shards("")) {
            try (Connection c = shard.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
                if (!rs.next()) {
                    throw new IllegalStateException(shard + " has no status variable " + variable);
                }
                sum += rs.getLong(2);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read " + variable + " from " + shard + ": " + e.getMessage(), e);
            }
        }
        return sum;
    }

    public String shardSecret() {
        try {
            return Files.readString(home().resolve("state/shard-secret"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("no shard secret yet in " + home() + ": " + e.getMessage(), e);
        }
    }

    /** Stops whatever runs and deletes the directory; a failure to stop is reported, not thrown over another. */
    @Override
    public void close() {
        try {
            down();
        } catch (RuntimeException e) {
            System.err.println("warning: could not stop " + this + ": " + e.getMessage());
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // Best effort: a leftover directory under /tmp is harmless.
            }
        }
    }

    private void requireUp() {
        if (status == null) {
            throw new IllegalStateException(home() + " is not up");
        }
    }

    private List<String> command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-jar");
        command.add(cleaveJar.toString());
        command.addAll(args);
        return command;
    }

    private String cleave(Duration timeout, String... args) {
        ChildProcess.Result result = ChildProcess.run(command(List.of(args)), timeout);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("cleave " + String.join(" ", args) + " failed (exit " + result.exitCode()
                + "):\n" + result.lastLines(30));
        }
        return result.output();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return spec.shards() + "-shard home " + home();
    }
}
