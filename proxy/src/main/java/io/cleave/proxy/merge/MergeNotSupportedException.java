package io.cleave.proxy.merge;

/**
 * Shard results that cannot be merged exactly (e.g. ordering by an ENUM column, whose order is its
 * index, which the text of the value does not tell). The statement is refused instead of answered wrongly.
 */
public final class MergeNotSupportedException extends RuntimeException {

    public MergeNotSupportedException(String message) {
        super(message);
    }
}
