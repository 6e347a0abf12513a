package io.cleave.manager.move;

import java.util.List;

/**
 * What {@code cleave rebalance} decided: each step moves keys from the fullest shard of a keyspace
 * to its emptiest, with why; {@code moves} are the ids started (empty on a dry run).
 *
 * @param before per keyspace, each shard's load (rows or bytes) as measured
 * @param after  the same once every step has run, as estimated
 */
public record RebalancePlan(String by, List<Step> steps, List<Load> before, List<Load> after, List<Long> moves) {

    public record Step(String keyspace, String keys, int from, int to, long amount, String why) {
    }

    public record Load(String keyspace, List<Long> perShard) {
    }
}
