package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;

import java.io.ByteArrayOutputStream;

/**
 * The values of one execution's slots: literals of a text statement, or the values bound to a
 * prepared statement's placeholders (and its own literals).
 */
public interface ParameterValues {

    boolean isNull(int slot);

    /**
     * The slot's value as a key of {@code type}, or null when it is NULL or does not convert
     * exactly (the caller then cannot narrow the statement to the key's shard).
     */
    ShardKey key(int slot, KeyType type);

    /**
     * An integer value (LIMIT counts).
     *
     * @throws IllegalArgumentException when the value is not an integer
     */
    long longValue(int slot);

    /**
     * A LIMIT or OFFSET value. A whole number beyond a long (LIMIT 18446744073709551615 is the
     * usual way to say "all the rest") counts as {@link Long#MAX_VALUE}: no result is that large.
     *
     * @throws IllegalArgumentException when the value is not a non-negative whole number
     */
    default long limitValue(int slot) {
        long value;
        try {
            value = longValue(slot);
        } catch (IllegalArgumentException e) {
            value = -1;
        }
        if (value >= 0) {
            return value;
        }
        String text = text(slot);
        String digits = text == null ? "" : text.strip();
        if (!digits.isEmpty() && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Long.MAX_VALUE;
        }
        throw new IllegalArgumentException("LIMIT and OFFSET take a non-negative whole number, not " + text);
    }

    /** Appends the slot's value as SQL text: a literal as written, or a bound value rendered as a literal. */
    void appendSql(int slot, ByteArrayOutputStream out);

    /**
     * Appends the slot's value as SQL text that reads the same in every session, whatever its
     * sql_mode and character set ({@link PortableLiterals}): for statements parsed again where the
     * client's settings do not hold (inside a stored procedure). By default {@link #appendSql},
     * for values that render so already.
     */
    default void appendPortableSql(int slot, ByteArrayOutputStream out) {
        appendSql(slot, out);
    }

    /** The value's text for comparisons in the proxy (HAVING), or null for NULL. */
    String text(int slot);

    /** Whether the value is a number (compared numerically) rather than a string. */
    boolean isNumeric(int slot);
}
