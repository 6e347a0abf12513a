package io.cleave.bench.tpcc.check;

/** The TPC-C consistency conditions 1 to 4 (clause 3.3.2), plus where warehouses live. */
public enum Condition {
    W_YTD_EQUALS_SUM_D_YTD("1", "W_YTD = sum(D_YTD)"),
    NEXT_ORDER_ID("2", "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)"),
    NEW_ORDERS_CONTIGUOUS("3", "count(NO_O_ID) = max(NO_O_ID) - min(NO_O_ID) + 1"),
    ORDER_LINE_COUNT("4", "sum(O_OL_CNT) = count(order lines)"),
    /** A warehouse expected but found on no source, or found on more than one shard. */
    WAREHOUSE_PLACEMENT("-", "each warehouse on exactly one shard");

    private final String number;
    private final String description;

    Condition(String number, String description) {
        this.number = number;
        this.description = description;
    }

    public String number() {
        return number;
    }

    public String description() {
        return description;
    }
}
