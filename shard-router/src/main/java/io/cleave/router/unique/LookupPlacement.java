package io.cleave.router.unique;

import io.cleave.router.keyspace.ShardKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Which shard holds the lookup row of a unique value: a stable hash of the value's keys (each
 * converted as the server compares it: numbers as numbers, strings folded as a case- and
 * accent-insensitive collation folds them, so values the server calls equal meet on one shard)
 * over the index's {@code lookupShards}. A key with a column of another type keeps every lookup
 * row on one shard, picked by its name.
 */
public final class LookupPlacement {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private LookupPlacement() {
    }

    /** The shard of the lookup row for {@code keys} (one per column; none null when the index is spread). */
    public static int shardOf(UniqueIndex index, List<ShardKey> keys) {
        long h = FNV_OFFSET;
        if (!index.spread()) {
            for (byte b : index.lookupTable().getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (b & 0xff)) * FNV_PRIME;
            }
            return (int) Long.remainderUnsigned(h, index.lookupShards());
        }
        for (ShardKey key : keys) {
            if (key instanceof ShardKey.IntKey i) {
                h = (h ^ 'i') * FNV_PRIME;
                for (int b = 0; b < 8; b++) {
                    h = (h ^ ((i.value() >>> (8 * b)) & 0xff)) * FNV_PRIME;
                }
            } else {
                h = (h ^ 's') * FNV_PRIME;
                for (byte b : ((ShardKey.StringKey) key).folded().getBytes(StandardCharsets.UTF_8)) {
                    h = (h ^ (b & 0xff)) * FNV_PRIME;
                }
            }
            h = (h ^ 0xff) * FNV_PRIME;
        }
        // The low bits of FNV-1a mix poorly: fold the high half in before taking the remainder.
        return (int) Long.remainderUnsigned(h ^ (h >>> 29), index.lookupShards());
    }
}
