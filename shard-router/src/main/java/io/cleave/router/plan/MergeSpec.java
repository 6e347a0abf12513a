package io.cleave.router.plan;

import java.util.List;

/**
 * How the proxy combines the results of one statement sent to several shards: re-aggregate
 * groups, drop duplicates, order, apply OFFSET/LIMIT, and hide the last {@code hiddenColumns}
 * columns (helpers the rewrite added: weight strings, AVG's counts, sort keys not in the select
 * list). Column numbers count from 0 at the left, or from -1 at the right for the helpers (the
 * width of {@code SELECT *} is only known when the result arrives).
 *
 * @param grouping null when the statement does not aggregate
 * @param offset   null when there is no LIMIT; else the original OFFSET (the shards got LIMIT offset+count)
 * @param count    null when there is no LIMIT
 */
public record MergeSpec(int hiddenColumns, List<SortKey> order, Grouping grouping, boolean distinct,
                        ValueRef offset, ValueRef count) {

    public MergeSpec {
        order = List.copyOf(order);
    }

    public boolean hasLimit() {
        return count != null;
    }

    /** No such column (a key without a weight string, an aggregate without a count column). */
    public static final int NONE = Integer.MIN_VALUE;

    /** A column number of this spec as an index into a row of {@code width} columns; -1 for {@link #NONE}. */
    public static int resolve(int column, int width) {
        return column == NONE ? -1 : column < 0 ? width + column : column;
    }

    /** This spec with every column number resolved against rows of {@code width} columns. */
    public MergeSpec resolved(int width) {
        java.util.List<SortKey> sort = new java.util.ArrayList<>();
        for (SortKey k : order) {
            sort.add(new SortKey(resolve(k.column(), width), k.descending(), resolve(k.weightColumn(), width)));
        }
        Grouping g = null;
        if (grouping != null) {
            java.util.List<GroupKey> keys = new java.util.ArrayList<>();
            for (GroupKey k : grouping.keys()) {
                keys.add(new GroupKey(resolve(k.column(), width), resolve(k.weightColumn(), width)));
            }
            java.util.List<AggregateSpec> aggs = new java.util.ArrayList<>();
            for (AggregateSpec a : grouping.aggregates()) {
                aggs.add(new AggregateSpec(a.kind(), resolve(a.column(), width), resolve(a.countColumn(), width),
                        resolve(a.weightColumn(), width), resolve(a.typeColumn(), width)));
            }
            g = new Grouping(keys, aggs, grouping.having());
        }
        return new MergeSpec(hiddenColumns, sort, g, distinct, offset, count);
    }
}
