package io.cleave.e2e.lifecycle;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Two real embedded MariaDB shards: start, answer, survive kill -9, stop without leaving a process. */
@ServerMatrix
class LifecycleIT {

    @Test
    void initUpKillRestartAndDown() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            try (RunningDaemon daemon = home.start()) {
                for (int shard = 0; shard < 2; shard++) {
                    InstanceStatus s = daemon.status(shard);
                    assertThat(s.state()).isEqualTo(InstanceState.RUNNING);
                    assertThat(s.serverVersion()).contains("MariaDB");
                    assertThat(s.bufferPoolBytes()).isEqualTo(64L << 20);
                    assertThat(answer(daemon, shard)).isEqualTo((1000 + shard) + "/" + (home.basePort() + shard));
                    assertThat(daemon.querySocket(shard, "SELECT CONCAT(@@server_id, '/', CURRENT_USER())"))
                            .isEqualTo((1000 + shard) + "/cleave@localhost");
                }
                try (Connection c = daemon.connect(0); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT @@binlog_format, @@log_bin, @@innodb_flush_neighbors, @@bind_address")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("ROW");
                    assertThat(rs.getInt(2)).isEqualTo(1);
                    // 0 on flash, the server's default 1 where the device says it is rotational (a virtual disk may)
                    String planned = daemon.daemon().plan().instances().get(0).settings().stream()
                            .filter(x -> x.option().equals("innodb_flush_neighbors")).findFirst().orElseThrow().value();
                    assertThat(rs.getString(3)).isEqualTo(planned);
                    assertThat(rs.getString(4)).isEqualTo("127.0.0.1");
                }
                assertThat(Files.getPosixFilePermissions(home.home().shardSecretFile()))
                        .hasSize(2);

                checkAdminApi(daemon);

                long oldPid = daemon.status(1).pid();
                ProcessHandle.of(oldPid).orElseThrow().destroyForcibly();
                InstanceStatus restarted = daemon.awaitStatus(1,
                        s -> s.state() == InstanceState.RUNNING && s.pid() != null && s.pid() != oldPid, Duration.ofSeconds(60));
                assertThat(restarted.restarts()).isEqualTo(1);
                assertThat(restarted.lastError()).contains("exited with exit code 137");
                assertThat(answer(daemon, 1)).isEqualTo("1001/" + (home.basePort() + 1));
                assertThat(daemon.status(0).restarts()).as("the other shard is untouched").isZero();
                assertThat(daemon.admin("GET", "/metrics", false).body())
                        .contains("cleave_instance_restarts_total{instance=\"shard-1\"} 1.0");
            }
            assertThat(home.serverPids()).as("no server of this home survives down").isEmpty();
            for (int shard = 0; shard < 2; shard++) {
                assertThat(home.home().run().resolve("shard-" + shard + ".sock")).doesNotExist();
                assertThat(home.home().run().resolve("shard-" + shard + ".pid")).doesNotExist();
            }
            assertThat(home.home().daemonInfoFile()).doesNotExist();
        }
    }

    private static void checkAdminApi(RunningDaemon daemon) throws Exception {
        HttpResponse<String> status = daemon.admin("GET", "/v1/status", true);
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(status.body()).contains("\"ready\":true").contains("\"name\":\"shard-1\"").contains("\"state\":\"RUNNING\"");
        assertThat(daemon.admin("GET", "/v1/status", false).statusCode()).isEqualTo(401);
        assertThat(daemon.admin("POST", "/v1/shutdown", false).statusCode()).isEqualTo(401);
        HttpResponse<String> metrics = daemon.admin("GET", "/metrics", false);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("cleave_instance_state{instance=\"shard-0\",state=\"RUNNING\"} 1.0")
                .contains("cleave_instance_state{instance=\"shard-0\",state=\"CRASH_LOOP\"} 0.0")
                .contains("cleave_instance_restarts_total{instance=\"shard-0\"} 0.0")
                .contains("cleave_instance_uptime_seconds{instance=\"shard-0\"}")
                .contains("cleave_instance_probe_seconds_count{instance=\"shard-0\",outcome=\"ok\"}");
    }

    private static String answer(RunningDaemon daemon, int shard) throws Exception {
        try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CONCAT(@@server_id, '/', @@port)")) {
            rs.next();
            return rs.getString(1);
        }
    }

    static boolean exists(Path p) {
        return Files.exists(p);
    }
}
