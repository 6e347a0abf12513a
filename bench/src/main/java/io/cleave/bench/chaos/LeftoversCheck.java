package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * With every client at rest: nothing a client began is left on a shard and nothing of the proxy's
 * is held. No InnoDB transaction on a connection of the proxy (those come over the shard's Unix
 * socket, so their host is {@code localhost}; the daemon's own work, such as a move's snapshot,
 * comes over TCP), no prepared XA branch, no backend connection in use, the proxy counting as
 * many client connections as the clients hold open, and each shard seeing the connections of the
 * proxy its pool counts, plus at most the deadlock detector's own control connection (the
 * detector's connections are not in the pools). Polled until it holds, up to a deadline long enough for the
 * proxy's recovery pass to settle branches a kill left prepared.
 */
final class LeftoversCheck {
    private static final String BACKENDS = "cleave_proxy_backend_connections";
    /** The proxy's deadlock detector reads lock waits over a control connection of its own per shard, outside the pools. */
    private static final int DETECTOR_CONNECTIONS = 1;

    /** What one shard shows. */
    private record ShardState(List<String> openTransactions, List<String> prepared, int proxyConnections,
                              int otherTransactions) {
    }

    private final ShardAccess shards;
    private final Supplier<String> metrics;

    LeftoversCheck(ShardAccess shards, Supplier<String> metrics) {
        this.shards = shards;
        this.metrics = metrics;
    }

    /** shardCount: how many shards the map names now (a scale down may stop one while this polls). */
    List<CheckResult> check(IntSupplier shardCounts, int clientConnections, Duration timeout)
        throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int shardCount = shardCounts.getAsInt();
            List<ShardState> states = new ArrayList<>();
            try {
                for (int s = 0; s < shardCount; s++) {
                    states.add(read(s));
                }
            } catch (SQLException e) {
                if (shardCounts.getAsInt() == shardCount) {
                    throw e;
                }
                continue;
            }
            PrometheusText m = PrometheusText.parse(metrics.get());
            Map<String, Double> inUse = m.byLabel(BACKENDS, "shard", Map.of("state", "in_use"));
            Map<String, Double> idle = m.byLabel(BACKENDS, "shard", Map.of("state", "idle"));
            double clients = m.sum("cleave_proxy_client_connections", Map.of());
            List<String> open = new ArrayList<>();
            List<String> prepared = new ArrayList<>();
            List<String> held = new ArrayList<>();
            List<String> pooled = new ArrayList<>();
            int others = 0;
            for (int s = 0; s < shardCount; s++) {
                ShardState st = states.get(s);
                int shard = s;
                st.openTransactions().forEach(t -> open.add("shard " + shard + ": " + t));
                st.prepared().forEach(x -> prepared.add("shard " + shard + ": " + x));
                others += st.otherTransactions();
                double used = inUse.getOrDefault(Integer.toString(s), 0.0);
                if (used != 0) {
                    held.add(String.format(Locale.ROOT, "shard %d: %.0f backend connections in use", s, used));
                }
                double counted = used + idle.getOrDefault(Integer.toString(s), 0.0);
                if (st.proxyConnections() < counted || st.proxyConnections() > counted + DETECTOR_CONNECTIONS) {
                    pooled.add(String.format(Locale.ROOT, "shard %d: %d connections of the proxy on the shard, its pool"
                        + " counts %.0f (and the deadlock detector keeps at most %d)", s, st.proxyConnections(), counted,
                        DETECTOR_CONNECTIONS));
                }
            }
            List<String> clientDiff = clients == clientConnections ? List.of()
                : List.of(String.format(Locale.ROOT, "the proxy counts %.0f client connections, the clients hold %d",
                    clients, clientConnections));
            boolean clean = open.isEmpty() && prepared.isEmpty() && held.isEmpty() && pooled.isEmpty() && clientDiff.isEmpty();
            if (clean || System.nanoTime() > deadline) {
                return List.of(
                    CheckResult.of("open transactions", "no transaction open on a connection of the proxy"
                        + (others == 0 ? "" : " (" + others + " of the daemon's own work, e.g. a move's snapshot)"), open),
                    CheckResult.of("prepared XA branches", "no XA branch left prepared on any shard", prepared),
                    CheckResult.of("backend connections", "none in use with every client at rest; each shard sees"
                        + " the connections the proxy's pool counts (and the deadlock detector's own, at most one)",
                        concat(held, pooled)),
                    CheckResult.of("client connections", String.format(Locale.ROOT, "the proxy counts the %d connections"
                        + " the clients hold open", clientConnections), clientDiff));
            }
            Thread.sleep(500);
        }
    }

    private ShardState read(int shard) throws SQLException {
        try (Connection c = shards.open(shard, ""); Statement st = c.createStatement()) {
            Set<Long> proxyThreads = new HashSet<>();
            try (ResultSet rs = st.executeQuery("SHOW PROCESSLIST")) {
                while (rs.next()) {
                    if (byTheProxy(rs.getString("User"), rs.getString("Host"))) {
                        proxyThreads.add(rs.getLong("Id"));
                    }
                }
            }
            List<String> open = new ArrayList<>();
            int others = 0;
            // innodb_trx alone, with its own trx_query: joining information_schema.processlist has crashed
            // MariaDB 11.4.5 now and then (see the e2e tests' Leftovers).
            try (ResultSet rs = st.executeQuery("SELECT trx_id, trx_state, trx_mysql_thread_id, trx_started,"
                + " COALESCE(trx_query, '-') FROM information_schema.innodb_trx")) {
                while (rs.next()) {
                    if (proxyThreads.contains(rs.getLong(3))) {
                        open.add("trx " + rs.getString(1) + " " + rs.getString(2) + " since " + rs.getString(4)
                            + " on proxy connection " + rs.getLong(3) + ", running: " + rs.getString(5));
                    } else {
                        others++;
                    }
                }
            }
            List<String> prepared = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("XA RECOVER")) {
                while (rs.next()) {
                    prepared.add("prepared XA branch " + rs.getString(4));
                }
            }
            return new ShardState(open, prepared, proxyThreads.size(), others);
        }
    }

    /**
     * Whether a shard's connection is the proxy's: its own work comes as the shard account over the
     * Unix socket (host {@code localhost}); a client's statements come as the client's account, over
     * the socket or over TCP with the client's address. The daemon's own work and these checks come
     * as the shard account over TCP; the server's own threads have their own users.
     */
    static boolean byTheProxy(String user, String host) {
        if ("localhost".equals(host)) {
            return true;
        }
        return user != null && !user.isEmpty() && !user.equals(io.cleave.bench.home.BenchHome.SHARD_USER)
            && !user.equals("system user") && !user.equals("event_scheduler") && !user.equals("unauthenticated user");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
