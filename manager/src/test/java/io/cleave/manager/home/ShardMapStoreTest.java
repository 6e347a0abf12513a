package io.cleave.manager.home;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardMapStoreTest {

    @TempDir
    Path tmp;

    @Test
    void firstStartPersistsTheConfiguredAssignmentAndLaterStartsReadItBack() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        ShardMapStore store = new ShardMapStore(tmp.resolve("shard-map.json"));
        ShardMap first = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.buckets("warehouse")).containsExactly(0, 1, 2, 3);
        assertThat(Files.readString(tmp.resolve("shard-map.json")))
                .isEqualTo("{\"version\":1,\"shard_count\":4,\"keyspaces\":{\"warehouse\":{\"function\":\"range\",\"buckets\":4,\"assignment\":[0,1,2,3]}}}");

        ShardMap moved = first.withBucketsMoved("warehouse", List.of(3), 0);
        store.save(moved, tpcc.sharding().topology());
        assertThat(store.loadOrCreate(tpcc.sharding(), tpcc.source())).isEqualTo(moved);
    }

    @Test
    void splitRangesAndGhostsAreKeptAndAnOldFileStillLoads() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        Path file = tmp.resolve("shard-map.json");
        // A file as written before moves existed: no ranges, no ghosts.
        Files.writeString(file, "{\"version\":4,\"shard_count\":4,\"keyspaces\":{\"warehouse\":{\"function\":\"range\","
                + "\"buckets\":4,\"assignment\":[0,1,2,2]}}}");
        ShardMapStore store = new ShardMapStore(file);
        ShardMap old = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThat(old.version()).isEqualTo(4);
        assertThat(old.buckets("warehouse")).containsExactly(0, 1, 2, 2);
        assertThat(old.splitRanges()).isEmpty();

        io.cleave.router.keyspace.ShardFunction configured = tpcc.sharding().topology().keyspace("warehouse").function();
        ShardMap split = old.withKeysMoved("warehouse", new io.cleave.router.shardmap.KeySet.Keys(1, 10), configured, 3)
                .withGhost(new io.cleave.router.shardmap.Ghost("warehouse",
                        new io.cleave.router.shardmap.KeySet.Keys(1, 10), 0, 9));
        store.save(split, tpcc.sharding().topology());
        ShardMap back = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThat(back).isEqualTo(split);
        assertThat(back.shardOf("warehouse", io.cleave.router.keyspace.ShardKey.of(5), configured)).isEqualTo(3);
        assertThat(back.shardOf("warehouse", io.cleave.router.keyspace.ShardKey.of(11), configured)).isZero();
        assertThat(back.ghosts()).hasSize(1);
    }

    @Test
    void hashKeyspacesSpreadEvenlyWithoutExplicitShards() {
        CleaveConfig sysbench = ConfigLoader.load(Path.of("..", "config", "sysbench.yaml"));
        ShardMap map = new ShardMapStore(tmp.resolve("m.json")).loadOrCreate(sysbench.sharding(), sysbench.source());
        int[] buckets = map.buckets("sbtest");
        assertThat(buckets).hasSize(256);
        assertThat(buckets[0]).isZero();
        assertThat(buckets[64]).isEqualTo(1);
        assertThat(buckets[255]).isEqualTo(3);
    }

    @Test
    void aConfigThatNoLongerMatchesIsNamedClearly() {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        CleaveConfig sysbench = ConfigLoader.load(Path.of("..", "config", "sysbench.yaml"));
        ShardMapStore store = new ShardMapStore(tmp.resolve("shard-map.json"));
        store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThatThrownBy(() -> store.loadOrCreate(sysbench.sharding(), sysbench.source()))
                .isInstanceOf(ShardMapStore.ShardMapMismatchException.class)
                .hasMessageContaining("no longer matches")
                .hasMessageContaining("it holds keyspaces [warehouse], the config defines [sbtest]");
    }

    @Test
    void theStateNotTheConfigIsTheTruthAboutShardsAndRulesSetAtRunTime() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        ShardMapStore store = new ShardMapStore(tmp.resolve("shard-map.json"));
        assertThat(store.storedShardCount()).isEmpty();
        ShardMap first = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        ShardMap changed = first.withShardCount(6)
                .withRule(new io.cleave.router.topology.TableRule.Sharded("Orders", "warehouse", "o_w_id"))
                .withRule(new io.cleave.router.topology.TableRule.Reference("item"))
                .withRule(new io.cleave.router.topology.TableRule.Unsharded("settings", 5))
                .withAttached("mysql://app@db1:3306/shop")
                .withMovingTables(List.of("orders"), 7).asVersion(9);
        store.save(changed, tpcc.sharding().topology());
        ShardMap back = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThat(back).isEqualTo(changed);
        assertThat(store.storedShardCount()).hasValue(6);
        assertThat(back.attached()).containsExactly(new io.cleave.router.shardmap.AttachedShard(6, "mysql://app@db1:3306/shop"));
        assertThat(back.moveCopying("ORDERS")).isEqualTo(7L);
        io.cleave.router.topology.Topology routing = back.routing(tpcc.sharding().topology());
        assertThat(routing.shardCount()).as("local shards and the attached server").isEqualTo(7);
        assertThat(routing.ruleFor("orders")).isEqualTo(new io.cleave.router.topology.TableRule.Sharded("Orders",
                "warehouse", "o_w_id"));
        assertThat(routing.ruleFor("settings")).isEqualTo(new io.cleave.router.topology.TableRule.Unsharded("settings", 5));
        assertThat(routing.ruleFor("warehouse")).as("the config's rule where the state has none")
                .isEqualTo(tpcc.sharding().topology().ruleFor("warehouse"));
    }

    @Test
    void refusedDatabasesAreKeptWithTheMap() throws Exception {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        ShardMapStore store = new ShardMapStore(tmp.resolve("shard-map.json"));
        ShardMap refused = store.loadOrCreate(tpcc.sharding(), tpcc.source())
                .withRefusedDatabase("Shop", "its import was cut short").withRefusedDatabase("crm", "so was this one");
        store.save(refused, tpcc.sharding().topology());
        ShardMap back = store.loadOrCreate(tpcc.sharding(), tpcc.source());
        assertThat(back).isEqualTo(refused);
        assertThat(back.refusedDatabases()).containsOnlyKeys("Shop", "crm").containsEntry("Shop", "its import was cut short");
        ShardMap served = back.withoutRefusedDatabase("Shop");
        store.save(served, tpcc.sharding().topology());
        assertThat(store.loadOrCreate(tpcc.sharding(), tpcc.source()).refusedDatabases()).containsOnlyKeys("crm");
        assertThat(served).isNotEqualTo(back.asVersion(served.version()));
    }

    @Test
    void secretsAreOwnerOnlyAndStable() throws Exception {
        Path file = tmp.resolve("state/secret");
        String secret = Secrets.readOrCreate(file);
        assertThat(secret).matches("[0-9a-f]{32}");
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Secrets.readOrCreate(file)).isEqualTo(secret);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(Secrets.readOrCreate(file)).isEqualTo(secret);
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    }
}
