package io.cleave.router.plan;

/** A GROUP BY key column of the shard results, with its WEIGHT_STRING column (-1 when none). */
public record GroupKey(int column, int weightColumn) {

    @Override
    public String toString() {
        return "#" + column + (weightColumn >= 0 ? " w#" + weightColumn : "");
    }
}
