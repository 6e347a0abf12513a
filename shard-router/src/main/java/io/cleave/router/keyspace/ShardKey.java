package io.cleave.router.keyspace;

/**
 * A sharding-key value after conversion to the keyspace's key type, so that every value MySQL
 * would compare as equal maps to the same key (and so to the same shard).
 */
public sealed interface ShardKey permits ShardKey.IntKey, ShardKey.StringKey {

    static ShardKey of(long value) {
        return new IntKey(value);
    }

    /** A string key compared the way a case- and accent-insensitive PAD SPACE collation does. */
    static ShardKey ofString(String value) {
        return new StringKey(CollationFold.fold(value));
    }

    record IntKey(long value) implements ShardKey {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    record StringKey(String folded) implements ShardKey {
        @Override
        public String toString() {
            return "'" + folded + "'";
        }
    }
}
