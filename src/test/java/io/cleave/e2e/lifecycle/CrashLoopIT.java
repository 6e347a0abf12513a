package io.cleave.e2e.lifecycle;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A server that cannot start is retried a bounded number of times, then given up with the reason. */
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
}
