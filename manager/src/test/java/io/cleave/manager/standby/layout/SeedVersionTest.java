package io.cleave.manager.standby.layout;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SeedVersionTest {

    @org.junit.jupiter.api.io.TempDir
    Path tmp;

    @Test
    void aSeededStandbyCountsThePrimarysVersionsNotTheRestoresOwn() throws Exception {
        Path config = Path.of("..", "config", "tpcc.yaml");
        CleaveConfig tpcc = ConfigLoader.load(config);
        Topology topology = tpcc.sharding().topology();
        ShardMap atCut = ShardMap.initial(topology, tpcc.sharding().explicitAssignments()).asVersion(5);
        io.cleave.manager.home.CleaveHome home = new io.cleave.manager.home.CleaveHome(tmp);
        home.createDirectories();
        ShardMapStore store = new ShardMapStore(home.shardMapFile());
        store.save(atCut.asVersion(6), topology);  // as a restore numbers it
        SeedVersion.keepPrimarys(home, config, new String(ShardMapStore.render(atCut, topology), UTF_8));
        // The primary's next version, 6, is then newer than the standby's and a promotion installs it.
        org.assertj.core.api.Assertions.assertThat(store.read()).isEqualTo(atCut);
    }

    @Test
    void aSeedWhoseCutCaughtAMoveFails() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Topology topology = tpcc.sharding().topology();
        ShardMap map = ShardMap.initial(topology, tpcc.sharding().explicitAssignments());
        SeedVersion.refuseMoveAtCut(new String(ShardMapStore.render(map, topology),
                UTF_8));
        ShardMap moving = map.withGhost(new Ghost("warehouse",
                new KeySet.Keys(1, 5), 1, 12));
        assertThatThrownBy(() -> SeedVersion.refuseMoveAtCut(new String(
                        ShardMapStore.render(moving, topology), UTF_8)))
                .hasMessageStartingWith("the seed's cut caught moves [12] under way on the primary");
    }
}
