package io.cleave.proxy.cut;

/**
 * One shard's part of a cut: a connection with a snapshot open on it (REPEATABLE READ, opened
 * inside the cut's window), and where the shard's binlog stood at that snapshot when asked for.
 *
 * @param position null when positions were not asked for, or the server has none (see {@link BinlogPosition})
 */
public record ShardSnapshot<C>(int shard, C connection, BinlogPosition position) {
}
