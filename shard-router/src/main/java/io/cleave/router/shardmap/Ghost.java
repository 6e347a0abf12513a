package io.cleave.router.shardmap;

/**
 * Rows of {@code keys} that sit on {@code shard} without belonging there: the target's copy while
 * move {@code moveId} copies and catches up, the source's old rows after the cutover until cleanup
 * deleted them. Statements over several shards must not see them there.
 */
public record Ghost(String keyspace, KeySet keys, int shard, long moveId) {
}
