package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Converts values to sharding keys the way the server compares them with the key column (and
 * stores them in it): only exact conversions count; anything else gives null and the statement is
 * not narrowed to a shard. What MariaDB and MySQL read differently (a double beyond 2^53, which
 * MySQL compares with an integer column as a double and MariaDB exactly) gives null too.
 */
public final class Keys {

    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    /** Below this every integer is a double of its own, so comparing as doubles or exactly agree. */
    private static final double EXACT_DOUBLE = 0x1p53;
    private static final BigDecimal EXACT_DOUBLE_DECIMAL = new BigDecimal(EXACT_DOUBLE);

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

    /**
     * A double (a literal such as {@code 4.7e2}, or a bound DOUBLE) as an integer key: a whole
     * number below 2^53 in magnitude; a fraction, or a larger value, gives null.
     */
    public static ShardKey ofDouble(double value, KeyType type) {
        if (type != KeyType.INTEGER || !(Math.abs(value) < EXACT_DOUBLE) || value != Math.rint(value)) {
            return null;
        }
        return ShardKey.of((long) value);
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
     * The bytes of a hex or bit literal read as a number ({@code 0x1D6}, {@code b'111010110'} against
     * an integer column): big-endian and unsigned, at most 8 bytes (a longer one is not read as a
     * number by MariaDB).
     */
    public static ShardKey ofUnsignedBytes(byte[] bytes, KeyType type) {
        if (type != KeyType.INTEGER || bytes.length > 8 || bytes.length == 8 && bytes[0] < 0) {
            return null;
        }
        long v = 0;
        for (byte b : bytes) {
            v = (v << 8) | (b & 0xFF);
        }
        return ShardKey.of(v);
    }

    /**
     * A string: the key itself for a string keyspace; for an integer keyspace the number the server
     * reads from it (see {@link #ofNumericString}).
     */
    public static ShardKey ofString(String value, KeyType type) {
        if (type == KeyType.STRING) {
            return ShardKey.ofString(value);
        }
        return ofNumericString(value.getBytes(StandardCharsets.UTF_8), type);
    }

    /**
     * A string's bytes (in an ASCII-compatible character set) against an integer key: the number
     * the server reads from it ({@link StringNumber}), when it is a whole number. A number followed
     * by other text counts only below 2^53: MySQL compares such a string as a double.
     */
    public static ShardKey ofNumericString(byte[] bytes, KeyType type) {
        if (type != KeyType.INTEGER) {
            return null;
        }
        StringNumber.Reading reading = StringNumber.read(bytes);
        if (reading == null || !reading.whole() && reading.value().abs().compareTo(EXACT_DOUBLE_DECIMAL) >= 0) {
            return null;
        }
        return ofDecimal(reading.value(), type);
    }

    /**
     * Bytes whose character set the column's decides (a hex literal, a {@code _binary} string)
     * against a string key: only ASCII reads alike in every character set a key column can have.
     */
    public static ShardKey ofBinaryString(byte[] bytes, KeyType type) {
        if (type != KeyType.STRING) {
            return null;
        }
        for (byte b : bytes) {
            if (b < 0) {
                return null;
            }
        }
        return ShardKey.ofString(new String(bytes, StandardCharsets.US_ASCII));
    }
}
