package io.cleave.router.shardmap;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardKey;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardMapMovesTest {

    private final RangeShardFunction warehouses = new RangeShardFunction(List.of(
            new KeyRange(1, 100), new KeyRange(101, 200), new KeyRange(201, Long.MAX_VALUE)));
    private final ShardMap map = new ShardMap(1, 3, Map.of("w", new int[] {0, 1, 2}));

    @Test
    void movingPartOfARangeSplitsItAndTheMapBecomesTheTruthAboutBoundaries() {
        ShardMap moved = map.withKeysMoved("w", KeySet.parse("1-50", warehouses), warehouses, 1);
        assertThat(moved.version()).isEqualTo(2);
        assertThat(moved.splitRanges().get("w").ranges())
                .containsExactly(new KeyRange(1, 50), new KeyRange(51, 100), new KeyRange(101, 200),
                        new KeyRange(201, Long.MAX_VALUE));
        assertThat(moved.shardOf("w", ShardKey.of(50), warehouses)).isEqualTo(1);
        assertThat(moved.shardOf("w", ShardKey.of(51), warehouses)).isEqualTo(0);
        assertThat(moved.shardOf("w", ShardKey.of(150), warehouses)).isEqualTo(1);
        assertThat(map.shardOf("w", ShardKey.of(50), warehouses)).as("the old version is unchanged").isZero();
    }

    @Test
    void neighbouringRangesOnOneShardMerge() {
        ShardMap moved = map.withKeysMoved("w", new KeySet.Keys(51, 100), warehouses, 1);
        assertThat(moved.splitRanges().get("w").ranges())
                .containsExactly(new KeyRange(1, 50), new KeyRange(51, 200), new KeyRange(201, Long.MAX_VALUE));
        assertThat(moved.buckets("w")).containsExactly(0, 1, 2);
    }

    @Test
    void theSourceOfKeysIsTheOneShardHoldingAllOfThem() {
        assertThat(map.sourceOf("w", new KeySet.Keys(7, 7), warehouses)).isZero();
        assertThat(map.sourceOf("w", new KeySet.Keys(250, 10_000), warehouses)).isEqualTo(2);
        assertThatThrownBy(() -> map.sourceOf("w", new KeySet.Keys(90, 110), warehouses))
                .hasMessageContaining("lie on shards 0 and 1");
        ShardMap gap = new ShardMap(1, 2, Map.of("w", new int[] {0, 0}), Map.of("w", new RangeShardFunction(
                List.of(new KeyRange(1, 10), new KeyRange(20, 30)))), List.of());
        assertThatThrownBy(() -> gap.sourceOf("w", new KeySet.Keys(5, 25), warehouses))
                .hasMessageContaining("key 11 of 5-25 is outside every range");
        assertThatThrownBy(() -> gap.sourceOf("w", new KeySet.Keys(0, 3), warehouses))
                .hasMessageContaining("outside every range");
    }

    @Test
    void hashKeyspacesMoveBucketsAndKeySetsParseAsUsersWriteThem() {
        HashShardFunction hash = new HashShardFunction(8, KeyType.INTEGER);
        ShardMap h = new ShardMap(3, 2, Map.of("ids", new int[] {0, 0, 0, 0, 1, 1, 1, 1}));
        KeySet buckets = KeySet.parse("bucket:0-1", hash);
        assertThat(buckets).isEqualTo(new KeySet.Buckets(0, 1));
        ShardMap moved = h.withKeysMoved("ids", buckets, hash, 1);
        assertThat(moved.buckets("ids")).containsExactly(1, 1, 0, 0, 1, 1, 1, 1);
        long key = 0;
        while (hash.bucketOf(ShardKey.of(key)) != 0) {
            key++;
        }
        assertThat(buckets.contains(ShardKey.of(key), hash)).isTrue();
        assertThat(moved.shardOf("ids", ShardKey.of(key), hash)).isEqualTo(1);
        assertThat(KeySet.parse("7", warehouses)).isEqualTo(new KeySet.Keys(7, 7));
        assertThat(KeySet.parse("76-", warehouses)).isEqualTo(new KeySet.Keys(76, Long.MAX_VALUE));
        assertThatThrownBy(() -> KeySet.parse("1-50", hash)).hasMessageContaining("bucket:");
        assertThatThrownBy(() -> KeySet.parse("bucket:7-9", hash)).hasMessageContaining("outside buckets 0-7");
        assertThatThrownBy(() -> KeySet.parse("bucket:1", warehouses)).hasMessageContaining("moves keys");
        assertThatThrownBy(() -> KeySet.parse("9-3", warehouses)).hasMessageContaining("ends before it starts");
        assertThatThrownBy(() -> KeySet.parse("x", warehouses)).hasMessageContaining("not a key or a key range");
    }

    @Test
    void ghostsAreVersionedWithTheMap() {
        Ghost g = new Ghost("w", new KeySet.Keys(1, 50), 1, 7);
        ShardMap withGhost = map.withGhost(g);
        assertThat(withGhost.ghosts()).containsExactly(g);
        assertThat(withGhost.version()).isEqualTo(2);
        assertThat(withGhost.withoutGhosts(7).ghosts()).isEmpty();
        assertThat(new KeySet.Keys(1, 50).overlaps(new KeySet.Keys(50, 60))).isTrue();
        assertThat(new KeySet.Keys(1, 50).overlaps(new KeySet.Keys(51, 60))).isFalse();
        assertThat(new KeySet.Buckets(0, 3).overlaps(new KeySet.Buckets(3, 3))).isTrue();
    }
}
