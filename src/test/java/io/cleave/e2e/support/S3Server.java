package io.cleave.e2e.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A local S3-compatible server for tests: moto's server (PyPI {@code moto[server]}, which
 * scripts/test installs), started on a free loopback port and stopped by {@link #close()}. Tests
 * that need it skip, saying why, where it cannot be started.
 */
public final class S3Server implements AutoCloseable {

    public static final String ACCESS_KEY = "cleave-test";
    public static final String SECRET_KEY = "cleave-test-secret";

    private final Process process;
    private final int port;

    private S3Server(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts moto's server; null (with the reason on stderr) when it cannot run here. */
    public static S3Server startOrNull(Path log) {
        int port = CleaveTestHome.freePort();
        try {
            Process p = new ProcessBuilder("python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String.valueOf(port))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                if (!p.isAlive()) {
                    System.err.println("moto's S3 server did not start: " + Files.readString(log));
                    return null;
                }
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                    return new S3Server(p, port);
                } catch (IOException e) {
                    Thread.sleep(200);
                }
            }
            p.destroyForcibly();
            System.err.println("moto's S3 server did not listen within a minute");
            return null;
        } catch (IOException e) {
            System.err.println("cannot run python3 -m moto.server: " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Makes a bucket (moto keeps everything in memory: a new server has none). */
    public void createBucket(String bucket) throws IOException, InterruptedException {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(endpoint() + "/" + bucket))
                .PUT(java.net.http.HttpRequest.BodyPublishers.noBody()).build();
        var response = java.net.http.HttpClient.newHttpClient().send(request,
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("moto refused bucket " + bucket + ": " + response.statusCode() + " " + response.body());
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
