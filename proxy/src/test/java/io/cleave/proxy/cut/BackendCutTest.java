package io.cleave.proxy.cut;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.FakeShard;
import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cut over the proxy's own connections, on scripted shards: the snapshots open in one round trip
 * once the window is ready, and each shard's binlog position at its snapshot is read after (none
 * from a server without binlog_snapshot_*).
 */
class BackendCutTest {

    private final FakeShard[] shards = {new FakeShard(0), new FakeShard(1)};
    private final EmbeddedChannel loopChannel = new EmbeddedChannel();
    private final CutWindows windows = new CutWindows(CutMetrics.NONE);

    @Test
    void aCutOpensASnapshotOnEveryShardAndReadsWhereEachBinlogStoodThere() {
        shards[0].answer(SnapshotStatements.POSITION, ShardReply.rows(List.of(column("file", ColumnType.VAR_STRING),
                column("position", ColumnType.VAR_STRING), column("gtid", ColumnType.VAR_STRING)),
                new String[] {"bin.000001", "1592", "0-1001-7"}));
        shards[1].answer(SnapshotStatements.POSITION, ShardReply.error(1109, "42S02",
                "Unknown table 'SESSION_STATUS' in information_schema"));

        BackendCut.Outcome outcome = take(true);

        assertThat(outcome).isInstanceOf(BackendCut.Taken.class);
        Cut<BackendConnection> cut = ((BackendCut.Taken) outcome).cut();
        assertThat(cut.on(0).position()).isEqualTo(new BinlogPosition("bin.000001", 1592, "0-1001-7"));
        assertThat(cut.on(1).position()).as("a server without binlog_snapshot_*: the snapshot stands, no position")
                .isNull();
        assertThat(cut.on(1).connection().shard()).isEqualTo(1);
        for (FakeShard s : shards) {
            assertThat(s.queries()).containsExactly("START TRANSACTION WITH CONSISTENT SNAPSHOT", SnapshotStatements.POSITION);
        }
        assertThat(windows.windowOpen()).isFalse();
    }

    @Test
    void aShardThatRefusesItsSnapshotFailsTheCutWithItsErrorAndHandsBackWhatItGot() {
        shards[1].answer("START TRANSACTION WITH CONSISTENT SNAPSHOT", ShardReply.error(1205, "HY000", "Lock wait timeout"));

        BackendCut.Outcome outcome = take(false);

        assertThat(outcome).isInstanceOf(BackendCut.Failed.class);
        BackendCut.Failed failed = (BackendCut.Failed) outcome;
        assertThat(failed.error().errorCode()).isEqualTo(1205);
        assertThat(failed.connections()).hasSize(2);
        assertThat(windows.windowOpen()).isFalse();
    }

    private BackendCut.Outcome take(boolean positions) {
        AtomicReference<BackendCut.Outcome> result = new AtomicReference<>();
        EventLoop loop = loopChannel.eventLoop();
        BackendCut.take(windows, List.of(new BackendCut.ShardOpening(0, SnapshotStatements.READ.subList(1, 2)),
                new BackendCut.ShardOpening(1, SnapshotStatements.READ.subList(1, 2))), positions,
                new BackendCut.Connections() {
                    @Override
                    public Executor executor() {
                        return loop;
                    }

                    @Override
                    public void connect(int shard, BackendCut.Connected then) {
                        then.ready(shards[shard].connect(loop, io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT, 0).getNow());
                    }

                    @Override
                    public boolean abandoned() {
                        return false;
                    }
                }, result::set);
        for (int round = 0; round < 100 && result.get() == null; round++) {
            loopChannel.runPendingTasks();
            for (FakeShard s : shards) {
                s.pump();
            }
        }
        return result.get();
    }
}
