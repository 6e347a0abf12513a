package io.cleave.manager.standby.layout;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MapInstallTest {

    @Test
    void aReplicatedMapIsInstalledOnlyWhenThisHomeHasEveryShardAndServerItNames() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Topology topology = tpcc.sharding().topology();
        ShardMap map = ShardMap.initial(topology, tpcc.sharding().explicitAssignments());
        assertThat(MapInstall.unfit(map.withBucketsMoved("warehouse", List.of(3), 0), topology, 4)).isNull();
        assertThat(MapInstall.unfit(map.withShardCount(5), topology, 4)).isEqualTo("names 5 shards, this home has 4");
        // A scale adding shard 4, before its flip: this home runs its replica of the new shard already.
        assertThat(MapInstall.unfit(map, topology, 5)).isNull();
        assertThat(MapInstall.unfit(map.withMovingTables(List.of(ShardMap.EVERY_TABLE), 7), topology, 5)).isNull();
        assertThat(MapInstall.unfit(map.withAttached("mysql://10.0.0.9:3306/shop"), topology, 4))
                .startsWith("routes to attached servers");
        ShardMap other = new ShardMap(2, 4, Map.of("tenant", new int[] {0, 1, 2, 3}));
        assertThat(MapInstall.unfit(other, topology, 4)).contains("holds keyspaces [tenant]");
    }

    @Test
    void whatWasInstalledReadsAsTheOperatorNeedsIt() {
        assertThat(new MapInstall.Installed(3, 9, "replicated from the primary"))
                .hasToString("version 9 (replicated from the primary; was 3)");
        assertThat(new MapInstall.Installed(3, 3, "the seed's; the primary wrote none since"))
                .hasToString("version 3 (the seed's; the primary wrote none since)");
    }
}
