package io.cleave.manager.standby.layout;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.unique.LookupFill;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class UnfinishedImportTest {

    @TempDir
    Path tmp;

    @Test
    void aRefusedDatabaseDroppedByAClientIsServedAgainInTheNextVersionOnDisk() {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Topology topology = tpcc.sharding().topology();
        ShardMapStore store = new ShardMapStore(tmp.resolve("shard-map.json"));
        ShardMap refused = store.loadOrCreate(tpcc.sharding(), tpcc.source()).withRefusedDatabase("shop", "cut short")
                .withRefusedDatabase("crm", "cut short too");
        store.save(refused, topology);
        ShardMapHolder holder = new ShardMapHolder(refused);
        MapUpdates maps = new MapUpdates(holder, store, topology);
        // No shard runs here: dropping the held tables fails on each, which must not keep the name refused.
        List<Integer> asked = new ArrayList<>();
        LookupFill.Shards none = shard -> {
            asked.add(shard);
            throw new SQLException("shard " + shard + " is not running");
        };

        assertThat(UnfinishedImport.dropped(maps, none, "other")).as("a database never refused").isFalse();
        assertThat(holder.current().version()).isEqualTo(refused.version());
        assertThat(UnfinishedImport.dropped(maps, none, "Shop")).as("names are exact").isFalse();

        assertThat(UnfinishedImport.dropped(maps, none, "shop")).isTrue();
        assertThat(holder.current().version()).isEqualTo(refused.version() + 1);
        assertThat(holder.current().refusedDatabases()).containsOnlyKeys("crm");
        assertThat(asked).as("its held tables dropped on every shard, only for the refused name")
                .hasSize(refused.shardCount()).doesNotHaveDuplicates();
        assertThat(store.read().refusedDatabases()).as("written before it is published").containsOnlyKeys("crm");
        assertThat(UnfinishedImport.dropped(maps, none, "shop")).as("once").isFalse();
    }
}
