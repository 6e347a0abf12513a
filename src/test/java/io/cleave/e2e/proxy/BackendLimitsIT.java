package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the proxy bounds on a shard: its backend connections (two here; more clients than that
 * queue, and a statement that waits too long fails with a clear error) and the statements those
 * connections keep prepared (the shard allows only 40, and clients prepare hundreds).
 */
class BackendLimitsIT {

    private static final int MAX_PREPARED = 40;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(1)
                .serverOption("max_prepared_stmt_count", Integer.toString(MAX_PREPARED))
                .proxyOption("max_backend_connections_per_shard", 2)
                .proxyOption("backend_wait_timeout_ms", 1500)
                .create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app");
            st.execute("CREATE TABLE app.numbers (n INT PRIMARY KEY, square INT)");
            StringBuilder values = new StringBuilder();
            for (int n = 1; n <= 200; n++) {
                values.append(n == 1 ? "" : ",").append('(').append(n).append(',').append(n * n).append(')');
            }
            st.execute("INSERT INTO app.numbers VALUES " + values);
        }
    }

    @AfterAll
    static void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    private static Connection open(boolean serverPrepared) throws SQLException {
        return daemon.connectProxy("app", "useServerPrepStmts=" + serverPrepared);
    }

    @Test
    void clientsPrepareFarMoreStatementsThanTheShardAllows() throws Exception {
        long closedBefore = shardStatus("Com_stmt_close");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int client = t;
                runs.add(pool.submit(() -> {
                    try (Connection c = open(true)) {
                        // Statements kept open across the run, each a distinct text, as a statement cache would.
                        List<PreparedStatement> open = new ArrayList<>();
                        for (int i = 0; i < 60; i++) {
                            PreparedStatement ps = c.prepareStatement(
                                    "SELECT square + " + (client * 1000 + i) + " FROM numbers WHERE n = ?");
                            open.add(ps);
                        }
                        for (int round = 0; round < 2; round++) {
                            for (int i = 0; i < open.size(); i++) {
                                PreparedStatement ps = open.get(i);
                                int n = 1 + (i * 7 + round) % 200;
                                ps.setInt(1, n);
                                try (ResultSet rs = ps.executeQuery()) {
                                    assertThat(rs.next()).isTrue();
                                    assertThat(rs.getLong(1)).isEqualTo((long) n * n + client * 1000 + i);
                                }
                            }
                        }
                        for (PreparedStatement ps : open) {
                            ps.close();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : runs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // 240 distinct statements went through two backend connections: what their caches
        // evicted was closed on the shard, and the shard never ran out (no error above).
        assertThat(shardStatus("Com_stmt_close") - closedBefore).isGreaterThanOrEqualTo(240 - MAX_PREPARED);
        assertThat(shardStatus("Prepared_stmt_count")).isLessThanOrEqualTo(MAX_PREPARED * 3 / 4);
    }

    @Test
    void manyConcurrentClientsQueueForTwoConnections() throws Exception {
        double timeoutsBefore = metric("cleave_proxy_backend_wait_timeouts_total{shard=\"0\"}");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong mostOpen = new AtomicLong();
        Thread sampler = new Thread(() -> {
            // Counted by the shard itself: the proxy's in_use and idle gauges are two plain reads, so a
            // connection released between them is counted in both.
            try (Connection shard = daemon.connect(0); PreparedStatement count = shard.prepareStatement(
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'root'")) {
                while (running.get()) {
                    try (ResultSet rs = count.executeQuery()) {
                        rs.next();
                        mostOpen.accumulateAndGet(rs.getLong(1), Math::max);
                    }
                }
            } catch (SQLException e) {
                mostOpen.set(-1);
            }
        });
        sampler.start();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int client = t;
                runs.add(pool.submit(() -> {
                    try (Connection c = open(false); PreparedStatement ps = c.prepareStatement(
                            "SELECT square FROM numbers WHERE n = ?")) {
                        for (int i = 0; i < 30; i++) {
                            int n = 1 + (client * 31 + i) % 200;
                            ps.setInt(1, n);
                            try (ResultSet rs = ps.executeQuery()) {
                                assertThat(rs.next()).isTrue();
                                assertThat(rs.getInt(1)).isEqualTo(n * n);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : runs) {
                f.get();
            }
        } finally {
            running.set(false);
            sampler.join();
            pool.shutdownNow();
        }
        assertThat(mostOpen.get()).as("backend connections open at once").isBetween(1L, 2L);
        assertThat(metric("cleave_proxy_backend_wait_timeouts_total{shard=\"0\"}")).isEqualTo(timeoutsBefore);
    }

    @Test
    void aStatementThatWaitsTooLongFailsClearly() throws Exception {
        double timeoutsBefore = metric("cleave_proxy_backend_wait_timeouts_total{shard=\"0\"}");
        try (Connection a = open(false); Connection b = open(false); Connection waiting = open(false)) {
            // Two open transactions hold both backend connections.
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            update(a, 1);
            update(b, 2);
            assertThatThrownBy(() -> update(waiting, 3)).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getErrorCode()).isEqualTo(3024);
                assertThat(e.getSQLState()).isEqualTo("HY000");
                assertThat((Throwable) e).isNotInstanceOf(java.sql.SQLNonTransientConnectionException.class);
                assertThat(e.getMessage()).contains("shard 0 is saturated").contains("max_backend_connections_per_shard");
            });
            a.commit();
            // The client's connection survived the error, and the freed backend connection serves it.
            update(waiting, 3);
            b.rollback();
        }
        assertThat(metric("cleave_proxy_backend_wait_timeouts_total{shard=\"0\"}") - timeoutsBefore).isEqualTo(1);
        assertThat(metric("cleave_proxy_errors_total{code=\"3024\"}")).isGreaterThanOrEqualTo(1);
    }

    private static void update(Connection c, int n) throws SQLException {
        try (Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE numbers SET square = n * n WHERE n = " + n)).isBetween(0, 1);
        }
    }

    private static long shardStatus(String variable) throws SQLException {
        try (Connection c = daemon.connect(0); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(2);
        }
    }

    private static double metric(String series) throws Exception {
        return metric(daemon.admin("GET", "/metrics", false).body(), series);
    }

    private static double metric(String body, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
