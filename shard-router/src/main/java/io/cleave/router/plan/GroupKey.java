package io.cleave.router.plan;

/** A GROUP BY key column of the shard results, with its WEIGHT_STRING column ({@link MergeSpec#NONE} when none). */
public record GroupKey(int column, int weightColumn) {

    @Override
    public String toString() {
        return "#" + column + (weightColumn != MergeSpec.NONE ? " w#" + weightColumn : "");
    }
}
