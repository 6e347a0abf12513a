package io.cleave.e2e.lifecycle;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.supervisor.InstanceState;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A new daemon adopts the servers an earlier one left running, and cleans up after a host crash. */
@ServerMatrix
class AdoptionIT {

    @Test
    void restartedDaemonAdoptsRunningInstances() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            List<Long> pids;
            try (RunningDaemon first = home.start()) {
                pids = first.pids();
                first.closeLeavingInstancesRunning();
            }
            assertThat(home.serverPids().values()).containsExactlyInAnyOrderElementsOf(pids);

            try (RunningDaemon second = home.start()) {
                assertThat(second.pids()).as("adopted, not started again").isEqualTo(pids);
                for (int shard = 0; shard < 2; shard++) {
                    assertThat(second.status(shard).state()).isEqualTo(InstanceState.RUNNING);
                    assertThat(second.status(shard).adopted()).isTrue();
                    assertThat(serverId(second, shard)).isEqualTo(1000 + shard);
                }
                // An adopted server is supervised like our own: a crash is noticed and restarted.
                ProcessHandle.of(pids.get(0)).orElseThrow().destroyForcibly();
                second.awaitStatus(0, s -> s.state() == InstanceState.RUNNING && s.pid() != null
                        && !s.pid().equals(pids.get(0)), Duration.ofSeconds(60));
                assertThat(second.status(0).restarts()).isEqualTo(1);
            }
            assertThat(home.serverPids()).isEmpty();
        }
    }

    @Test
    void stalePidFilesAndSocketsAfterAHostCrashAreCleanedAndInstancesStartFresh() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(1).create()) {
            try (RunningDaemon first = home.start()) {
                assertThat(first.status(0).state()).isEqualTo(InstanceState.RUNNING);
            }
            // What a power loss leaves: a pid file naming a live process that is not the server
            // (this test's JVM), and a socket path that is a plain file.
            Path run = home.home().run();
            Files.writeString(run.resolve("shard-0.pid"), ProcessHandle.current().pid() + "\n");
            Files.writeString(run.resolve("shard-0.sock"), "");
            try (RunningDaemon second = home.start()) {
                assertThat(second.status(0).state()).isEqualTo(InstanceState.RUNNING);
                assertThat(second.status(0).adopted()).isFalse();
                assertThat(second.status(0).pid()).isNotEqualTo(ProcessHandle.current().pid());
                assertThat(serverId(second, 0)).isEqualTo(1000);
            }
            assertThat(ProcessHandle.current().isAlive()).isTrue();
            assertThat(home.serverPids()).isEmpty();
        }
    }

    private static int serverId(RunningDaemon daemon, int shard) throws Exception {
        try (Connection c = daemon.connect(shard); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT @@server_id")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
