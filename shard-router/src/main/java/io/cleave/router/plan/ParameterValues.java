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

    /** Appends the slot's value as SQL text: a literal as written, or a bound value rendered as a literal. */
    void appendSql(int slot, ByteArrayOutputStream out);

    /** The value's text for comparisons in the proxy (HAVING), or null for NULL. */
    String text(int slot);

    /** Whether the value is a number (compared numerically) rather than a string. */
    boolean isNumeric(int slot);
}
