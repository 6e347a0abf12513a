package io.cleave.router.plan;

/**
 * One ORDER BY key of a merge: a column of the shard results, its direction, and where the
 * server-computed WEIGHT_STRING of the value is ({@link MergeSpec#NONE} when none was asked for), which the merge
 * compares instead of the value when the column turns out to be a string, so that string order
 * is exactly the column's collation order.
 */
public record SortKey(int column, boolean descending, int weightColumn) {

    @Override
    public String toString() {
        return "#" + column + (descending ? " DESC" : "") + (weightColumn != MergeSpec.NONE ? " w#" + weightColumn : "");
    }
}
