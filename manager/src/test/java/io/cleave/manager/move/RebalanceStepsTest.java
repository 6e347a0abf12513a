package io.cleave.manager.move;

import io.cleave.router.shardmap.KeySet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RebalanceStepsTest {

    private static RebalanceSteps steps(int shards, RebalanceSteps.Unit... units) {
        return new RebalanceSteps("uid", new ArrayList<>(List.of(units)), shards, false, u -> u.keys);
    }

    private static RebalanceSteps.Unit buckets(int from, int to, int shard, long rows) {
        return new RebalanceSteps.Unit(new KeySet.Buckets(from, to), shard, rows);
    }

    @Test
    void aNewShardGetsKeysWhenTheShardThatReceivedTheFirstStepIsTheFullest() throws Exception {
        // A scale from 2 to 3 shards after every bucket was moved to shard 1: the first step gives shard 0 the larger
        // run, which leaves shard 0 (only keys this plan moved) the fullest. Shard 1 must still give shard 2 its
        // share; stopping there left the new shard with nothing.
        RebalanceSteps planning = steps(3, buckets(0, 31, 1, 4), buckets(32, 63, 1, 96));
        List<RebalancePlan.Step> plan = planning.plan();
        assertThat(plan).extracting(RebalancePlan.Step::to).contains(0, 2);
        long[] loads = planning.loads();
        assertThat(loads[2]).as("rows the new shard gets").isPositive();
        assertThat(plan).extracting(RebalancePlan.Step::from).containsOnly(1);
    }

    @Test
    void noKeysMoveTwiceInOnePlan() throws Exception {
        RebalanceSteps planning = steps(4, buckets(0, 63, 0, 1000));
        List<RebalancePlan.Step> plan = planning.plan();
        assertThat(plan).isNotEmpty();
        List<KeySet> moved = plan.stream().map(s -> bucketsOf(s.keys())).toList();
        for (int i = 0; i < moved.size(); i++) {
            for (int j = i + 1; j < moved.size(); j++) {
                assertThat(moved.get(i).overlaps(moved.get(j))).as(plan.get(i) + " and " + plan.get(j)).isFalse();
            }
        }
        assertThat(plan).extracting(RebalancePlan.Step::from).containsOnly(0);
    }

    private static KeySet bucketsOf(String text) {
        String[] range = text.substring("bucket:".length()).split("-");
        return new KeySet.Buckets(Integer.parseInt(range[0]), Integer.parseInt(range[range.length - 1]));
    }

    @Test
    void evenShardsPlanNothing() throws Exception {
        assertThat(steps(2, buckets(0, 31, 0, 100), buckets(32, 63, 1, 105)).plan()).isEmpty();
    }

    @Test
    void twoFullShardsBothGiveToTwoNewOnes() throws Exception {
        RebalanceSteps planning = steps(4, buckets(0, 31, 0, 100), buckets(32, 63, 1, 100));
        planning.plan();
        long[] loads = planning.loads();
        for (int s = 0; s < 4; s++) {
            assertThat(loads[s]).as("shard " + s).isBetween(20L, 80L);
        }
    }
}
