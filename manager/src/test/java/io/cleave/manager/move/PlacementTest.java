package io.cleave.manager.move;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlacementTest {

    private final HashShardFunction hash = new HashShardFunction(8, KeyType.INTEGER);
    private final ShardMap map = new ShardMap(1, 3, Map.of("h", new int[] {0, 0, 0, 1, 1, 2, 2, 2},
            "w", new int[] {0, 1}, "s", new int[] {1, 2, 0, 0}));

    @Test
    void aTableShardedByKeySendsEachRowWhereItsBucketIsAndKeepsTheSourcesOwn() {
        Placement.ByKey p = new Placement.ByKey("db.t", "h", hash, map, 0);
        for (long id = 1; id <= 200; id++) {
            int shard = map.shardOf("h", ShardKey.of(id), hash);
            int[] targets = p.targetsOf(String.valueOf(id));
            assertThat(targets).as("key %d", id).isEqualTo(shard == 0 ? new int[0] : new int[] {shard});
        }
        assertThat(p.targetsOf("17.0")).as("as the router converts literals").isEqualTo(p.targetsOf(17L));
        assertThat(p.uniform()).isFalse();
        assertThat(p.watches(null)).as("every change of the table concerns the move").isTrue();
    }

    @Test
    void stringKeysAreHashedAsTheRouterHashesThem() {
        HashShardFunction strings = new HashShardFunction(4, KeyType.STRING);
        Placement.ByKey p = new Placement.ByKey("db.t", "s", strings, map, 3);
        int shard = map.shardOf("s", ShardKey.ofString("Zürich "), strings);
        assertThat(p.targetsOf("ZURICH".getBytes(java.nio.charset.StandardCharsets.UTF_8))).containsExactly(shard);
    }

    @Test
    void aRowNoRangeCoversOrWithoutAKeyStopsTheMoveWithTheReason() {
        RangeShardFunction ranges = new RangeShardFunction(List.of(new KeyRange(1, 100), new KeyRange(101, 200)));
        Placement.ByKey p = new Placement.ByKey("db.t", "w", ranges, map, 0);
        assertThat(p.targetsOf("150")).containsExactly(1);
        assertThatThrownBy(() -> p.targetsOf("500")).hasMessageContaining("key 500, which no range of keyspace w covers");
        assertThatThrownBy(() -> p.targetsOf(null)).hasMessageContaining("no value in its sharding column");
        assertThatThrownBy(() -> p.targetsOf("abc")).hasMessageContaining("not an integer");
    }

    @Test
    void keysAndWholeTablesGoWhereTheySay() {
        Placement.Keys keys = new Placement.Keys("`w` BETWEEN 1 AND 50", new KeySet.Keys(1, 50),
                new RangeShardFunction(List.of(new KeyRange(1, 100))), 2);
        assertThat(keys.targetsOf("7")).containsExactly(2);
        assertThat(keys.watches(7L)).isTrue();
        assertThat(keys.watches(70L)).isFalse();
        assertThat(keys.onSource()).isEqualTo(keys.onTarget(2)).isEqualTo("`w` BETWEEN 1 AND 50");
        Placement.Whole copies = new Placement.Whole(new int[] {1, 2});
        assertThat(copies.targetsOf(null)).containsExactly(1, 2);
        assertThat(copies.onSource()).isEqualTo(Placement.ALL_ROWS);
        assertThat(copies.uniform()).isTrue();
    }
}
