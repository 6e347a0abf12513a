package io.cleave.proxy.deadlock;

import java.util.List;

/**
 * A deadlock the proxy detected and broke, for the log, the admin API and {@code cleave status}.
 * Statements are shown by their shape (literals as {@code ?}).
 *
 * @param detectedAt   when the victim was chosen (ISO-8601)
 * @param shards       the shards the cycle waits on (for locks, or for connections in a pool line)
 * @param transactions the members of the cycle, numbered as in {@code text}
 * @param victim       the number of the transaction rolled back
 * @param text         the report as logged, laid out like InnoDB's LATEST DETECTED DEADLOCK
 */
public record DeadlockReport(String detectedAt, List<Integer> shards, List<Party> transactions, int victim,
                             String text) {

    /**
     * One member of the cycle.
     *
     * @param number       its number in the report, from 1
     * @param connectionId the client connection's id on the proxy; 0 for a transaction that is
     *                     not a client of this proxy, or for a pool line
     * @param description  what it is: a client transaction, another client's transaction on a
     *                     shard, or a line for a backend connection
     * @param weight       InnoDB's weight summed over its shards (-1 when unknown)
     */
    public record Party(int number, long connectionId, String user, String description, List<Integer> shards,
                        long weight, List<Wait> waits) {
    }

    /**
     * What a member waits for.
     *
     * @param shard     where it waits
     * @param statement the waiting statement's shape, or null for a wait in a pool line
     * @param lock      the lock it requests (mode, table, index), or null for a pool line
     * @param waitsFor  the number of the member it waits for
     */
    public record Wait(int shard, String statement, String lock, int waitsFor) {
    }
}
