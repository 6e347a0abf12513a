package io.cleave.router.plan;

/**
 * One aggregated output column of a merge.
 *
 * @param column       the column holding the partial value
 * @param countColumn  for AVG, the hidden column holding the partial COUNT; else {@link MergeSpec#NONE}
 * @param weightColumn for MIN/MAX, the hidden WEIGHT_STRING of the partial value; else {@link MergeSpec#NONE}
 */
public record AggregateSpec(AggregateKind kind, int column, int countColumn, int weightColumn) {

    @Override
    public String toString() {
        return kind + "(#" + column + (countColumn != MergeSpec.NONE ? ", count #" + countColumn : "")
                + (weightColumn != MergeSpec.NONE ? ", w#" + weightColumn : "") + ")";
    }
}
