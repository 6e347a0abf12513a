package io.cleave.router.topology;

/** Where a table's rows live. */
public sealed interface TableRule permits TableRule.Sharded, TableRule.Reference, TableRule.Unsharded {

    String table();

    /** Rows spread by the value of {@code column}, through the keyspace's function and the shard map. */
    record Sharded(String table, String keyspace, String column) implements TableRule {
    }

    /** A full copy on every shard: reads go to the shard already in use, writes go to all. */
    record Reference(String table) implements TableRule {
    }

    /** All rows on one home shard. */
    record Unsharded(String table, int homeShard) implements TableRule {
    }
}
