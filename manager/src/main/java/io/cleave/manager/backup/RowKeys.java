package io.cleave.manager.backup;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** The sharding key of a column's value as a backup holds it (utf8mb4 text, as the server sent it). */
public final class RowKeys {

    private RowKeys() {
    }

    public static ShardKey of(byte[] value, ShardFunction function, String table) {
        if (value == null) {
            throw new IllegalStateException("a row of " + table + " has no value in its sharding column");
        }
        String text = new String(value, StandardCharsets.UTF_8);
        if (function.keyType() == KeyType.STRING) {
            return ShardKey.ofString(text);
        }
        try {
            return ShardKey.of(new BigDecimal(text.trim()).longValueExact());
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalStateException("a row of " + table + " has the key '" + text + "', not an integer");
        }
    }
}
