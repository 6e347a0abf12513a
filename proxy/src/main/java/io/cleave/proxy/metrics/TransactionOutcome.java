package io.cleave.proxy.metrics;

/** How a transaction ended, for the transactions metric. */
public enum TransactionOutcome {
    /** Committed on every shard it wrote. */
    COMMIT,
    /** Rolled back as asked, or because a statement failed in a way that ends it on every shard. */
    ROLLBACK,
    /** A COMMIT (or ROLLBACK) that answered the client with an error. */
    FAILED;

    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
