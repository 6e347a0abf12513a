package io.cleave.router.shardmap;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardMapRulesTest {

    private final Topology configured = new Topology(3, Map.of("h", new Keyspace("h", new HashShardFunction(6, KeyType.INTEGER))),
            Map.of("orders", new TableRule.Sharded("orders", "h", "id")), 0);
    private final ShardMap map = new ShardMap(1, 3, Map.of("h", new int[] {0, 0, 1, 1, 1, 1}));

    @Test
    void rulesSetAtRunTimeOverrideTheConfigsAndTheRoutingTopologyFollowsTheMap() {
        ShardMap next = map.withRule(new TableRule.Unsharded("Orders", 2)).withRule(new TableRule.Reference("item"));
        assertThat(next.version()).isEqualTo(3);
        Topology routing = next.routing(configured);
        assertThat(routing.ruleFor("orders")).isEqualTo(new TableRule.Unsharded("Orders", 2));
        assertThat(routing.ruleFor("ITEM")).isEqualTo(new TableRule.Reference("item"));
        assertThat(routing.ruleFor("other")).as("no rule: the default shard").isEqualTo(new TableRule.Unsharded("other", 0));
        assertThat(map.routing(configured).ruleFor("orders")).as("the old version keeps its rules")
                .isEqualTo(new TableRule.Sharded("orders", "h", "id"));
        assertThat(next.routing(configured)).as("derived once per version").isSameAs(routing);
    }

    @Test
    void anAttachedServerFollowsTheLocalShardsAndOnlyTheLastAttachedLeavesWhenNothingLivesThere() {
        ShardMap attached = map.withAttached("mysql://app@db1:3306/shop").withRule(new TableRule.Unsharded("t", 3));
        assertThat(attached.attached()).containsExactly(new AttachedShard(3, "mysql://app@db1:3306/shop"));
        assertThat(attached.isAttached(3)).isTrue();
        assertThat(attached.isAttached(2)).isFalse();
        assertThat(attached.routing(configured).shardCount()).as("a table homed there is valid").isEqualTo(4);
        assertThatThrownBy(() -> attached.withoutAttached(3)).hasMessageContaining("table t still lives on attached server 3");
        assertThatThrownBy(() -> attached.withShardCount(4)).hasMessageContaining("while mysql://app@db1:3306/shop is attached");
        ShardMap detached = attached.withRule(new TableRule.Unsharded("t", 1)).withoutAttached(3);
        assertThat(detached.attached()).isEmpty();
    }

    @Test
    void theShardCountChangesOnlyWhenNothingNamesAShardThatGoes() {
        assertThat(map.withShardCount(5).shardCount()).isEqualTo(5);
        assertThatThrownBy(() -> map.withShardCount(1)).hasMessageContaining("assigns keys to shard 1");
        ShardMap homed = map.withBucketsMoved("h", List.of(2, 3, 4, 5), 0).withRule(new TableRule.Unsharded("t", 2));
        assertThatThrownBy(() -> homed.withShardCount(2)).hasMessageContaining("table t still lives on shard 2");
        assertThat(homed.withRule(new TableRule.Unsharded("t", 1)).withShardCount(2).shardCount()).isEqualTo(2);
    }

    @Test
    void tablesBeingCopiedAreKnownByNameOrAllAtOnceAndTheOwnersOfAKeyspaceAreListed() {
        ShardMap moving = map.withMovingTables(List.of("Orders"), 7);
        assertThat(moving.moveCopying("ORDERS")).isEqualTo(7L);
        assertThat(moving.moveCopying("item")).isNull();
        assertThat(moving.withMovingTables(List.of(ShardMap.EVERY_TABLE), 8).moveCopying("item")).isEqualTo(8L);
        assertThat(moving.withoutMovingTables(7).movingTables()).isEmpty();
        assertThat(map.owners("h")).containsExactly(0, 1);
        assertThat(map.withBucketsMoved("h", List.of(0, 1), 1).owners("h")).containsExactly(1);
    }
}
