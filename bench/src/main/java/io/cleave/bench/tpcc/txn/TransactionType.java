package io.cleave.bench.tpcc.txn;

/** The five TPC-C transactions with their share of the standard mix (clause 5.2.3), in percent. */
public enum TransactionType {
    NEW_ORDER("NewOrder", 45),
    PAYMENT("Payment", 43),
    ORDER_STATUS("OrderStatus", 4),
    DELIVERY("Delivery", 4),
    STOCK_LEVEL("StockLevel", 4);

    private final String displayName;
    private final int percent;

    TransactionType(String displayName, int percent) {
        this.displayName = displayName;
        this.percent = percent;
    }

    public String displayName() {
        return displayName;
    }

    public int percent() {
        return percent;
    }
}
