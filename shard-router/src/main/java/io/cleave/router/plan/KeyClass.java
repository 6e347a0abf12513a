package io.cleave.router.plan;

import java.util.List;

/**
 * Tables of one keyspace joined on their sharding columns, so their rows meet on one shard, and
 * what the statement says about their key: the values it is restricted to ({@code = v} is one,
 * {@code IN (...)} several), or nothing (every shard).
 *
 * @param tables the tables, for error messages ("join between orders and item_price ...")
 * @param values empty when the key is not restricted
 */
public record KeyClass(String keyspace, List<String> tables, List<KeyValue> values) {

    public KeyClass {
        tables = List.copyOf(tables);
        values = List.copyOf(values);
    }

    public boolean restricted() {
        return !values.isEmpty();
    }

    @Override
    public String toString() {
        return keyspace + tables + (values.isEmpty() ? "=*" : "=" + values);
    }
}
