package io.cleave.e2e.support;

import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.instance.EmbeddedServer;
import io.cleave.manager.supervisor.InstanceStatus;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * An in-process {@link Daemon} of a {@link CleaveTestHome}, started and ready. Exposes what tests
 * need to reach the shards (endpoints, JDBC connections with the shard account, the embedded
 * client over a socket) and the admin API.
 */
public final class RunningDaemon implements AutoCloseable {

    private final CleaveTestHome home;
    private final Daemon daemon;
    private final HttpClient http = HttpClient.newHttpClient();

    private RunningDaemon(CleaveTestHome home, Daemon daemon) {
        this.home = home;
        this.daemon = daemon;
    }

    static RunningDaemon start(CleaveTestHome home) {
        Daemon daemon = new Daemon(home.daemonOptions());
        daemon.start();
        return new RunningDaemon(home, daemon);
    }

    public Daemon daemon() {
        return daemon;
    }

    /** One endpoint per shard: socket, port, account, secret. */
    public List<ShardEndpoint> shards() {
        return daemon.shardEndpoints();
    }

    public String shardSecret() {
        return shards().get(0).secret();
    }

    public int adminPort() {
        return daemon.adminPort();
    }

    public String adminToken() {
        return daemon.adminToken();
    }

    public InstanceStatus status(int shard) {
        return daemon.status().get(shard);
    }

    /** A JDBC connection to one shard over loopback TCP, as the shard account. */
    public Connection connect(int shard) throws SQLException {
        ShardEndpoint e = shards().get(shard);
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port() + "/?sslMode=PREFERRED&allowPublicKeyRetrieval=true",
                e.user(), e.secret());
    }

    /** The proxy's TCP port. */
    public int proxyPort() {
        return home.proxyPort();
    }

    /** A Connector/J connection to the proxy as root (empty password), with {@code extra} URL properties. */
    public Connection connectProxy(String database, String extra) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + proxyPort() + "/" + database
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true" + (extra.isEmpty() ? "" : "&" + extra), "root", "");
    }

    /** Runs SQL through the embedded {@code mariadb} client over the shard's Unix socket; returns its output. */
    public String querySocket(int shard, String sql) throws IOException, InterruptedException {
        ShardEndpoint e = shards().get(shard);
        return mariadbOnSocket(e.socket(), e.user(), e.secret(), sql);
    }

    /** Runs SQL as root through the embedded {@code mariadb} client over the proxy's Unix socket (the default one). */
    public String queryProxySocket(String sql) throws IOException, InterruptedException {
        return mariadbOnSocket(home.home().run().resolve("proxy.sock"), "root", "", sql);
    }

    /** Runs SQL through the embedded {@code mariadb} client over a server's Unix socket; returns its output. */
    public static String mariadbOnSocket(Path socket, String user, String password, String sql)
            throws IOException, InterruptedException {
        Path client = EmbeddedServer.standard(io.cleave.manager.home.CleaveHome.cacheDir(System.getenv()))
                .installDir().resolve("bin/mariadb");
        Process p = new ProcessBuilder(client.toString(), "--no-defaults", "--skip-ssl", "--batch", "--skip-column-names",
                "--socket=" + socket, "--user=" + user, "--password=" + password, "-e", sql)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("mariadb client failed: " + out);
        }
        return out;
    }

    /** Waits until {@code condition} holds for one shard's status. */
    public InstanceStatus awaitStatus(int shard, Predicate<InstanceStatus> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        InstanceStatus last = status(shard);
        while (System.nanoTime() < deadline) {
            last = status(shard);
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("shard " + shard + " did not reach the expected status within " + timeout + "; last: " + last);
    }

    /** GET or POST on the admin API; {@code withToken=false} sends no Authorization header. */
    public HttpResponse<String> admin(String method, String path, boolean withToken) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (withToken) {
            b.header("Authorization", "Bearer " + adminToken());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value of one series on /metrics, e.g. {@code cleave_proxy_deadlocks_total}; 0 when absent. */
    public double metric(String series) throws IOException, InterruptedException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + java.util.regex.Pattern.quote(series)
                + " ([0-9.eE+-]+|NaN)$").matcher(admin("GET", "/metrics", false).body());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** Fails when a shard was restarted since the daemon started (it crashed), quoting the end of its error log. */
    public void assertNoShardRestarted() throws IOException {
        for (InstanceStatus s : daemon.status()) {
            if (s.restarts() > 0) {
                Path log = home.home().logs().resolve("shard-" + s.index() + ".err");
                List<String> lines = java.nio.file.Files.exists(log) ? java.nio.file.Files.readAllLines(log) : List.of();
                throw new AssertionError("shard " + s.index() + " was restarted " + s.restarts() + " time(s); the end of"
                        + " its error log:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
            }
        }
    }

    public List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        daemon.status().forEach(s -> pids.add(s.pid()));
        return pids;
    }

    public CleaveTestHome home() {
        return home;
    }

    /** Stops the daemon as a crash would: instances stay up for the next daemon to adopt. */
    public void closeLeavingInstancesRunning() {
        daemon.closeLeavingInstancesRunning();
    }

    @Override
    public void close() {
        daemon.close();
    }
}
