package io.cleave.router.plan;

import java.util.List;

/**
 * Re-aggregation of per-shard partial groups. With no keys, all rows form one group (an
 * aggregate without GROUP BY yields one row even when no shard has rows).
 *
 * @param having evaluated on the merged row, or null
 */
public record Grouping(List<GroupKey> keys, List<AggregateSpec> aggregates, Predicate having) {

    public Grouping {
        keys = List.copyOf(keys);
        aggregates = List.copyOf(aggregates);
    }
}
