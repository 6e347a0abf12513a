package io.cleave.e2e.lifecycle;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server that cannot start is retried a bounded number of times, then given up with the reason;
 * the proxy still serves the shards that did start.
 */
class CrashLoopIT {

    @Test
    void serverThatFailsAtStartEndsInCrashLoopWithTheErrorLogAsReason() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(1)
                .serverOption("innodb_no_such_option", "1").create();
             RunningDaemon daemon = home.start()) {
            InstanceStatus s = daemon.awaitStatus(0, st -> st.state() == InstanceState.CRASH_LOOP, Duration.ofSeconds(60));
            assertThat(s.restarts()).as("3 crashes allowed in the window; the 4th gives up").isEqualTo(3);
            assertThat(s.pid()).isNull();
            assertThat(s.lastError()).contains("unknown variable 'innodb_no_such_option=1'");
            assertThat(home.serverPids()).isEmpty();

            // The daemon itself keeps working and says why.
            HttpResponse<String> status = daemon.admin("GET", "/v1/status", true);
            assertThat(status.body()).contains("\"ready\":false").contains("CRASH_LOOP").contains("innodb_no_such_option");
            assertThat(daemon.admin("GET", "/metrics", false).body())
                    .contains("cleave_instance_state{instance=\"shard-0\",state=\"CRASH_LOOP\"} 1.0");
            Thread.sleep(1500);
            assertThat(daemon.status(0).restarts()).as("no more restarts once given up").isEqualTo(3);
        }
    }

    @Test
    void aShardThatCannotStartLeavesTheOthersServedThroughTheProxy() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            try (RunningDaemon first = home.start()) {
                assertThat(first.status(1).state()).isEqualTo(InstanceState.RUNNING);
                try (Connection c = first.connectProxy("", ""); Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE kept");
                    st.execute("CREATE TABLE kept.t (id INT PRIMARY KEY)");
                }
            }
            // Shard 1's system tablespace is destroyed: InnoDB, and with it the server, cannot start.
            Path ibdata = home.root().resolve("data/shard-1/ibdata1");
            byte[] garbage = new byte[(int) Files.size(ibdata)];
            new Random(7).nextBytes(garbage);
            Files.write(ibdata, garbage);

            try (RunningDaemon daemon = home.start()) {
                assertThat(daemon.status(1).state()).isEqualTo(InstanceState.CRASH_LOOP);
                assertThat(daemon.status(0).state()).isEqualTo(InstanceState.RUNNING);
                try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
                    // DDL reaches every shard, all or nothing: the error names the one that is down, and
                    // the shard that applied it has it undone.
                    assertThatThrownBy(() -> st.execute("CREATE DATABASE lost")).isInstanceOfSatisfying(SQLException.class,
                            e -> {
                                assertThat(e.getErrorCode()).isEqualTo(1158);
                                assertThat(e.getMessage()).contains("cannot connect to shard 1")
                                        .contains("the CREATE DATABASE was undone on shard(s) [0]")
                                        .doesNotContain(": null");
                            });
                    assertThatThrownBy(() -> st.execute("CREATE TABLE kept.t2 (id INT PRIMARY KEY)"))
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1158));
                }
                try (Connection s0 = daemon.connect(0); Statement st = s0.createStatement();
                     ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name"
                             + " = 'lost'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("the CREATE DATABASE left nothing on shard 0").isZero();
                }
                // Every table is unsharded with home shard 0 here: it is served as if nothing were wrong.
                try (Connection c = daemon.connectProxy("kept", ""); Statement st = c.createStatement()) {
                    st.executeUpdate("INSERT INTO t VALUES (1)");
                    try (ResultSet rs = st.executeQuery("SELECT id FROM t")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(1);
                    }
                }
                HttpResponse<String> status = daemon.admin("GET", "/v1/status", true);
                assertThat(status.body()).contains("\"ready\":false").contains("CRASH_LOOP").contains("listening");
            }
        }
    }

    @Test
    void aDefaultShardThatCannotStartLeavesClientsLoggingInAndTheOtherShardsServed() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2)
                .extraYaml("""
                        sharding:
                          keyspaces:
                            - { name: ks, function: hash, buckets: 16, key_type: integer }
                          tables:
                            - { name: kv, keyspace: ks, column: k }
                        """).create()) {
            try (RunningDaemon first = home.start();
                 Connection c = first.connectProxy("", ""); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE down0");
                st.execute("CREATE TABLE down0.kv (k INT PRIMARY KEY, v INT)");
                for (int k = 1; k <= 40; k++) {
                    st.executeUpdate("INSERT INTO down0.kv VALUES (" + k + ", " + k + ")");
                }
            }
            Path ibdata = home.root().resolve("data/shard-0/ibdata1");
            byte[] garbage = new byte[(int) Files.size(ibdata)];
            new Random(7).nextBytes(garbage);
            Files.write(ibdata, garbage);

            try (RunningDaemon daemon = home.start()) {
                assertThat(daemon.status(0).state()).isEqualTo(InstanceState.CRASH_LOOP);
                int readOnShard1 = 0;
                try (Connection c = daemon.connectProxy("down0", "connectTimeout=20000&socketTimeout=30000");
                     Statement st = c.createStatement()) {
                    // The driver's reads of session settings at login, and the check of its database,
                    // are answered by a shard that is up.
                    for (int k = 1; k <= 40; k++) {
                        try (ResultSet rs = st.executeQuery("SELECT v FROM kv WHERE k = " + k)) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getInt(1)).isEqualTo(k);
                            readOnShard1++;
                        } catch (SQLException e) {
                            assertThat(e.getMessage()).as("a key of shard 0").contains("hard 0");
                        }
                    }
                    assertThat(readOnShard1).as("keys of shard 1 read").isPositive();
                    // Writes to sharded tables wait for the global unique keys, kept on the default shard.
                    assertThatThrownBy(() -> st.executeUpdate("UPDATE kv SET v = 0 WHERE k = 1"))
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage()).contains("shard 0"));
                }
            }
        }
    }
}
