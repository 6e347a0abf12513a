package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;

/**
 * The lookup tables of global unique keys ({@code cleave.u_...}) hold each shard's own rows, spread
 * over the shards there were when the key was declared (as {@code cleave.unique_keys} records): a
 * restore puts them back on the same shards, so a restore into fewer shards would drop those on the
 * shards it leaves out, and the key would let duplicates in. Such a restore is refused, as a scale
 * down past them is.
 */
final class GlobalKeyLookups {

    private GlobalKeyLookups() {
    }

    /** Refuses restoring {@code manifest} into {@code shards} shards when lookup rows lie on a shard past them. */
    static void checkFit(BackupManifest manifest, int shards) {
        for (BackupManifest.TableBackup t : manifest.tables()) {
            if (!t.rule().equals("local") || !t.schema().equals("cleave") || !t.table().startsWith("u_")) {
                continue;
            }
            int highest = -1;
            for (BackupManifest.Chunk c : t.chunks()) {
                if (c.rows() > 0) {
                    highest = Math.max(highest, c.shard());
                }
            }
            if (highest >= shards) {
                throw new IllegalArgumentException("the lookup table " + t.name() + " of a global unique key has rows on"
                        + " shard " + highest + ", which a restore into " + shards + " shards leaves out (lookup rows stay"
                        + " on the shards there were when the key was declared): restore into at least " + (highest + 1)
                        + " shards");
            }
        }
    }
}
