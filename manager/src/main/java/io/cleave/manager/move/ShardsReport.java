package io.cleave.manager.move;

import java.util.List;

/**
 * What {@code cleave shards} shows: per shard its rows and bytes, per keyspace each key range
 * (range keyspaces) or run of buckets (hash keyspaces) with its shard and size, the map version,
 * and the moves under way. Sizes come from the shards' statistics unless {@code exact}.
 */
public record ShardsReport(long mapVersion, boolean exact, List<ShardSize> shards, List<KeyspaceLayout> keyspaces,
                           List<MoveRecord> moves) {

    public record ShardSize(int shard, long rows, long bytes) {
    }

    public record KeyspaceLayout(String name, String function, List<Span> spans) {
    }

    /** Keys {@code keys} ({@code 1-25}, {@code bucket:0-63}) on {@code shard}, with their rows and bytes. */
    public record Span(String keys, int shard, long rows, long bytes) {
    }
}
