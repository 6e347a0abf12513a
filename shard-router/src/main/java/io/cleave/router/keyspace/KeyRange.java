package io.cleave.router.keyspace;

/**
 * An inclusive integer key range; {@code to == Long.MAX_VALUE} stands for an open end.
 */
public record KeyRange(long from, long to) {

    public KeyRange {
        if (to < from) {
            throw new IllegalArgumentException("range end " + to + " is below its start " + from);
        }
    }

    public boolean contains(long key) {
        return key >= from && key <= to;
    }

    @Override
    public String toString() {
        return to == Long.MAX_VALUE ? from + "-" : from + "-" + to;
    }
}
