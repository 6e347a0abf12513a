package io.cleave.manager.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How the CLI talks to the daemon of a home: state/daemon.json for the port, state/admin-token for the
 * token; or, for a standby, to another host's daemon by its admin URL and token.
 */
public final class AdminClient {

    private final String base;
    /** Who answers, for messages: the daemon of a home, or an admin URL. */
    private final String daemon;
    private final DaemonInfo info;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private AdminClient(String base, String daemon, DaemonInfo info, String token) {
        this.base = base;
        this.daemon = daemon;
        this.info = info;
        this.token = token;
    }

    private AdminClient(CleaveHome home, DaemonInfo info, String token) {
        this(info.localAdminUrl(), "the daemon of " + home + " (pid " + info.pid() + ") on admin port "
                + info.adminPort(), info, token);
    }

    /** A client for the daemon answering at {@code url} (e.g. {@code http://127.0.0.1:6034}) with its token. */
    public static AdminClient remote(String url, String token) {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        URI.create(base);
        return new AdminClient(base, "the daemon at " + base, null, token);
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

    /** The in-doubt XA branches on the shards. */
    public List<XaRecovery.InDoubtBranch> inDoubt() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/xa"), new TypeReference<>() {
        });
    }

    /**
     * Commits or rolls back one in-doubt transaction; a refusal, an unknown xid or a stopped proxy
     * comes back as a {@link DaemonAnswer} carrying the daemon's message.
     */
    public InDoubtResolution resolve(String xid, boolean commit, boolean force) throws IOException {
        String body = AdminServer.JSON.writeValueAsString(new ResolveRequest(xid, force));
        return AdminServer.JSON.readValue(send("POST", commit ? "/v1/xa/commit" : "/v1/xa/rollback",
                HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)), InDoubtResolution.class);
    }

    /** Makes the shards' schemas alike again. */
    public io.cleave.manager.schema.SchemaRepair.Report repair() throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/repair"), io.cleave.manager.schema.SchemaRepair.Report.class);
    }

    /** Runs a recovery pass now. */
    public RecoveryReport recover() throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/xa/recover"), RecoveryReport.class);
    }

    public io.cleave.manager.move.ShardsReport shards(boolean exact) throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/shards" + (exact ? "?exact=true" : "")),
                io.cleave.manager.move.ShardsReport.class);
    }

    public List<io.cleave.manager.move.MoveRecord> moves() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/moves"), new TypeReference<>() {
        });
    }

    public io.cleave.manager.move.MoveRecord move(long id) throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/moves/" + id), io.cleave.manager.move.MoveRecord.class);
    }

    public io.cleave.manager.move.MoveRecord startMove(String keyspace, String keys, int target) throws IOException {
        String body = AdminServer.JSON.writeValueAsString(java.util.Map.of("keyspace", keyspace, "keys", keys, "to", target));
        return AdminServer.JSON.readValue(send("POST", "/v1/moves", HttpRequest.BodyPublishers.ofString(body,
                StandardCharsets.UTF_8)), io.cleave.manager.move.MoveRecord.class);
    }

    /**
     * {@code cleave shard-table}: {@code rule} is {@code {"keyspace": K, "column": C}},
     * {@code {"reference": true}} or {@code {"unsharded": SHARD}}.
     */
    public io.cleave.manager.move.MoveRecord shardTable(String table, java.util.Map<String, Object> rule) throws IOException {
        java.util.Map<String, Object> body = new java.util.LinkedHashMap<>(rule);
        body.put("table", table);
        return post("/v1/shard-table", body, Duration.ofSeconds(60), io.cleave.manager.move.MoveRecord.class);
    }

    /** Starts importing the database at {@code from} (mysql://USER:PASSWORD@HOST:PORT/DATABASE). */
    public io.cleave.manager.imports.ImportStatus startImport(String from) throws IOException {
        // Checking the source and attaching it reads every table's keys there: give it time.
        return post("/v1/import", java.util.Map.of("from", from), Duration.ofMinutes(2),
                io.cleave.manager.imports.ImportStatus.class);
    }

    public io.cleave.manager.imports.ImportStatus importStatus() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/import"), io.cleave.manager.imports.ImportStatus.class);
    }

    /** Starts changing the shard count to {@code shards}. */
    public io.cleave.manager.scale.ScaleStatus startScale(int shards) throws IOException {
        return post("/v1/scale", java.util.Map.of("shards", shards), Duration.ofMinutes(2),
                io.cleave.manager.scale.ScaleStatus.class);
    }

    /** Starts a backup to {@code to} (null: the configured location) with the configured engine. */
    public io.cleave.manager.backup.BackupStatus startBackup(String to) throws IOException {
        return startBackup(to, null);
    }

    /** Starts a backup to {@code to} (null: the configured location) with {@code engine} (null: the configured one). */
    public io.cleave.manager.backup.BackupStatus startBackup(String to, io.cleave.manager.config.BackupEngine engine)
            throws IOException {
        return startBackup(to, engine, null);
    }

    /** Starts a backup as {@link #startBackup(String, io.cleave.manager.config.BackupEngine)} does, writing at most {@code maxRateMbS} MB/s (null: backup.max_rate_mb_s; 0: no bound). */
    public io.cleave.manager.backup.BackupStatus startBackup(String to, io.cleave.manager.config.BackupEngine engine,
                                                             Integer maxRateMbS) throws IOException {
        java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
        if (maxRateMbS != null) {
            body.put("maxRateMbS", maxRateMbS);
        }
        if (to != null) {
            body.put("to", to);
        }
        if (engine != null) {
            body.put("engine", engine.label());
        }
        return post("/v1/backups", body, Duration.ofSeconds(30), io.cleave.manager.backup.BackupStatus.class);
    }

    public io.cleave.manager.backup.BackupStatus backup(String id) throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/backups/" + id), io.cleave.manager.backup.BackupStatus.class);
    }

    /** The backups of {@code location} (null: the configured one). */
    public io.cleave.manager.backup.BackupsReport backups(String location) throws IOException {
        String query = location == null ? "" : "?from=" + java.net.URLEncoder.encode(location, StandardCharsets.UTF_8);
        return AdminServer.JSON.readValue(send("GET", "/v1/backups" + query, HttpRequest.BodyPublishers.noBody(),
                Duration.ofMinutes(1)), io.cleave.manager.backup.BackupsReport.class);
    }

    /** Attaches the caller as this daemon's standby. */
    public io.cleave.manager.standby.Attachment attachStandby() throws IOException {
        return post("/v1/standby/attach", java.util.Map.of(), Duration.ofSeconds(30), io.cleave.manager.standby.Attachment.class);
    }

    /** Every shard this daemon (a primary) runs, prepared for replication: what its standby asks for every few seconds. */
    public io.cleave.manager.standby.Attachment standbyShards() throws IOException {
        return post("/v1/standby/shards", java.util.Map.of(), Duration.ofSeconds(10), io.cleave.manager.standby.Attachment.class);
    }

    /**
     * As {@link #standbyShards()}, telling the primary which shards the asking standby has replicas of, how the
     * primary reaches the standby's own admin API ({@code self}: its URL and token), which an old primary needs to
     * rejoin it by itself after a failover and a switchover needs to be told otherwise, and the address the standby's
     * relay connects to the primary's proxy from ({@code relayFrom}), which that proxy trusts with PROXY headers.
     */
    public io.cleave.manager.standby.Attachment standbyShards(List<Integer> replicas,
                                                              io.cleave.manager.standby.PairPeer self, String relayFrom)
            throws IOException {
        return post("/v1/standby/shards", java.util.Map.of("replicas", replicas, "standby",
                        java.util.Map.of("url", self.url(), "token", self.token()), "relayFrom", relayFrom),
                Duration.ofSeconds(10), io.cleave.manager.standby.Attachment.class);
    }

    /** Turns semi-sync on or off on every shard of this daemon (a primary). */
    public io.cleave.manager.standby.StandbyReport semiSync(boolean on) throws IOException {
        return post("/v1/standby/semi-sync", java.util.Map.of("enabled", on), Duration.ofSeconds(30),
                io.cleave.manager.standby.StandbyReport.class);
    }

    /** The XA transactions prepared and not committed at {@code cut} on each shard of this daemon (a primary). */
    public List<io.cleave.manager.standby.PendingPrepare> preparedAt(List<io.cleave.manager.standby.CutPosition> cut)
            throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/standby/prepared", HttpRequest.BodyPublishers.ofString(
                AdminServer.JSON.writeValueAsString(cut), StandardCharsets.UTF_8), Duration.ofSeconds(60)),
                new TypeReference<>() {
                });
    }

    /** Promotes this daemon's home (a standby whose primary is gone) to primary. */
    public io.cleave.manager.standby.PromotionReport promote() throws IOException {
        return post("/v1/standby/promote", java.util.Map.of(), Duration.ofMinutes(5),
                io.cleave.manager.standby.PromotionReport.class);
    }

    /** Rejoins this daemon's home (an old primary) as the standby of the primary at {@code primary}. */
    public io.cleave.manager.coordination.RejoinReport rejoin(String primary, String token) throws IOException {
        return post("/v1/coordination/rejoin", java.util.Map.of("primary", primary, "token", token), Duration.ofMinutes(2),
                io.cleave.manager.coordination.RejoinReport.class);
    }

    /** Swaps the roles of this daemon's home (the primary) and its standby ({@code cleave switchover}). */
    public io.cleave.manager.standby.SwitchoverReport switchover(io.cleave.manager.standby.SwitchoverRequest request)
            throws IOException {
        return post("/v1/standby/switchover", request, Duration.ofMillis(request.drainMillis()
                + 2 * request.catchUpMillis() + 120_000), io.cleave.manager.standby.SwitchoverReport.class);
    }

    /** Asks this daemon's home (a standby) to apply up to the primary's positions, changing nothing. */
    public io.cleave.manager.standby.CatchUp.Result catchUp(io.cleave.manager.standby.CatchUp request) throws IOException {
        return post("/v1/standby/catch-up", request, Duration.ofMillis(request.waitMillis() + 30_000),
                io.cleave.manager.standby.CatchUp.Result.class);
    }

    /** Asks this daemon's home (a standby) to apply up to the primary's positions and take over. */
    public io.cleave.manager.standby.TakeOverAnswer takeOver(io.cleave.manager.standby.TakeOverRequest request,
                                                             Duration timeout) throws IOException {
        return post("/v1/standby/take-over", request, timeout, io.cleave.manager.standby.TakeOverAnswer.class);
    }

    /**
     * Holds the statements of this daemon's proxy when it forwards to the primary's shards (a switchover of
     * the primary begins); true when it held them, false when there was nothing to hold.
     */
    public boolean holdForwarding(long drainMillis, long holdMillis) throws IOException {
        return post("/v1/standby/hold", java.util.Map.of("drainMillis", drainMillis, "holdMillis", holdMillis),
                Duration.ofMillis(drainMillis + 30_000), com.fasterxml.jackson.databind.JsonNode.class).path("held").asBoolean();
    }

    /** Lets this daemon's held forwarding proxy go on as before (the switchover was abandoned). */
    public void releaseForwarding() throws IOException {
        post("/v1/standby/release", java.util.Map.of(), Duration.ofSeconds(10), com.fasterxml.jackson.databind.JsonNode.class);
    }

    /** Whether this daemon's proxy runs (on a standby: whether it forwards its clients to the primary). */
    public io.cleave.manager.standby.forwarding.PeerProxy peerProxy() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/standby/proxy", HttpRequest.BodyPublishers.noBody(),
                Duration.ofSeconds(3)), io.cleave.manager.standby.forwarding.PeerProxy.class);
    }

    /** Stops the proxy of this daemon's home (a standby whose proxy forwards its clients to the primary). */
    public io.cleave.manager.standby.forwarding.PeerProxy stopForwarding() throws IOException {
        return post("/v1/standby/proxy/stop", java.util.Map.of(), Duration.ofSeconds(30),
                io.cleave.manager.standby.forwarding.PeerProxy.class);
    }

    /**
     * Tells this daemon's home (the primary of a switchover) that the old primary is gone for good, its proxy with
     * it: layout changes are taken again without asking it. The old primary it forgot, or null.
     */
    public String forgetForwarding() throws IOException {
        JsonNode forgot = post("/v1/standby/forwarding/forget", java.util.Map.of(), Duration.ofSeconds(10), JsonNode.class)
                .path("forgot");
        return forgot.isTextual() ? forgot.asText() : null;
    }

    public io.cleave.manager.standby.StandbyReport standby() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/standby"), io.cleave.manager.standby.StandbyReport.class);
    }

    /** POSTs {@code body} as JSON and reads the answer as {@code type}. */
    private <T> T post(String path, Object body, Duration timeout, Class<T> type) throws IOException {
        return AdminServer.JSON.readValue(send("POST", path, HttpRequest.BodyPublishers.ofString(
                AdminServer.JSON.writeValueAsString(body), StandardCharsets.UTF_8), timeout), type);
    }

    public io.cleave.manager.scale.ScaleStatus scaleStatus() throws IOException {
        return AdminServer.JSON.readValue(send("GET", "/v1/scale"), io.cleave.manager.scale.ScaleStatus.class);
    }

    /** Deletes the datadirs of shards a scale stopped; returns what was deleted. */
    public List<String> purgeScaledAway() throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/scale", HttpRequest.BodyPublishers.ofString(
                "{\"purge\": true}", StandardCharsets.UTF_8)), new TypeReference<>() {
                });
    }

    public io.cleave.manager.move.MoveRecord cancelMove(long id) throws IOException {
        return AdminServer.JSON.readValue(send("POST", "/v1/moves/" + id + "/cancel"), io.cleave.manager.move.MoveRecord.class);
    }

    public io.cleave.manager.move.RebalancePlan rebalance(boolean byBytes, boolean dryRun) throws IOException {
        String body = AdminServer.JSON.writeValueAsString(java.util.Map.of("by", byBytes ? "bytes" : "rows",
                "dry_run", dryRun));
        return AdminServer.JSON.readValue(send("POST", "/v1/rebalance", HttpRequest.BodyPublishers.ofString(body,
                StandardCharsets.UTF_8)), io.cleave.manager.move.RebalancePlan.class);
    }

    private String send(String method, String path) throws IOException {
        return send(method, path, HttpRequest.BodyPublishers.noBody());
    }

    private String send(String method, String path, HttpRequest.BodyPublisher body) throws IOException {
        return send(method, path, body, Duration.ofSeconds(10));
    }

    private String send(String method, String path, HttpRequest.BodyPublisher body, Duration timeout) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .method(method, body).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new DaemonAnswer(response.statusCode(), errorOf(response.body()));
            }
            return response.body();
        } catch (ConnectException e) {
            throw new IOException(daemon + " does not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The daemon's {@code {"error": "..."}} message, else the whole body. */
    static String errorOf(String body) {
        try {
            JsonNode error = AdminServer.JSON.readTree(body).get("error");
            if (error != null && error.isTextual()) {
                return error.asText();
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: show it as it came
        }
        return body;
    }

    /** The daemon answered a request with an error status; the message is its own. */
    public static final class DaemonAnswer extends IOException {
        private final int status;

        public DaemonAnswer(int status, String message) {
            super(message);
            this.status = status;
        }

        /** The HTTP status, e.g. 404 for an unknown xid, 409 for a refusal, 503 when the proxy is down. */
        public int status() {
            return status;
        }
    }
}
