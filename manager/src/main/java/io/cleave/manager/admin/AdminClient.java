package io.cleave.manager.admin;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;

/** How the CLI talks to the daemon of a home: state/daemon.json for the port, state/admin-token for the token. */
public final class AdminClient {

    private final CleaveHome home;
    private final DaemonInfo info;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private AdminClient(CleaveHome home, DaemonInfo info, String token) {
        this.home = home;
        this.info = info;
        this.token = token;
    }

    /** A client for the daemon running for {@code home}, or empty when none runs. */
    public static Optional<AdminClient> connect(CleaveHome home) {
        Optional<DaemonInfo> info = DaemonInfo.read(home);
        if (info.isEmpty() || !info.get().processAlive() || !Files.isReadable(home.adminTokenFile())) {
            return Optional.empty();
        }
        try {
            return Optional.of(new AdminClient(home, info.get(), Files.readString(home.adminTokenFile()).trim()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public DaemonInfo info() {
        return info;
    }

    public StatusReport status() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/status"), StatusReport.class);
    }

    public void shutdown() throws IOException {
        send("POST", "/v1/shutdown");
    }

    /** The daemon's plan for a statement and the shards it reaches. */
    public ExplainReport explain(String sql) throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/explain", HttpRequest.BodyPublishers.ofString(sql,
                StandardCharsets.UTF_8)), ExplainReport.class);
    }

    private String send(String method, String path) throws IOException {
        return send(method, path, HttpRequest.BodyPublishers.noBody());
    }

    private String send(String method, String path, HttpRequest.BodyPublisher body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + info.adminPort() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .method(method, body).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IOException("daemon answered " + path + " with HTTP " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (ConnectException e) {
            throw new IOException("the daemon of " + home + " (pid " + info.pid() + ") does not answer on admin port "
                    + info.adminPort(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
