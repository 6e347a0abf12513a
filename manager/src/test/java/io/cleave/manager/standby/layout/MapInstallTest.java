package io.cleave.manager.standby.layout;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
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
    void anImportsSourceIsDroppedOnceItsCutoverPlacedEveryTableOnTheShards() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Topology topology = tpcc.sharding().topology();
        ShardMap map = ShardMap.initial(topology, tpcc.sharding().explicitAssignments());
        // Attached as server 4, its tables homed there and frozen for move 7 (ImportService.attach).
        ShardMap attached = map.withAttached("mysql://app@db1:3306/shop")
                .withRule(new TableRule.Unsharded("orders", 4))
                .withRule(new TableRule.Unsharded("notes", 4))
                .withMovingTables(List.of("orders", "notes"), 7);
        // Before the cutover the source holds the rows: kept, and the map refused.
        assertThat(MapInstall.withoutUnrouted(attached).attached()).hasSize(1);
        assertThat(MapInstall.unfit(MapInstall.withoutUnrouted(attached), topology, 4))
                .contains("had not reached its cutover");
        // The cutover's flip: every table placed on the local shards; the move not ended, the source not detached.
        ShardMap flipped = attached.withRule(new TableRule.Sharded("orders", "warehouse", "o_w_id"))
                .withRule(new TableRule.Unsharded("notes", 2));
        ShardMap installed = MapInstall.withoutUnrouted(flipped);
        assertThat(installed.attached()).isEmpty();
        assertThat(MapInstall.unfit(installed, topology, 4)).isNull();
        assertThat(installed.rules()).isEqualTo(flipped.rules());
        assertThat(installed.movingTables()).isEqualTo(flipped.movingTables());
        // One table still homed on the source: nothing dropped.
        assertThat(MapInstall.withoutUnrouted(flipped.withRule(new TableRule.Unsharded("notes", 4))).attached()).hasSize(1);
    }

    @Test
    void anImportCutShortBeforeItsCutoverIsDroppedAndItsDatabaseRefused() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Topology topology = tpcc.sharding().topology();
        ShardMap map = ShardMap.initial(topology, tpcc.sharding().explicitAssignments())
                .withRule(new TableRule.Unsharded("settings", 1));
        // Attached as server 4, its tables and view homed there and frozen for move 7 (ImportService.attach).
        ShardMap attached = map.withAttached("mysql://app@db1:3306/Shop")
                .withRule(new TableRule.Unsharded("Orders", 4))
                .withRule(new TableRule.Unsharded("order_view", 4))
                .withMovingTables(List.of("orders", "order_view"), 7).asVersion(12);

        List<UnfinishedImport> unfinished = UnfinishedImport.in(MapInstall.withoutUnrouted(attached));
        assertThat(unfinished).hasSize(1);
        assertThat(unfinished.get(0).database()).as("as the source names it").isEqualTo("Shop");
        assertThat(unfinished.get(0).names()).containsExactlyInAnyOrder("orders", "order_view");
        assertThat(unfinished.get(0).moves()).containsExactly(7L);

        ShardMap settled = UnfinishedImport.settle(attached, unfinished).asVersion(12);
        assertThat(MapInstall.unfit(settled, topology, 4)).as("routable here").isNull();
        assertThat(settled.attached()).isEmpty();
        assertThat(settled.rules()).as("the import's rules gone, the others kept")
                .containsOnlyKeys("settings");
        assertThat(settled.movingTables()).isEmpty();
        assertThat(settled.refusedDatabases()).containsOnlyKeys("Shop");
        assertThat(settled.refusedDatabases().get("Shop")).contains("mysql://app@db1:3306/Shop")
                .contains("cut short by a failover").contains("the source still holds the database")
                .contains("its tables are set aside (a view or routine of another database that reads them fails")
                .contains("'cleave import --from mysql://app:PASSWORD@db1:3306/Shop'");
        assertThat(settled.buckets("warehouse")).isEqualTo(attached.buckets("warehouse"));

        // After the cutover nothing is left to settle; without an import neither.
        ShardMap flipped = attached.withRule(new TableRule.Unsharded("orders", 2)).withRule(new TableRule.Unsharded(
                "order_view", 2));
        assertThat(UnfinishedImport.in(MapInstall.withoutUnrouted(flipped))).isEmpty();
        assertThat(UnfinishedImport.in(map)).isEmpty();
        assertThat(UnfinishedImport.settle(map, List.of())).isSameAs(map);
    }

    @Test
    void whatWasInstalledReadsAsTheOperatorNeedsIt() {
        assertThat(new MapInstall.Installed(3, 9, "replicated from the primary"))
                .hasToString("version 9 (replicated from the primary; was 3)");
        assertThat(new MapInstall.Installed(3, 3, "the seed's; the primary wrote none since"))
                .hasToString("version 3 (the seed's; the primary wrote none since)");
        assertThat(new MapInstall.Installed(3, 9, "replicated from the primary", "the import of mysql://app@db1:3306/shop"
                + " had not reached its cutover: its tables here set aside, database shop refused until imported again"))
                .hasToString("version 9 (replicated from the primary; was 3); the import of mysql://app@db1:3306/shop had"
                        + " not reached its cutover: its tables here set aside, database shop refused until imported again");
    }
}
