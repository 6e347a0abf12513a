package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TwoShardItems;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Many clients on one proxy event loop with pipelining on (proxy.pipeline_depth 8): point reads,
 * autocommit writes and failing statements of different clients share backend connections, and
 * every client gets exactly its own answers: each row read is the one asked for (its text names
 * its id), each client's counters hold what its own updates made them, and an error reaches only
 * the statement that caused it.
 */
class PipeliningIT {

    private static final int CLIENTS = 16;
    private static final int IDS_PER_CLIENT = 12;
    private static final int ROUNDS = 100;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2)
                .proxyOption("threads", 1)
                .proxyOption("pipeline_depth", 8)
                .extraYaml(TwoShardItems.SHARDING)
                .create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE app");
            st.execute("CREATE TABLE app.items (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(100))");
            StringBuilder rows = new StringBuilder();
            for (int id = 1; id <= 200; id++) {
                rows.append(id == 1 ? "" : ",").append('(').append(id).append(", 0, 'row ").append(id).append("')");
            }
            st.execute("INSERT INTO app.items (id, v, s) VALUES " + rows);
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
    void everyClientGetsExactlyItsOwnAnswers() throws Exception {
        double pipelinedBefore = pipelined();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        int[][] expected = new int[CLIENTS][IDS_PER_CLIENT];
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < CLIENTS; t++) {
                int client = t;
                runs.add(pool.submit(() -> {
                    // Half the clients use server-side prepared statements (COM_STMT_EXECUTE), half text.
                    try (Connection c = open(client % 2 == 0);
                         PreparedStatement read = c.prepareStatement("SELECT id, v, s FROM items WHERE id = ?");
                         PreparedStatement write = c.prepareStatement("UPDATE items SET v = v + 1 WHERE id = ?");
                         Statement text = c.createStatement()) {
                        for (int round = 0; round < ROUNDS; round++) {
                            int slot = (round * 5 + client) % IDS_PER_CLIENT;
                            int own = client * IDS_PER_CLIENT + slot + 1;
                            int other = 1 + (round * 37 + client * 11) % 200;
                            if (round % 3 == 0) {
                                write.setInt(1, own);
                                assertThat(write.executeUpdate()).as("client %d updates id %d", client, own).isEqualTo(1);
                                expected[client][slot]++;
                            }
                            if (round % 7 == 3) {
                                assertThatThrownBy(() -> text.executeQuery("SELECT nope FROM items WHERE id = " + own))
                                        .isInstanceOf(SQLException.class).hasMessageContaining("nope");
                            }
                            read.setInt(1, own);
                            try (ResultSet rs = read.executeQuery()) {
                                assertThat(rs.next()).isTrue();
                                assertThat(rs.getInt(1)).as("client %d asked for id %d", client, own).isEqualTo(own);
                                assertThat(rs.getString(3)).isEqualTo("row " + own);
                                assertThat(rs.getInt(2)).as("client %d's own updates of id %d", client, own)
                                        .isEqualTo(expected[client][slot]);
                                assertThat(rs.next()).isFalse();
                            }
                            try (ResultSet rs = text.executeQuery("SELECT id, s FROM items WHERE id = " + other)) {
                                assertThat(rs.next()).isTrue();
                                assertThat(rs.getInt(1)).as("client %d asked for id %d", client, other).isEqualTo(other);
                                assertThat(rs.getString(2)).isEqualTo("row " + other);
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
            pool.shutdownNow();
        }

        // What the shards hold is exactly what every client's own updates made.
        for (int shard = 0; shard < 2; shard++) {
            try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, v FROM app.items")) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    int want = id <= CLIENTS * IDS_PER_CLIENT ? expected[(id - 1) / IDS_PER_CLIENT][(id - 1) % IDS_PER_CLIENT]
                            : 0;
                    assertThat(rs.getInt(2)).as("v of id %d on shard %d", id, shard).isEqualTo(want);
                }
            }
        }
        assertThat(pipelined() - pipelinedBefore).as("statements of different clients shared a backend connection")
                .isPositive();
    }

    /** Statements written behind another client's, over both shards, from /metrics. */
    private static double pipelined() throws Exception {
        String body = daemon.admin("GET", "/metrics", false).body();
        Matcher m = Pattern.compile("(?m)^cleave_proxy_backend_pipelined_statements_total\\{[^}]*} ([0-9.eE+-]+)$")
                .matcher(body);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }
}
