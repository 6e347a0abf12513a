package io.cleave.proxy.cut;

import java.util.List;

/**
 * A consistent cut: one open snapshot per shard, opened in one window of {@link CutWindows}. Every
 * cross-shard transaction is wholly in it or wholly out of it, and every transaction acknowledged
 * to a client before the cut was asked for is in it. Whoever took it owns the connections and ends
 * their snapshots.
 */
public record Cut<C>(List<ShardSnapshot<C>> shards) {

    public Cut {
        shards = List.copyOf(shards);
    }

    /** The snapshot on {@code shard}, or null when the cut does not cover it. */
    public ShardSnapshot<C> on(int shard) {
        for (ShardSnapshot<C> s : shards) {
            if (s.shard() == shard) {
                return s;
            }
        }
        return null;
    }
}
