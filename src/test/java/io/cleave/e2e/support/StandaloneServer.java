package io.cleave.e2e.support;

import io.cleave.manager.config.ServerChoice;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.instance.BinaryResolver;
import io.cleave.manager.instance.DatadirInitializer;
import io.cleave.manager.instance.EmbeddedServer;
import io.cleave.manager.instance.ServerBinary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A plain mariadbd that Cleave does not run, as an import's source or to try what a server does
 * itself: the embedded MariaDB (or the test run's server) started from a copy of the cached datadir
 * template in a directory of its own, on a free loopback port, with a row binlog (or the options a
 * test gives instead). {@link #close()} kills it and deletes
 * the directory.
 */
public final class StandaloneServer implements AutoCloseable {

    private final Path dir;
    private final Path client;
    private final int port;
    private final Process process;

    private StandaloneServer(Path dir, Path client, int port, Process process) {
        this.dir = dir;
        this.client = client;
        this.port = port;
        this.process = process;
    }

    /** Starts the embedded server with a row binlog ({@code binlogOptions} replace the default ones when given). */
    public static StandaloneServer start(List<String> binlogOptions) throws IOException, InterruptedException {
        Path cache = CleaveHome.cacheDir(System.getenv());
        return start(EmbeddedServer.standard(cache).ensureExtracted(), binlogOptions);
    }

    /** Starts the server the test run names ({@link TestServer}), with a row binlog. */
    public static StandaloneServer startTestServer() throws IOException, InterruptedException {
        Path cache = CleaveHome.cacheDir(System.getenv());
        String name = TestServer.binary();
        ServerChoice choice = name.equals("embedded") ? new ServerChoice.Embedded() : new ServerChoice.Configured(Path.of(name));
        return start(new BinaryResolver(System.getenv("PATH"), () -> EmbeddedServer.standard(cache)).resolve(choice),
                List.of());
    }

    private static StandaloneServer start(ServerBinary binary, List<String> binlogOptions)
            throws IOException, InterruptedException {
        Path cache = CleaveHome.cacheDir(System.getenv());
        Path template = new DatadirInitializer(cache, "root".equals(System.getProperty("user.name"))).ensureTemplate(binary);
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "cleave-src-");
        Path data = dir.resolve("data");
        // Sparse, as a shard's: most of a fresh datadir is preallocated zeros not worth writing.
        DatadirInitializer.copyTree(template, data);
        Files.deleteIfExists(data.resolve(DatadirInitializer.MARKER));
        int port = CleaveTestHome.freePort();
        List<String> cmd = new ArrayList<>(List.of(binary.mysqld().toString(), "--no-defaults",
                "--basedir=" + binary.basedir(), "--datadir=" + data, "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("s.sock"), "--pid-file=" + dir.resolve("s.pid"), "--innodb-buffer-pool-size=64M",
                "--log-error=" + dir.resolve("error.log"), "--character-set-server=utf8mb4",
                // Its own temporary files in its own directory: on a shared host files in /tmp come and go.
                "--tmpdir=" + dir,
                // Without it MariaDB 11.4 makes a TLS certificate at every start: 1 s becomes 14 s on a
                // busy 2-core host, 60 s under load. The tests reach it over the socket and loopback.
                "--skip-ssl"));
        cmd.addAll(binlogOptions.isEmpty()
                ? List.of("--log-bin=" + data.resolve("source-bin"), "--binlog-format=ROW", "--server-id=4242")
                : binlogOptions);
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("console.log").toFile())
                .start();
        StandaloneServer server = new StandaloneServer(dir, binary.basedir().resolve("bin/mariadb"), port, p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                server.root("SELECT 1");
                return server;
            } catch (IOException e) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException("the standalone server did not start: " + e.getMessage());
                }
                Thread.sleep(100);
            }
        }
    }

    public int port() {
        return port;
    }

    /** Runs SQL as root over the socket with the mariadb client; returns its output (tab-separated, no headers). */
    public String root(String sql) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(client.toString(), "--no-defaults", "--skip-ssl", "--batch", "--skip-column-names",
                "--socket=" + dir.resolve("s.sock"), "--user=root", "-e", sql).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("mariadb client failed: " + out);
        }
        return out;
    }

    /** A JDBC connection as {@code user}, in {@code database}. */
    public Connection connect(String user, String password, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", user, password);
    }

    /** The end of the binlog, "file:position": it stays put while nothing writes to the server. */
    public String binlogEnd() throws IOException, InterruptedException {
        String[] status = root("SHOW MASTER STATUS").split("\t");
        return status[0] + ":" + status[1];
    }

    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
