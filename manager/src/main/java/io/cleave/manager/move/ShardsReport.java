package io.cleave.manager.move;

import java.util.List;

/**
 * What {@code cleave shards} shows: per shard its rows and bytes, per keyspace each key range
 * (range keyspaces) or run of buckets (hash keyspaces) with its shard and size, the map version,
 * and the moves under way. Sizes come from the shards' statistics unless {@code exact}.
 */
public record ShardsReport(long mapVersion, boolean exact, List<ShardSize> shards, List<KeyspaceLayout> keyspaces,
                           List<MoveRecord> moves, List<UniqueKeyLookup> uniqueKeys) {

    public ShardsReport(long mapVersion, boolean exact, List<ShardSize> shards, List<KeyspaceLayout> keyspaces,
                        List<MoveRecord> moves) {
        this(mapVersion, exact, shards, keyspaces, moves, List.of());
    }

    public ShardsReport withUniqueKeys(List<UniqueKeyLookup> keys) {
        return new ShardsReport(mapVersion, exact, shards, keyspaces, moves, keys);
    }

    /**
     * A global unique key of {@code table}: its lookup table, spread over shards 0 to {@code shards - 1},
     * with its rows and bytes there (-1 when a shard could not be read) and its state.
     */
    public record UniqueKeyLookup(String table, String key, List<String> columns, String lookup, int shards, long rows,
                                  long bytes, String state) {
    }

    public record ShardSize(int shard, long rows, long bytes) {
    }

    public record KeyspaceLayout(String name, String function, List<Span> spans) {
    }

    /** Keys {@code keys} ({@code 1-25}, {@code bucket:0-63}) on {@code shard}, with their rows and bytes. */
    public record Span(String keys, int shard, long rows, long bytes) {
    }
}
