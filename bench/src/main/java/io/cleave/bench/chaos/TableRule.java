package io.cleave.bench.chaos;

/** Where a table's rows belong, as the shard map (or the config beneath it) says. */
public sealed interface TableRule {
    /** Rows by the key in {@code column}, through {@code keyspace}. */
    record Sharded(String keyspace, String column) implements TableRule {
    }

    /** A copy on every shard. */
    record Reference() implements TableRule {
    }

    /** Every row on one shard. */
    record Unsharded(int shard) implements TableRule {
    }
}
