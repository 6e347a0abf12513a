package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardMapViewTest {
    /** Two shards; branch 1-3 moved to shard 1 (ranges split), bucket 5 of kv being copied to shard 1, kv_u1 re-homed. */
    private static final String MAP = """
        {"version": 7, "shard_count": 2,
         "keyspaces": {
           "branch": {"function": "range", "buckets": 3, "assignment": [1, 0, 1], "ranges": [[1, 3], [4, 1000], [1001, 9223372036854775807]]},
           "kv": {"function": "hash", "buckets": 64, "assignment": [%s]}},
         "ghosts": [
           {"keyspace": "kv", "keys": "bucket:5", "from": 5, "to": 5, "shard": 1, "move": 3},
           {"keyspace": "branch", "keys": "1-3", "from": 1, "to": 3, "shard": 0, "move": 2}],
         "rules": [{"table": "kv_u1", "rule": "unsharded", "shard": 1}, {"table": "kv_u2", "rule": "reference"}],
         "moving_tables": {"kv_u3": 4}}
        """;

    private static ShardMapView view(Path dir) throws Exception {
        StringBuilder assignment = new StringBuilder();
        for (int b = 0; b < 64; b++) {
            assignment.append(b == 0 ? "" : ",").append(b < 32 ? 0 : 1);
        }
        Path file = dir.resolve("shard-map.json");
        Files.writeString(file, MAP.formatted(assignment));
        return ShardMapView.read(file, new ChaosLayout(2, 0), Set.of());
    }

    @Test
    void ownersFollowTheMapsSplitRangesAndBuckets(@TempDir Path dir) throws Exception {
        ShardMapView map = view(dir);
        assertThat(map.version()).isEqualTo(7);
        assertThat(map.shardCount()).isEqualTo(2);
        assertThat(map.owner("branch", 2)).isEqualTo(1);
        assertThat(map.owner("branch", 4)).isEqualTo(0);
        assertThat(map.owner("branch", 1500)).isEqualTo(1);
        assertThat(map.owner("branch", 0)).isEqualTo(-1);
        // Key 7 hashes to bucket 13 of 64 (shard 0), key 2599 to bucket 26 (shard 0), key 1 to 38 (shard 1).
        assertThat(map.owner("kv", 7)).isZero();
        assertThat(map.owner("kv", 1)).isEqualTo(1);
    }

    @Test
    void rowsAreTheOwnersGhostsOfMovesOrMisplaced(@TempDir Path dir) throws Exception {
        ShardMapView map = view(dir);
        assertThat(map.where("accounts", 2, 1)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("accounts", 2, 0)).isEqualTo(ShardMapView.Where.GHOST);
        assertThat(map.where("entries", 5, 1)).isEqualTo(ShardMapView.Where.MISPLACED);
        assertThat(map.where("kv_u1", 9, 1)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("kv_u1", 9, 0)).isEqualTo(ShardMapView.Where.MISPLACED);
        assertThat(map.where("kv_u2", 9, 0)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("kv_u2", 9, 1)).isEqualTo(ShardMapView.Where.OWNER);
        // A table no rule names lives on shard 0; one being copied may sit on other shards meanwhile.
        assertThat(map.where("kv_u4", 9, 0)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("kv_u4", 9, 1)).isEqualTo(ShardMapView.Where.MISPLACED);
        assertThat(map.where("chaos.kv_u3", 9, 1)).isEqualTo(ShardMapView.Where.GHOST);
    }

    @Test
    void hashGhostsAreFoundByBucket(@TempDir Path dir) throws Exception {
        ShardMapView map = view(dir);
        long inBucket5 = -1;
        for (long k = 1; inBucket5 < 0; k++) {
            if (HashBuckets.bucketOf(k, 64) == 5) {
                inBucket5 = k;
            }
        }
        assertThat(map.where("kv_hashed", inBucket5, 0)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("kv_hashed", inBucket5, 1)).isEqualTo(ShardMapView.Where.GHOST);
        assertThat(map.where("kv_hashed", 1, 1)).isEqualTo(ShardMapView.Where.OWNER);
        assertThat(map.where("kv_hashed", 1, 0)).isEqualTo(ShardMapView.Where.MISPLACED);
    }
}
