package io.cleave.router.plan;

import java.util.List;

/**
 * How the proxy combines the results of one statement sent to several shards: re-aggregate
 * groups, drop duplicates, order, apply OFFSET/LIMIT, and show only the first
 * {@code visibleColumns} columns (the rest are helpers the rewrite added: weight strings,
 * AVG's counts, sort keys not in the select list).
 *
 * @param grouping null when the statement does not aggregate
 * @param offset   null when there is no LIMIT; else the original OFFSET (the shards got LIMIT offset+count)
 * @param count    null when there is no LIMIT
 */
public record MergeSpec(int visibleColumns, List<SortKey> order, Grouping grouping, boolean distinct,
                        ValueRef offset, ValueRef count) {

    public MergeSpec {
        order = List.copyOf(order);
    }

    public boolean hasLimit() {
        return count != null;
    }
}
