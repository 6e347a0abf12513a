package io.cleave.bench.tpcc;

/** Cardinalities fixed by the TPC-C specification (clause 1.2 and 4.3.3.1). */
public final class TpccScale {
    public static final int ITEMS = 100_000;
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int CUSTOMERS_PER_DISTRICT = 3_000;
    public static final int ORDERS_PER_DISTRICT = 3_000;
    /** Orders with o_id at or above this are undelivered at load time (the last 900). */
    public static final int FIRST_NEW_ORDER_ID = 2_101;
    public static final int STOCK_PER_WAREHOUSE = ITEMS;

    private TpccScale() {
    }
}
