package io.cleave.bench.tpcc.check;

/** One failed condition; district is 0 for a warehouse-level condition. source indexes the checked list. */
public record Violation(Condition condition, int warehouse, int district, int source, String detail) {

    @Override
    public String toString() {
        String where = district == 0 ? "warehouse " + warehouse : "warehouse " + warehouse + " district " + district;
        return "condition " + condition.number() + " (" + condition.description() + ") fails at " + where
            + " on source " + source + ": " + detail;
    }
}
