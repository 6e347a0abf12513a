package io.cleave.bench.tpcc.txn;

/** How a transaction that did not fail ended. */
public enum Outcome {
    COMMITTED,
    /** The new-order's specified 1% rollback: counted apart from errors. */
    ROLLED_BACK
}
