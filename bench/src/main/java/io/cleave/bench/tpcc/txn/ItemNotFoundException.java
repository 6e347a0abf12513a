package io.cleave.bench.tpcc.txn;

/**
 * The new-order's unused item id was asked for: the specified 1% business rollback, not a
 * failure. Checked, so that the terminal cannot forget to roll back and count it.
 */
public final class ItemNotFoundException extends Exception {
    public ItemNotFoundException(int itemId) {
        super("item " + itemId + " not found", null, false, false);
    }
}
