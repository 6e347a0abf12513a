package io.cleave.proxy.deadlock;

import java.util.List;
import java.util.Map;

/**
 * One shard's lock waits and open transactions at one moment, keyed by server thread.
 *
 * @param waits        who waits for whom on this shard
 * @param transactions every open transaction on the shard, by its server thread id
 */
record ShardLocks(int shard, List<LockWait> waits, Map<Long, ShardTransaction> transactions) {

    /** The thread {@code waitingThread} waits for a lock {@code blockingThread} holds (or waits for ahead of it). */
    record LockWait(long waitingThread, long blockingThread, String lock) {
    }

    /**
     * An open transaction on the shard.
     *
     * @param weight  InnoDB's measure of its work (rows changed and locks held): the lighter one is the victim
     * @param query   the statement it runs now, as the server reports it (client text: sanitize before showing)
     * @param queryId the running statement's id where the server has one (MariaDB): a kill then
     *                stops that statement only, never the next one
     */
    record ShardTransaction(long thread, String trxId, long weight, String query, Long queryId) {
    }

    ShardTransaction transaction(long thread) {
        return transactions.get(thread);
    }
}
