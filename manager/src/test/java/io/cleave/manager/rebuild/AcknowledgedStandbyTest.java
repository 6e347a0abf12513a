package io.cleave.manager.rebuild;

import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AcknowledgedStandbyTest {

    private static ShardReplication replica(int shard, String io, String sql) {
        return new ShardReplication(shard, io, sql, 0, null, "0-2000-5", "0-2000-5", true, "ON", 0, 0, 0, "off");
    }

    private static ShardReplication primaryShard(int shard, long clients) {
        return new ShardReplication(shard, null, null, -1, null, "0-2000-5", "", false, clients > 0 ? "ON" : "OFF",
                clients, 0, 0, null);
    }

    private static StandbyReport standby(ShardReplication... shards) {
        return new StandbyReport(HostRole.STANDBY, 2, "http://b:6034", true, List.of(shards), null, null, null);
    }

    private static StandbyReport primary(boolean semiSync, ShardReplication... shards) {
        return new StandbyReport(HostRole.PRIMARY, 2, null, semiSync, List.of(shards), null, null, null);
    }

    @Test
    void doneOnceEveryReplicaRunsAndEachPrimaryShardCountsIt() {
        StandbyReport running = standby(replica(0, "Yes", "Yes"), replica(1, "Yes", "Yes"));
        assertThat(AcknowledgedStandby.done(running, primary(true, primaryShard(0, 1), primaryShard(1, 1)))).isTrue();
        assertThat(AcknowledgedStandby.done(running, primary(true, primaryShard(0, 1), primaryShard(1, 0))))
                .as("shard 1's commits would not wait for it").isFalse();
        assertThat(AcknowledgedStandby.done(running, primary(false, primaryShard(0, 1), primaryShard(1, 1)))).isFalse();
        assertThat(AcknowledgedStandby.awaited(running, primary(false, primaryShard(0, 0), primaryShard(1, 0))))
                .contains("waiting for the primary to turn semi-sync on");
    }

    @Test
    void notDoneWhileAReplicaConnectsOrNoneWasRead() {
        StandbyReport connecting = standby(replica(0, "Yes", "Yes"), replica(1, "Connecting", "Yes"));
        assertThat(AcknowledgedStandby.done(connecting, primary(true, primaryShard(0, 1), primaryShard(1, 1)))).isFalse();
        assertThat(AcknowledgedStandby.awaited(connecting, primary(true))).isEqualTo(
                "waiting for the replicas to run: shard 1 (IO Connecting, SQL Yes)");
        assertThat(AcknowledgedStandby.done(standby(), primary(true))).isFalse();
        assertThat(AcknowledgedStandby.awaited(standby(), primary(true))).contains("none read yet");
    }
}
