package io.cleave.manager.standby.layout;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyState;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class LayoutGuardTest {

    @TempDir
    Path tmp;

    @Test
    void aScaleNeedsTheStandbysDaemonWhileAStandbyIsCountedOn() {
        CleaveHome home = new CleaveHome(tmp);
        home.createDirectories();
        LayoutGuard guard = new LayoutGuard(home, () -> new ShardMap(1, 2, Map.of("k", new int[] {0, 1})), () -> false);
        assertThat(guard.scaleRefusal(2, 3, null)).as("no standby").isNull();
        assertThat(guard.scaleRefusal(3, 2, null)).as("no standby").isNull();

        StandbyState.file(home).save(new StandbyState(HostRole.PRIMARY, 1, null, true));
        assertThat(guard.scaleRefusal(2, 3, Duration.ofSeconds(2))).as("the standby's daemon asked 2 s ago").isNull();
        assertThat(guard.scaleRefusal(2, 3, null)).as("not heard from since the start")
                .startsWith("a standby is attached (semi-sync on) and its daemon has not asked for this home's shards"
                        + " since this daemon started").contains("'cleave standby --semi-sync off'");
        assertThat(guard.scaleRefusal(2, 3, Duration.ofSeconds(11))).contains("has not asked for this home's shards for 11 s");
        // A scale down too: the standby's daemon lets go of its replicas of the shards that go.
        assertThat(guard.scaleRefusal(3, 2, Duration.ofSeconds(1))).as("scale down, the standby's daemon heard").isNull();
        assertThat(guard.scaleRefusal(3, 2, null)).as("scale down, not heard from since the start")
                .contains("its daemon has not asked for this home's shards since this daemon started")
                .contains("lets go of its replicas of the shards a scale down takes away");
        assertThat(guard.scaleRefusal(3, 2, Duration.ofSeconds(11))).as("scale down, silent")
                .contains("has not asked for this home's shards for 11 s");

        // The operator let the primary go on without it, or this is a promoted home without a standby yet.
        StandbyState.file(home).save(new StandbyState(HostRole.PRIMARY, 2, null, false));
        assertThat(guard.scaleRefusal(2, 3, null)).isNull();
        assertThat(guard.scaleRefusal(3, 2, null)).isNull();
    }

    @Test
    void aStandbyCannotAttachWhileAScaleAMoveOrAnImportIsUnderWay() {
        CleaveHome home = new CleaveHome(tmp);
        AtomicBoolean scaling = new AtomicBoolean();
        ShardMap plain = new ShardMap(1, 2, Map.of("k", new int[] {0, 1}));
        AtomicReference<ShardMap> map = new AtomicReference<>(plain);
        LayoutGuard guard = new LayoutGuard(home, map::get, scaling::get);
        assertThat(guard.attachRefusal()).isNull();
        scaling.set(true);
        assertThat(guard.attachRefusal()).startsWith("a scale is under way");
        scaling.set(false);
        map.set(plain.withMovingTables(List.of(ShardMap.EVERY_TABLE), 4));
        assertThat(guard.attachRefusal()).startsWith("a scale is under way");
        map.set(plain.withGhost(new io.cleave.router.shardmap.Ghost("k", new io.cleave.router.shardmap.KeySet.Keys(1, 5),
                1, 7)));
        assertThat(guard.attachRefusal()).startsWith("a move is under way (the shard map has rows of moves [7]");
        map.set(plain.withMovingTables(List.of("t"), 8));
        assertThat(guard.attachRefusal()).startsWith("a move is under way (the shard map has rows of moves [8]");
        map.set(plain.withAttached("mysql://10.0.0.9:3306/shop"));
        assertThat(guard.attachRefusal()).startsWith("an import is under way");
    }

    @Test
    void aSwitchoverWaitsWhileTheMapHoldsMovesNotSettled() {
        ShardMap plain = new ShardMap(1, 2, Map.of("k", new int[] {0, 1}));
        AtomicReference<ShardMap> map = new AtomicReference<>(plain);
        LayoutGuard guard = new LayoutGuard(new CleaveHome(tmp), map::get, () -> false);
        assertThat(guard.movesInMap()).isNull();
        // A promoted home's leftover ghost whose clean-up has not run: the new primary would clear it under the old
        // primary's forwarding proxy.
        map.set(plain.withGhost(new io.cleave.router.shardmap.Ghost("k", new io.cleave.router.shardmap.KeySet.Keys(1, 5),
                1, 7)).withMovingTables(List.of("t"), 8));
        assertThat(guard.movesInMap()).isEqualTo("the shard map holds rows or tables of moves [7, 8] not settled yet"
                + " ('cleave moves')");
    }
}
