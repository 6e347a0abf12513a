package io.cleave.manager.move;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MapUpdatesTest {

    @TempDir
    Path tmp;
    private ShardMapStore store;
    private ShardMapHolder holder;
    private MapUpdates maps;

    /** TPC-C's config: version 1 in the file, routers on it. */
    @org.junit.jupiter.api.BeforeEach
    void tpccMap() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        store = new ShardMapStore(tmp.resolve("shard-map.json"));
        holder = new ShardMapHolder(store.loadOrCreate(tpcc.sharding(), tpcc.source()));
        maps = new MapUpdates(holder, store, tpcc.sharding().topology());
    }

    @Test
    void theHookSeesEachVersionWrittenBeforeRoutersDoAndItsFailurePublishesNothing() {
        List<String> seen = new ArrayList<>();
        maps.beforePublish((current, next) -> {
            // The file holds the next version already; routers still follow the current one.
            seen.add(current.version() + "->" + next.version() + " file " + store.read().version() + " routers "
                    + holder.current().version());
        });
        ShardMap second = maps.update(m -> m.withBucketsMoved("warehouse", List.of(3), 0));
        assertThat(seen).containsExactly("1->2 file 2 routers 1");
        assertThat(holder.current()).isEqualTo(second);

        maps.beforePublish((current, next) -> {
            throw new IllegalStateException("the default shard is down");
        });
        assertThatThrownBy(() -> maps.update(m -> m.withBucketsMoved("warehouse", List.of(2), 0)))
                .hasMessageContaining("the default shard is down");
        assertThat(holder.current()).as("routers keep the version they had").isEqualTo(second);
        assertThat(store.read()).as("the file is back at it: a restart routes as the routers did").isEqualTo(second);
    }

    @Test
    void aNewerVersionFromElsewhereIsAdoptedWhole() {
        ShardMap first = holder.current();
        List<Long> published = new ArrayList<>();
        holder.onPublish(m -> published.add(m.version()));
        ShardMap primarys = first.withBucketsMoved("warehouse", List.of(3), 0).asVersion(7);
        maps.adopt(primarys);
        assertThat(holder.current()).isEqualTo(primarys);
        assertThat(store.read()).isEqualTo(primarys);
        assertThat(published).containsExactly(7L);
        assertThatThrownBy(() -> maps.adopt(first.asVersion(7))).hasMessageContaining("not newer than 7");
        assertThat(maps.update(m -> m.withBucketsMoved("warehouse", List.of(3), 3)).version())
                .as("versions go on from the adopted one").isEqualTo(8);
    }
}
