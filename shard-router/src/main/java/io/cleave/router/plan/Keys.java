package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Converts values to sharding keys the way the server compares them with the key column: only
 * exact conversions count; anything else gives null and the statement is not narrowed to a shard.
 */
public final class Keys {

    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private Keys() {
    }

    /** An exact decimal number as an integer key, or null when it is not a whole number in range. */
    public static ShardKey ofDecimal(BigDecimal value, KeyType type) {
        if (type != KeyType.INTEGER || value.compareTo(MIN) < 0 || value.compareTo(MAX) > 0) {
            return null;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.scale() > 0) {
            return null;
        }
        return ShardKey.of(stripped.longValueExact());
    }

    public static ShardKey ofLong(long value, KeyType type) {
        return type == KeyType.INTEGER ? ShardKey.of(value) : null;
    }

    /** An unsigned 64-bit integer (binary protocol): only values that fit a signed long are keys here. */
    public static ShardKey ofUnsigned(long value, KeyType type) {
        return value < 0 ? null : ofLong(value, type);
    }

    public static ShardKey ofBigInteger(BigInteger value, KeyType type) {
        return value.bitLength() < 64 ? ofLong(value.longValue(), type) : null;
    }

    /**
     * A string: the key itself for a string keyspace; for an integer keyspace the number it spells
     * exactly (the server compares an integer column with '42', ' 42 ' or '4.2e1' numerically).
     */
    public static ShardKey ofString(String value, KeyType type) {
        if (type == KeyType.STRING) {
            return ShardKey.ofString(value);
        }
        String trimmed = value.strip();
        if (trimmed.isEmpty()) {
            return null;
        }
        try {
            return ofDecimal(new BigDecimal(trimmed), type);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
