package io.cleave.router.shardmap;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyOutOfRangeException;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;

/**
 * The keys of one keyspace that a move carries: an inclusive key range of a range keyspace, or an
 * inclusive bucket range of a hash keyspace (buckets, never re-hashed keys). Written as a user
 * gives it: {@code 7}, {@code 1-50}, {@code bucket:0-63}.
 */
public sealed interface KeySet permits KeySet.Keys, KeySet.Buckets {

    /** Whether {@code key} is one of these keys, under the keyspace's hash {@code function} for buckets. */
    boolean contains(ShardKey key, ShardFunction function);

    /** Whether the two sets share a key. */
    boolean overlaps(KeySet other);

    /** Keys {@code from..to} of a range keyspace. */
    record Keys(long from, long to) implements KeySet {
        public Keys {
            if (to < from) {
                throw new IllegalArgumentException("key range " + from + "-" + to + " ends before it starts");
            }
        }

        @Override
        public boolean contains(ShardKey key, ShardFunction function) {
            return key instanceof ShardKey.IntKey k && k.value() >= from && k.value() <= to;
        }

        @Override
        public boolean overlaps(KeySet other) {
            return other instanceof Keys k && k.from <= to && from <= k.to;
        }

        @Override
        public String toString() {
            return from == to ? Long.toString(from) : from + "-" + (to == Long.MAX_VALUE ? "" : Long.toString(to));
        }
    }

    /** Buckets {@code from..to} of a hash keyspace. */
    record Buckets(int from, int to) implements KeySet {
        public Buckets {
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("bucket range " + from + "-" + to + " is not a range of buckets");
            }
        }

        @Override
        public boolean contains(ShardKey key, ShardFunction function) {
            int b;
            try {
                b = function.bucketOf(key);
            } catch (KeyOutOfRangeException e) {
                return false;
            }
            return b >= from && b <= to;
        }

        @Override
        public boolean overlaps(KeySet other) {
            return other instanceof Buckets b && b.from <= to && from <= b.to;
        }

        @Override
        public String toString() {
            return "bucket:" + from + (from == to ? "" : "-" + to);
        }
    }

    /**
     * Parses what a user typed for a keyspace whose function is {@code function}.
     *
     * @throws IllegalArgumentException saying what would be valid
     */
    static KeySet parse(String text, ShardFunction function) {
        String t = text.trim();
        if (function instanceof HashShardFunction) {
            if (!t.startsWith("bucket:")) {
                throw new IllegalArgumentException("a hash keyspace moves buckets: give them as bucket:N or bucket:FROM-TO"
                        + " (buckets 0-" + (function.bucketCount() - 1) + "), not '" + text + "'");
            }
            long[] r = range(t.substring("bucket:".length()), text);
            if (r[1] >= function.bucketCount() || r[0] < 0) {
                throw new IllegalArgumentException("bucket range " + t + " is outside buckets 0-" + (function.bucketCount() - 1));
            }
            return new Buckets((int) r[0], (int) r[1]);
        }
        if (function instanceof RangeShardFunction) {
            if (t.startsWith("bucket:")) {
                throw new IllegalArgumentException("a range keyspace moves keys: give a key (7) or a key range (1-50), not '"
                        + text + "'");
            }
            long[] r = range(t, text);
            return new Keys(r[0], r[1]);
        }
        throw new IllegalArgumentException("keys of a " + function.kind() + " keyspace cannot be moved");
    }

    private static long[] range(String t, String original) {
        try {
            int dash = t.indexOf('-', 1);
            if (dash < 0) {
                long k = Long.parseLong(t.trim());
                return new long[] {k, k};
            }
            long from = Long.parseLong(t.substring(0, dash).trim());
            String rest = t.substring(dash + 1).trim();
            long to = rest.isEmpty() ? Long.MAX_VALUE : Long.parseLong(rest);
            if (to < from) {
                throw new IllegalArgumentException("'" + original + "' ends before it starts");
            }
            return new long[] {from, to};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + original + "' is not a key or a key range: give N or FROM-TO");
        }
    }
}
