package io.cleave.manager.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.fasterxml.jackson.databind.JsonNode;
import io.cleave.manager.move.MoveRefused;
import io.cleave.manager.move.MoveService;
import io.cleave.proxy.server.InDoubtResolution;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The daemon's admin HTTP API, on loopback only. Everything but {@code GET /metrics} needs
 * {@code Authorization: Bearer <state/admin-token>}.
 * <ul>
 *   <li>{@code GET /v1/status}: a {@link StatusReport} as JSON</li>
 *   <li>{@code POST /v1/shutdown}: stops the proxy and every instance cleanly, then the daemon</li>
 *   <li>{@code POST /v1/explain} with a statement as the body: an {@link ExplainReport} as JSON</li>
 *   <li>{@code GET /v1/xa}: the in-doubt XA branches (prepared, their commit unfinished) as a JSON list</li>
 *   <li>{@code POST /v1/xa/commit} and {@code /v1/xa/rollback} with {@code {"xid": "...", "force": false}}:
 *       settles one transaction on every shard where it is prepared; 404 for an unknown xid, 409 when
 *       that contradicts the recorded decision and is not forced, 502 when a shard failed</li>
 *   <li>{@code POST /v1/xa/recover}: a recovery pass now, as a {@link RecoveryReport}</li>
 *   <li>{@code GET /v1/shards[?exact=true]}: a {@link io.cleave.manager.move.ShardsReport}</li>
 *   <li>{@code GET /v1/moves}, {@code GET /v1/moves/N}: moves and their progress; {@code POST /v1/moves} with
 *       {@code {"keyspace": "...", "keys": "1-50", "to": 2}} starts one (400 bad input, 404 no such shard, 409
 *       overlapping a move under way); {@code POST /v1/moves/N/cancel}</li>
 *   <li>{@code POST /v1/rebalance} with {@code {"by": "rows"|"bytes", "dry_run": true}}: a {@link io.cleave.manager.move.RebalancePlan}</li>
 *   <li>{@code POST /v1/import} with {@code {"from": "mysql://USER:PASSWORD@HOST:PORT/DATABASE"}} starts an import
 *       (400 with every problem found, nothing changed); {@code GET /v1/import}: its status</li>
 *   <li>{@code POST /v1/scale} with {@code {"shards": N}} starts a scale, with {@code {"purge": true}} deletes the
 *       datadirs of shards a scale stopped; {@code GET /v1/scale}: its status</li>
 *   <li>{@code POST /v1/shard-table} with {@code {"table": "db.t", "keyspace": "k", "column": "c"}} (or
 *       {@code "reference": true}, or {@code "unsharded": SHARD}): the move that gives the table that rule</li>
 *   <li>{@code POST /v1/backups} with {@code {"to": "DIR or s3://BUCKET/PREFIX", "engine": "auto|physical|logical", "maxRateMbS": N}} (or
 *       {@code {}}: the configured location and engine) starts a backup (409 while one runs); {@code GET /v1/backups/ID}: its progress;
 *       {@code GET /v1/backups[?from=LOCATION]}: the backups and restorable range of a location</li>
 *   <li>{@code GET /metrics}: Prometheus text format</li>
 * </ul>
 * Errors are {@code {"error": "..."}}; 503 means the proxy, through which XA work goes, is not running.
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final byte[] expectedAuth;
    /** Why requests that change the home are refused (a standby's), or null while they are taken. */
    private volatile Supplier<String> changesRefused = () -> null;

    /**
     * @param port     0 picks a free port (see {@link #port()})
     * @param shutdown called once for POST /v1/shutdown, on its own thread
     * @param explain  plans a statement for POST /v1/explain
     * @param xa       lists and settles in-doubt XA branches for /v1/xa
     */
    public AdminServer(String host, int port, String token, PrometheusMeterRegistry registry, Supplier<StatusReport> status,
                       Runnable shutdown, Function<String, ExplainReport> explain, InDoubtTransactions xa,
                       MoveService moves, io.cleave.manager.imports.ImportService imports,
                       io.cleave.manager.scale.ScaleService scale, io.cleave.manager.backup.BackupService backups) {
        this.expectedAuth = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 16);
        } catch (BindException e) {
            throw new IllegalStateException(io.cleave.manager.config.ListenCheck.bindRefusal(host, port,
                    "the admin API (admin.listen or admin.port)", e), e);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the admin port " + port + ": " + e.getMessage(), e);
        }
        executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "admin-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", ex -> handle(ex, "GET", false,
                () -> respond(ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape())));
        server.createContext("/v1/status", ex -> handle(ex, "GET", true,
                () -> respond(ex, 200, "application/json", JSON.writeValueAsString(status.get()))));
        server.createContext("/v1/shutdown", ex -> handle(ex, "POST", true, () -> {
            respond(ex, 202, "application/json", "{\"shutdown\":\"started\"}");
            Thread t = new Thread(shutdown, "admin-shutdown");
            t.start();
        }));
        server.createContext("/v1/explain", ex -> handle(ex, "POST", true, () -> {
            String sql = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (sql.isEmpty()) {
                respond(ex, 400, "application/json", "{\"error\":\"send the statement to explain as the request body\"}");
                return;
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(explain.apply(sql)));
        }));
        server.createContext("/v1/xa", ex -> handle(ex, "GET", true, () -> {
            if (!ex.getRequestURI().getPath().equals("/v1/xa")) {
                noSuchEndpoint(ex);
                return;
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(xa.list()));
        }));
        server.createContext("/v1/xa/commit", ex -> handle(ex, "POST", true, () -> resolve(ex, xa, true)));
        server.createContext("/v1/xa/rollback", ex -> handle(ex, "POST", true, () -> resolve(ex, xa, false)));
        server.createContext("/v1/xa/recover", ex -> handle(ex, "POST", true,
                () -> respond(ex, 200, "application/json", JSON.writeValueAsString(xa.recover()))));
        server.createContext("/v1/shards", ex -> handle(ex, "GET", true, () -> respond(ex, 200, "application/json",
                JSON.writeValueAsString(moves.shards(String.valueOf(ex.getRequestURI().getQuery()).contains("exact=true"))))));
        server.createContext("/v1/moves", ex -> handleMoves(ex, moves));
        server.createContext("/v1/import", ex -> {
            if (ex.getRequestMethod().equals("POST")) {
                handle(ex, "POST", true, () -> {
                    JsonNode body = body(ex);
                    if (!body.hasNonNull("from")) {
                        throw new AdminError(AdminError.BAD_REQUEST, "send {\"from\": \"mysql://USER:PASSWORD@HOST:PORT/DATABASE\"}");
                    }
                    respond(ex, 202, "application/json", JSON.writeValueAsString(imports.start(body.get("from").asText())));
                });
            } else {
                handle(ex, "GET", true, () -> respond(ex, 200, "application/json", JSON.writeValueAsString(imports.status())));
            }
        });
        server.createContext("/v1/scale", ex -> {
            if (ex.getRequestMethod().equals("POST")) {
                handle(ex, "POST", true, () -> {
                    JsonNode body = body(ex);
                    if (body.path("purge").asBoolean(false)) {
                        respond(ex, 200, "application/json", JSON.writeValueAsString(scale.purge()));
                        return;
                    }
                    if (!body.path("shards").canConvertToInt()) {
                        throw new AdminError(AdminError.BAD_REQUEST, "send {\"shards\": N} or {\"purge\": true}");
                    }
                    respond(ex, 202, "application/json", JSON.writeValueAsString(scale.start(body.get("shards").asInt())));
                });
            } else {
                handle(ex, "GET", true, () -> respond(ex, 200, "application/json", JSON.writeValueAsString(scale.status())));
            }
        });
        server.createContext("/v1/backups", ex -> handleBackups(ex, backups));
        server.createContext("/v1/shard-table", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            respond(ex, 202, "application/json", JSON.writeValueAsString(moves.shardTable(body.path("table").asText(""),
                    ShardTableRequest.rule(body))));
        }));
        server.createContext("/v1/rebalance", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            String by = body.path("by").asText("rows");
            if (!by.equals("rows") && !by.equals("bytes")) {
                throw new AdminError(AdminError.BAD_REQUEST, "rebalance by 'rows' or 'bytes', not '" + by + "'");
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(moves.rebalance(by.equals("bytes"),
                    body.path("dry_run").asBoolean(false))));
        }));
        server.createContext("/", ex -> handle(ex, "GET", true, () -> noSuchEndpoint(ex)));
    }

    /** /v1/moves (GET list, POST start), /v1/moves/N (GET), /v1/moves/N/cancel (POST). */
    private void handleMoves(HttpExchange ex, MoveService moves) throws IOException {
        String[] parts = ex.getRequestURI().getPath().split("/");
        String method = ex.getRequestMethod();
        if (parts.length == 3) {
            handle(ex, method.equals("POST") ? "POST" : "GET", true, () -> {
                if (method.equals("GET")) {
                    respond(ex, 200, "application/json", JSON.writeValueAsString(moves.list()));
                    return;
                }
                JsonNode body = body(ex);
                if (!body.hasNonNull("keyspace") || !body.hasNonNull("keys") || !body.path("to").canConvertToInt()) {
                    throw new AdminError(AdminError.BAD_REQUEST, "send the move as {\"keyspace\": \"...\", \"keys\": \"1-50\","
                            + " \"to\": SHARD}");
                }
                respond(ex, 202, "application/json", JSON.writeValueAsString(moves.start(body.get("keyspace").asText(),
                        body.get("keys").asText(), body.get("to").asInt(), "cli")));
            });
            return;
        }
        long id;
        try {
            id = Long.parseLong(parts[3]);
        } catch (NumberFormatException e) {
            handle(ex, method, true, () -> {
                throw new AdminError(AdminError.BAD_REQUEST, "'" + parts[3] + "' is not a move id");
            });
            return;
        }
        if (parts.length == 4) {
            handle(ex, "GET", true, () -> respond(ex, 200, "application/json", JSON.writeValueAsString(moves.get(id))));
        } else if (parts.length == 5 && parts[4].equals("cancel")) {
            handle(ex, "POST", true, () -> respond(ex, 200, "application/json", JSON.writeValueAsString(moves.cancel(id))));
        } else {
            handle(ex, "GET", true, () -> noSuchEndpoint(ex));
        }
    }

    /** /v1/backups (POST start, GET list of a location), /v1/backups/ID (GET). */
    private void handleBackups(HttpExchange ex, io.cleave.manager.backup.BackupService backups) throws IOException {
        String[] parts = ex.getRequestURI().getPath().split("/");
        String method = ex.getRequestMethod();
        if (parts.length == 3 && method.equals("POST")) {
            handle(ex, "POST", true, () -> {
                JsonNode body = body(ex);
                String engineText = body.path("engine").asText(null);
                io.cleave.manager.config.BackupEngine engine = io.cleave.manager.config.BackupEngine.parse(engineText);
                if (engineText != null && engine == null) {
                    throw new AdminError(AdminError.BAD_REQUEST, "'" + engineText + "' is not a backup engine: expected"
                            + " auto, physical or logical");
                }
                JsonNode rate = body.path("maxRateMbS");
                if (!rate.isMissingNode() && !rate.isNull() && !(rate.canConvertToInt() && rate.isIntegralNumber())) {
                    throw new AdminError(AdminError.BAD_REQUEST, "maxRateMbS " + rate + " is not a whole number of MB/s");
                }
                respond(ex, 202, "application/json", JSON.writeValueAsString(backups.start(body.path("to").asText(null),
                        engine, rate.isIntegralNumber() ? rate.intValue() : null)));
            });
        } else if (parts.length == 3) {
            handle(ex, "GET", true, () -> respond(ex, 200, "application/json",
                    JSON.writeValueAsString(backups.list(query(ex, "from")))));
        } else if (parts.length == 4) {
            handle(ex, "GET", true, () -> respond(ex, 200, "application/json",
                    JSON.writeValueAsString(backups.status(parts[3]))));
        } else {
            handle(ex, "GET", true, () -> noSuchEndpoint(ex));
        }
    }

    /** A parameter of the request's query string, decoded; null when absent. */
    private static String query(HttpExchange ex, String name) {
        String q = ex.getRequestURI().getRawQuery();
        if (q == null) {
            return null;
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static JsonNode body(HttpExchange ex) throws IOException {
        byte[] bytes = ex.getRequestBody().readAllBytes();
        if (bytes.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new AdminError(AdminError.BAD_REQUEST, "the body is not JSON: " + e.getMessage());
        }
    }

    private static void noSuchEndpoint(HttpExchange ex) throws IOException {
        respond(ex, 404, "application/json", JSON.writeValueAsString(Map.of("error", "no such endpoint: expected"
                + " /v1/status, /v1/shutdown, /v1/explain, /v1/xa, /v1/xa/commit, /v1/xa/rollback, /v1/xa/recover,"
                + " /v1/shards, /v1/moves, /v1/rebalance, /v1/shard-table, /v1/import, /v1/scale, /v1/backups or /metrics")));
    }

    private static void resolve(HttpExchange ex, InDoubtTransactions xa, boolean commit) throws IOException {
        ResolveRequest request;
        try {
            request = JSON.readValue(ex.getRequestBody(), ResolveRequest.class);
        } catch (IOException e) {
            request = null;
        }
        if (request == null || request.xid() == null || request.xid().isBlank()) {
            respond(ex, 400, "application/json", JSON.writeValueAsString(Map.of("error",
                    "send the transaction as a JSON body: {\"xid\": \"cleave:...\", \"force\": false}")));
            return;
        }
        InDoubtResolution result = xa.resolve(request.xid(), commit, request.force());
        int code = httpStatus(result.outcome());
        respond(ex, code, "application/json", JSON.writeValueAsString(code == 200 ? result
                : Map.of("error", result.message())));
    }

    /** How an operator's resolution is answered over HTTP. */
    static int httpStatus(InDoubtResolution.Outcome outcome) {
        return switch (outcome) {
            case SETTLED -> 200;
            case UNKNOWN_XID -> AdminError.NOT_FOUND;
            case REFUSED -> AdminError.CONFLICT;
            case FAILED -> AdminError.BAD_GATEWAY;
        };
    }

    public void start() {
        server.start();
        log.info("admin API listening on {}:{}", server.getAddress().getAddress().getHostAddress(), port());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private interface Action {
        void run() throws IOException;
    }

    private void handle(HttpExchange ex, String method, boolean authenticated, Action action) throws IOException {
        // Not try-with-resources: the exchange must still be open when a catch block answers.
        try {
            if (authenticated && !authorized(ex)) {
                respond(ex, 401, "application/json", "{\"error\":\"missing or wrong bearer token: read it from state/admin-token\"}");
                return;
            }
            if (!ex.getRequestMethod().equals(method)) {
                respond(ex, 405, "application/json", "{\"error\":\"use " + method + "\"}");
                return;
            }
            String refused = method.equals("POST") && changesHome(ex.getRequestURI().getPath()) ? changesRefused.get() : null;
            if (refused != null) {
                throw new AdminError(AdminError.CONFLICT, refused);
            }
            action.run();
        } catch (AdminError e) {
            respond(ex, e.status(), "application/json", JSON.writeValueAsString(Map.of("error", e.getMessage())));
        } catch (MoveRefused e) {
            int status = switch (e.kind()) {
                case BAD_REQUEST -> AdminError.BAD_REQUEST;
                case NOT_FOUND -> AdminError.NOT_FOUND;
                case CONFLICT -> AdminError.CONFLICT;
            };
            respond(ex, status, "application/json", JSON.writeValueAsString(Map.of("error", e.getMessage())));
        } catch (RuntimeException e) {
            log.warn("admin request {} failed", ex.getRequestURI(), e);
            respond(ex, 500, "application/json", JSON.writeValueAsString(Map.of("error", String.valueOf(e.getMessage()))));
        } finally {
            ex.close();
        }
    }

    /** POSTs other than shutdown, explain and the standby's own change the home's shards. */
    private static boolean changesHome(String path) {
        return !path.equals("/v1/shutdown") && !path.equals("/v1/explain") && !path.startsWith("/v1/standby");
    }

    /**
     * The standby pair's endpoints: {@code GET /v1/standby} (a {@link io.cleave.manager.standby.StandbyReport}, 404
     * without a pair), {@code POST /v1/standby/attach} (on the primary: an {@link io.cleave.manager.standby.Attachment}),
     * {@code POST /v1/standby/semi-sync} with {@code {"enabled": true}} (on the primary), {@code POST
     * /v1/standby/prepared} with a cut's positions (on the primary: its {@link PreparedAt}), {@code POST
     * /v1/standby/promote} (on the standby, once its primary is gone: a {@link io.cleave.manager.standby.PromotionReport},
     * 409 when this home is no standby); and, while
     * {@code refused} says why, every request that would change the shards is refused with 409.
     */
    public void standby(Supplier<Object> report, java.util.concurrent.Callable<Object> attach,
                        Function<Boolean, Object> semiSync, PreparedAt prepared,
                        java.util.concurrent.Callable<Object> promote, Supplier<String> refused) {
        this.changesRefused = refused;
        server.createContext("/v1/standby", ex -> handle(ex, "GET", true, () -> {
            Object r = report.get();
            if (r == null) {
                throw new AdminError(AdminError.NOT_FOUND, "this home has no standby: run 'cleave standby' on another host");
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(r));
        }));
        server.createContext("/v1/standby/attach", ex -> handle(ex, "POST", true,
                () -> respondWith(ex, attach, "could not prepare the shards: ")));
        server.createContext("/v1/standby/prepared", ex -> handle(ex, "POST", true, () -> {
            java.util.List<io.cleave.manager.standby.CutPosition> cut;
            try {
                cut = JSON.readValue(ex.getRequestBody(), new com.fasterxml.jackson.core.type.TypeReference<>() {
                });
            } catch (IOException e) {
                throw new AdminError(AdminError.BAD_REQUEST, "send the cut as [{\"shard\": 0, \"file\": ..., \"position\": ...}]");
            }
            try {
                respond(ex, 200, "application/json", JSON.writeValueAsString(prepared.at(cut)));
            } catch (java.sql.SQLException e) {
                throw new AdminError(AdminError.UNAVAILABLE, "could not read the shards' binlogs: " + e.getMessage());
            }
        }));
        server.createContext("/v1/standby/promote", ex -> handle(ex, "POST", true,
                () -> respondWith(ex, promote, "could not promote the shards: ")));
        server.createContext("/v1/standby/semi-sync", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            if (!body.path("enabled").isBoolean()) {
                throw new AdminError(AdminError.BAD_REQUEST, "send {\"enabled\": true} or {\"enabled\": false}");
            }
            try {
                respond(ex, 200, "application/json", JSON.writeValueAsString(semiSync.apply(body.get("enabled").asBoolean())));
            } catch (IllegalStateException e) {
                throw new AdminError(AdminError.CONFLICT, e.getMessage());
            }
        }));
    }

    /**
     * What a primary answers its standby's daemon asking for the shards; {@code replicas}: the ones it has, or null;
     * {@code standby}: that daemon's own admin URL and token, or null.
     */
    @FunctionalInterface
    public interface StandbyAsking {
        Object shards(java.util.List<Integer> replicas, io.cleave.manager.standby.PairPeer standby, String relayFrom)
                throws Exception;
    }

    /**
     * {@code POST /v1/standby/shards} on a primary, with {@code {"replicas": [0, 1]}} (the shards the standby has
     * replicas of; optional), {@code "standby": {"url": U, "token": T}} (its own admin API; optional) and {@code
     * "relayFrom": "10.0.0.2"} (the address its proxy port's relay connects from; optional): every shard it runs,
     * prepared for replication (an {@link io.cleave.manager.standby.Attachment}); its standby's daemon asks every few
     * seconds, makes a replica of each shard it lacks (a scale added it) and lets go of those a scale down retired.
     * 409 on a home that is no primary of a pair.
     */
    public void standbyShards(StandbyAsking shards) {
        server.createContext("/v1/standby/shards", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            JsonNode replicas = body.path("replicas");
            JsonNode self = body.path("standby");
            // Kept only when it reads as one: a home's admin URL and a token of one line.
            io.cleave.manager.standby.PairPeer standby = self.path("url").asText("").matches("https?://[^/\\s]+/?")
                    && self.path("token").asText("").matches("\\S+")
                    ? new io.cleave.manager.standby.PairPeer(self.get("url").asText(), self.get("token").asText()) : null;
            java.util.List<Integer> have = null;
            if (replicas.isArray()) {
                have = new java.util.ArrayList<>();
                for (JsonNode n : replicas) {
                    have.add(n.asInt());
                }
            }
            java.util.List<Integer> asked = have;
            JsonNode relay = body.path("relayFrom");
            String relayFrom = relay.isTextual() ? relay.asText() : null;
            respondWith(ex, () -> shards.shards(asked, standby, relayFrom), "could not prepare the shards: ");
        }));
    }

    /** An old primary's rejoining as the standby of the primary at {@code primary} (its admin token {@code token}). */
    public interface Rejoining {
        Object rejoin(String primary, String token) throws Exception;
    }

    /**
     * The pair's coordination through etcd: {@code GET /v1/coordination} (a
     * {@link io.cleave.manager.coordination.CoordinationReport}, 404 without a coordination section) and {@code POST
     * /v1/coordination/rejoin} with {@code {"primary": URL, "token": T}} (on an old primary: a
     * {@link io.cleave.manager.coordination.RejoinReport}; 409 when it cannot rejoin).
     */
    public void coordination(Supplier<Object> report, Rejoining rejoining) {
        server.createContext("/v1/coordination", ex -> handle(ex, "GET", true, () -> {
            Object r = report.get();
            if (r == null) {
                throw new AdminError(AdminError.NOT_FOUND, "this home's config has no coordination section");
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(r));
        }));
        server.createContext("/v1/coordination/rejoin", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            if (!body.path("primary").isTextual() || !body.path("token").isTextual()) {
                throw new AdminError(AdminError.BAD_REQUEST, "send {\"primary\": \"http://HOST:PORT\", \"token\": \"...\"}");
            }
            respondWith(ex, () -> rejoining.rejoin(body.get("primary").asText(), body.get("token").asText()),
                    "could not rejoin: ");
        }));
    }

    /**
     * A standby pair's switchover: {@code POST /v1/standby/switchover} on the primary (a {@link
     * io.cleave.manager.standby.SwitchoverRequest}; 409 when refused or abandoned with nothing changed, 500 with
     * what was changed when a later step failed) and {@code POST /v1/standby/take-over} on the standby (what the
     * primary asks once it is read-only; 409 when a replica does not reach its position, nothing changed) with {@code
     * POST /v1/standby/catch-up} before it (the replicas apply up to positions read while clients write); and on
     * a standby whose proxy forwards to the primary, {@code POST /v1/standby/hold} and {@code /v1/standby/release}
     * around the primary's switchover.
     */
    public void switchover(SwitchoverCall switchover, TakeOverCall takeOver, CatchUpCall catchUp, HoldCall hold,
                           Runnable release) {
        server.createContext("/v1/standby/catch-up", ex -> handle(ex, "POST", true, () -> {
            io.cleave.manager.standby.CatchUp request = read(ex, io.cleave.manager.standby.CatchUp.class,
                    "send the primary's {\"gtids\": {...}, \"waitMillis\": N}");
            respondWith(ex, () -> catchUp.run(request), "the standby could not reach its shards: ");
        }));
        server.createContext("/v1/standby/hold", ex -> handle(ex, "POST", true, () -> {
            JsonNode body = body(ex);
            long drain = body.path("drainMillis").asLong(0);
            long bound = body.path("holdMillis").asLong(0);
            if (drain <= 0 || bound <= 0) {
                throw new AdminError(AdminError.BAD_REQUEST, "send {\"drainMillis\": N, \"holdMillis\": N}");
            }
            respondWith(ex, () -> Map.of("held", hold.hold(drain, bound)), "could not hold the proxy: ");
        }));
        server.createContext("/v1/standby/release", ex -> handle(ex, "POST", true, () -> {
            release.run();
            respond(ex, 200, "application/json", "{}");
        }));
        server.createContext("/v1/standby/switchover", ex -> handle(ex, "POST", true, () -> {
            io.cleave.manager.standby.SwitchoverRequest request = read(ex, io.cleave.manager.standby.SwitchoverRequest.class,
                    "send {\"standby\": URL, \"standbyToken\": TOKEN, \"drainMillis\": N} (all optional once the pair knows its standby)");
            respondWith(ex, () -> switchover.run(request), "the switchover could not reach the shards: ");
        }));
        server.createContext("/v1/standby/take-over", ex -> handle(ex, "POST", true, () -> {
            io.cleave.manager.standby.TakeOverRequest request = read(ex, io.cleave.manager.standby.TakeOverRequest.class,
                    "send the primary's {\"gtids\": {...}, \"waitMillis\": N, \"forwardingRun\": ID}");
            respondWith(ex, () -> takeOver.run(request), "the standby could not reach its shards: ");
        }));
    }

    /**
     * This home's proxy as the pair's other home asks about it: {@code GET /v1/standby/proxy} (a {@link
     * io.cleave.manager.standby.forwarding.PeerProxy}); {@code POST /v1/standby/proxy/stop} on a standby whose proxy
     * forwards its clients to the primary (it was the primary before a switchover) stops that proxy, so that the
     * primary takes layout changes again. {@code POST /v1/standby/forwarding/forget} on that primary: the operator says
     * the old primary is gone for good, its proxy with it (it cannot be asked any more).
     */
    public void forwarding(Supplier<Object> proxy, java.util.concurrent.Callable<Object> stop,
                           java.util.concurrent.Callable<Object> forget) {
        server.createContext("/v1/standby/forwarding/forget", ex -> handle(ex, "POST", true,
                () -> respondWith(ex, forget, "could not forget the old primary: ")));
        server.createContext("/v1/standby/proxy", ex -> handle(ex, "GET", true,
                () -> respond(ex, 200, "application/json", JSON.writeValueAsString(proxy.get()))));
        server.createContext("/v1/standby/proxy/stop", ex -> handle(ex, "POST", true,
                () -> respondWith(ex, stop, "could not stop the proxy: ")));
    }

    private static <T> T read(HttpExchange ex, Class<T> type, String expected) {
        try {
            return JSON.readValue(ex.getRequestBody(), type);
        } catch (IOException | IllegalArgumentException e) {
            throw new AdminError(AdminError.BAD_REQUEST, expected + " (" + e.getMessage() + ")");
        }
    }

    /** {@code cleave switchover}, run by the daemon. */
    @FunctionalInterface
    public interface SwitchoverCall {
        io.cleave.manager.standby.SwitchoverReport run(io.cleave.manager.standby.SwitchoverRequest request) throws Exception;
    }

    /** Holds a forwarding proxy's statements for the primary's switchover: whether there was one to hold. */
    @FunctionalInterface
    public interface HoldCall {
        boolean hold(long drainMillis, long holdMillis) throws Exception;
    }

    /** A standby's catch-up before a switchover holds anything ({@code POST /v1/standby/catch-up}). */
    @FunctionalInterface
    public interface CatchUpCall {
        io.cleave.manager.standby.CatchUp.Result run(io.cleave.manager.standby.CatchUp request) throws Exception;
    }

    /** The standby's part of a switchover, run by the daemon. */
    @FunctionalInterface
    public interface TakeOverCall {
        io.cleave.manager.standby.TakeOverAnswer run(io.cleave.manager.standby.TakeOverRequest request) throws Exception;
    }


    /** Answers with what {@code call} returns as JSON: its refusal (IllegalStateException) as 409, a failure to reach the shards as 503. */
    private static void respondWith(HttpExchange ex, java.util.concurrent.Callable<Object> call, String unavailable)
            throws IOException {
        try {
            respond(ex, 200, "application/json", JSON.writeValueAsString(call.call()));
        } catch (IllegalStateException e) {
            throw new AdminError(AdminError.CONFLICT, e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AdminError(AdminError.UNAVAILABLE, unavailable + e.getMessage());
        }
    }

    /** The XA transactions prepared and not committed at a cut on each shard of a primary. */
    public interface PreparedAt {
        java.util.List<io.cleave.manager.standby.PendingPrepare> at(java.util.List<io.cleave.manager.standby.CutPosition> cut)
                throws java.sql.SQLException, IOException;
    }

    /** {@code POST /v1/repair}: makes the shards' schemas alike again ({@code cleave repair}). */
    public void repair(java.util.concurrent.Callable<Object> repair) {
        server.createContext("/v1/repair", ex -> handle(ex, "POST", true, () -> {
            Object report;
            try {
                report = repair.call();
            } catch (AdminError | IllegalStateException e) {
                throw e;
            } catch (Exception e) {
                log.warn("repair could not read or change a shard", e);
                throw new AdminError(AdminError.UNAVAILABLE, "repair could not read or change a shard: " + e.getMessage());
            }
            respond(ex, 200, "application/json", JSON.writeValueAsString(report));
        }));
    }

    private boolean authorized(HttpExchange ex) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        return header != null && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expectedAuth);
    }

    private static void respond(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
