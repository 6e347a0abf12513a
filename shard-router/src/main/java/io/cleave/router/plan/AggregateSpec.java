package io.cleave.router.plan;

/**
 * One aggregated output column of a merge.
 *
 * @param column       the column holding the partial value
 * @param countColumn  for AVG, the hidden column holding the partial COUNT; else {@link MergeSpec#NONE}
 * @param weightColumn for MIN/MAX, the hidden WEIGHT_STRING of the partial value; else {@link MergeSpec#NONE}
 * @param typeColumn   for AVG, a hidden column of the shard's own AVG, whose definition (type, length,
 *                     decimals under the session's div_precision_increment) the merged column takes;
 *                     else {@link MergeSpec#NONE}
 */
public record AggregateSpec(AggregateKind kind, int column, int countColumn, int weightColumn, int typeColumn) {

    public AggregateSpec(AggregateKind kind, int column, int countColumn, int weightColumn) {
        this(kind, column, countColumn, weightColumn, MergeSpec.NONE);
    }

    @Override
    public String toString() {
        return kind + "(#" + column + (countColumn != MergeSpec.NONE ? ", count #" + countColumn : "")
                + (weightColumn != MergeSpec.NONE ? ", w#" + weightColumn : "")
                + (typeColumn != MergeSpec.NONE ? ", type #" + typeColumn : "") + ")";
    }
}
