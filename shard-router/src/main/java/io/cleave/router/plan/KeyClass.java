package io.cleave.router.plan;

import io.cleave.router.keyspace.Keyspace;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Tables of one keyspace whose rows meet on one shard (joined on their sharding columns, or a
 * subquery tied to the outer rows by the key), and what the statement says about their key.
 * Each restriction is a set of values ({@code = v} is one, {@code IN (...)} several) that every
 * row of the class the answer depends on must match; a class is restricted only when every one of
 * its tables is held to such values (by its own condition or through a join that must match).
 * Several restrictions all hold at once: the rows live on the shards they have in common.
 *
 * @param keyspace     the keyspace itself (looked up once, when the statement is planned)
 * @param tables       the tables, for error messages ("join between orders and item_price ...")
 * @param restrictions empty when the key is not restricted (every shard)
 */
public record KeyClass(Keyspace keyspace, List<String> tables, List<List<KeyValue>> restrictions) {

    public KeyClass {
        tables = List.copyOf(tables);
        restrictions = restrictions.stream().map(List::copyOf).toList();
    }

    /** A class of one table held to {@code values}. */
    static KeyClass of(Keyspace keyspace, String table, List<KeyValue> values) {
        return new KeyClass(keyspace, List.of(table), values.isEmpty() ? List.of() : List.of(values));
    }

    public boolean restricted() {
        return !restrictions.isEmpty();
    }

    @Override
    public String toString() {
        return keyspace.name() + tables + (restrictions.isEmpty() ? "=*"
                : restrictions.stream().map(r -> "=" + r).collect(Collectors.joining("&")));
    }
}
