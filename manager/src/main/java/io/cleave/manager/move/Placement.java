package io.cleave.manager.move;

import io.cleave.router.keyspace.KeyOutOfRangeException;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Which rows of a table a move carries and where each goes: the copy, catch-up, verification,
 * cleanup and undo of every move ask this, so moving keys and moving whole tables share them.
 */
sealed interface Placement permits Placement.Keys, Placement.Whole, Placement.ByKey {

    /** Every row of the table. */
    String ALL_ROWS = "1 = 1";

    /** A condition selecting the rows that move, on the source (whole tables: all of them). */
    default String onSource() {
        return ALL_ROWS;
    }

    /** A condition selecting the rows this move put on {@code target} (whole tables: all it holds of the table). */
    default String onTarget(int target) {
        return ALL_ROWS;
    }

    /** The shards a row goes to, given its sharding column's value (empty: it stays on the source). */
    int[] targetsOf(Object key);

    /** Whether a changed row whose sharding column holds {@code key} (as the binlog gives it) concerns the move. */
    default boolean watches(Object key) {
        return true;
    }

    /** Whether every moving row goes to every target (so whole chunks compare; otherwise row by row). */
    boolean uniform();

    /**
     * Keys of a keyspace move to one shard; {@code condition} selects them on both sides.
     */
    record Keys(String condition, KeySet keys, ShardFunction function, int target) implements Placement {
        @Override
        public String onSource() {
            return condition;
        }

        @Override
        public String onTarget(int shard) {
            return condition;
        }

        @Override
        public int[] targetsOf(Object key) {
            return new int[] {target};
        }

        @Override
        public boolean watches(Object key) {
            ShardKey k = key instanceof Number n && !(key instanceof BigDecimal) ? ShardKey.of(n.longValue())
                    : key instanceof byte[] b ? ShardKey.ofString(new String(b, StandardCharsets.UTF_8))
                    : key == null ? null : ShardKey.ofString(key.toString());
            return k != null && keys.contains(k, function);
        }

        @Override
        public boolean uniform() {
            return true;
        }
    }

    /** Every row goes to every one of {@code targets} (a reference table's copies, an unsharded table's new home). */
    record Whole(int[] targets) implements Placement {
        @Override
        public int[] targetsOf(Object key) {
            return targets;
        }

        @Override
        public boolean uniform() {
            return true;
        }
    }

    /**
     * Every row goes to the shard its key's bucket is on in {@code map} (a table sharded online, or
     * imported into a sharded rule); rows whose shard is the {@code source} stay where they are.
     * The bucket is computed here, not on the servers, so any key type and any source works.
     */
    record ByKey(String table, String keyspace, ShardFunction function, ShardMap map, int source) implements Placement {
        @Override
        public int[] targetsOf(Object key) {
            int shard;
            try {
                shard = map.shardOf(keyspace, key(key), function);
            } catch (KeyOutOfRangeException e) {
                throw new IllegalStateException("a row of " + table + " has the key " + text(key) + ", which no range of"
                        + " keyspace " + keyspace + " covers: add a range for it before sharding the table");
            }
            return shard == source ? new int[0] : new int[] {shard};
        }

        private ShardKey key(Object value) {
            if (value == null) {
                throw new IllegalStateException("a row of " + table + " has no value in its sharding column: every row"
                        + " needs one to have a shard");
            }
            if (function.keyType() == KeyType.STRING) {
                return ShardKey.ofString(text(value));
            }
            if (value instanceof Number n && !(value instanceof BigDecimal)) {
                return ShardKey.of(n.longValue());
            }
            try {
                return ShardKey.of(new BigDecimal(text(value).trim()).longValueExact());
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalStateException("a row of " + table + " has the key '" + text(value) + "', not an integer"
                        + " as keyspace " + keyspace + " needs");
            }
        }

        private static String text(Object value) {
            return value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(value);
        }

        @Override
        public boolean uniform() {
            return false;
        }
    }
}
