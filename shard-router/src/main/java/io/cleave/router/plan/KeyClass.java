package io.cleave.router.plan;

import io.cleave.router.keyspace.Keyspace;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Tables of one keyspace whose rows meet on one shard (joined on their sharding columns, or a
 * subquery tied to the outer rows by the key), or the arms of a UNION ALL over them, and what the
 * statement says about their key.
 * <p>
 * Each restriction is a set of values ({@code = v} is one, {@code IN (...)} several) that every
 * row of the class the answer depends on must match; an alternative's restrictions all hold at
 * once (its rows live on the shards they have in common). A class has one alternative, except
 * the arms of a UNION ALL: each arm is one, and the class's rows live on the shards of any of
 * them. A class is restricted only when every alternative is, and an alternative only when every
 * one of its tables is held to such values (by its own condition or through a join that must match).
 *
 * @param keyspace     the keyspace itself (looked up once, when the statement is planned)
 * @param tables       the tables, for error messages ("join between orders and item_price ...")
 * @param alternatives empty when the key is not restricted (every shard)
 */
public record KeyClass(Keyspace keyspace, List<String> tables, List<List<List<KeyValue>>> alternatives) {

    public KeyClass {
        tables = List.copyOf(tables);
        alternatives = alternatives.stream().map(a -> a.stream().map(List::copyOf).toList()).toList();
    }

    /** A class of one table held to {@code values}. */
    static KeyClass of(Keyspace keyspace, String table, List<KeyValue> values) {
        return new KeyClass(keyspace, List.of(table), values.isEmpty() ? List.of() : List.of(List.of(values)));
    }

    public boolean restricted() {
        return !alternatives.isEmpty();
    }

    /** Every key value the class's restrictions name, in any alternative. */
    public List<KeyValue> values() {
        List<KeyValue> out = new ArrayList<>();
        for (List<List<KeyValue>> alternative : alternatives) {
            for (List<KeyValue> restriction : alternative) {
                out.addAll(restriction);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return keyspace.name() + tables + (alternatives.isEmpty() ? "=*" : alternatives.stream()
                .map(a -> a.stream().map(r -> "=" + r).collect(Collectors.joining("&")))
                .collect(Collectors.joining("|")));
    }
}
