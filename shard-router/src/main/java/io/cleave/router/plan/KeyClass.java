package io.cleave.router.plan;

import io.cleave.router.keyspace.Keyspace;

import java.util.List;

/**
 * Tables of one keyspace joined on their sharding columns, so their rows meet on one shard, and
 * what the statement says about their key: the values it is restricted to ({@code = v} is one,
 * {@code IN (...)} several), or nothing (every shard).
 *
 * @param keyspace the keyspace itself (looked up once, when the statement is planned)
 * @param tables   the tables, for error messages ("join between orders and item_price ...")
 * @param values   empty when the key is not restricted
 */
public record KeyClass(Keyspace keyspace, List<String> tables, List<KeyValue> values) {

    public KeyClass {
        tables = List.copyOf(tables);
        values = List.copyOf(values);
    }

    public boolean restricted() {
        return !values.isEmpty();
    }

    @Override
    public String toString() {
        return keyspace.name() + tables + (values.isEmpty() ? "=*" : "=" + values);
    }
}
