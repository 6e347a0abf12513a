package io.cleave.bench.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy as a pure L4 relay in front of one shard's Unix socket: it parses nothing, so it is the
 * floor any relaying hop costs (a copy each way, a wake-up per read). It listens on a loopback TCP
 * port and on a Unix socket of its own, runs in the foreground with one thread (the proxy runs one
 * event loop in these benchmarks), and is stopped by {@link #close}; its CPU is read from /proc by
 * its pid as the proxy's is.
 */
public final class HaproxyRelay implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final int port;
    private final Path socket;

    private HaproxyRelay(Process process, int port, Path socket) {
        this.process = process;
        this.port = port;
        this.socket = socket;
    }

    /** Starts {@code haproxy} relaying to {@code shardSocket}; its files go into {@code dir}. */
    public static HaproxyRelay start(Path haproxy, Path shardSocket, Path dir) {
        try {
            Files.createDirectories(dir);
            int port = FreePorts.one();
            Path socket = dir.resolve("relay.sock");
            Files.deleteIfExists(socket);
            Path config = dir.resolve("haproxy.cfg");
            Files.writeString(config, config(port, socket, shardSocket));
            Process process = new ProcessBuilder(haproxy.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
            HaproxyRelay relay = new HaproxyRelay(process, port, socket);
            relay.awaitReady(dir);
            return relay;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + haproxy + ": " + e.getMessage(), e);
        }
    }

    static String config(int port, Path socket, Path shardSocket) {
        return String.join("\n",
            "global",
            "    nbthread 1",
            "    maxconn 4096",
            "defaults",
            "    mode tcp",
            "    timeout connect 5s",
            "    timeout client 1h",
            "    timeout server 1h",
            "frontend clients",
            "    bind 127.0.0.1:" + port,
            "    bind unix@" + socket + " mode 666",
            "    default_backend shard",
            "backend shard",
            "    server shard0 unix@" + shardSocket,
            "");
    }

    private void awaitReady(Path dir) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("haproxy exited with " + process.exitValue() + ": "
                    + Files.readString(dir.resolve("haproxy.log")).strip());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                if (Files.exists(socket)) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while haproxy started", e);
            }
        }
        close();
        throw new IllegalStateException("haproxy did not listen on 127.0.0.1:" + port + " within " + READY_TIMEOUT);
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public Path socket() {
        return socket;
    }

    /** Stops it and waits for its exit, so its CPU time is settled before the next run is metered. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
