package io.cleave.proxy.deadlock;

/**
 * {@code from} waits for {@code to}: on a shard for a lock ({@code shard >= 0}, {@code lock}
 * describes it), or in a pool's line ({@code shard} is the line's shard, {@code lock} null).
 *
 * @param waitingThread the server thread of the waiting statement on {@code shard}, 0 for a line
 */
record WaitEdge(WaitNode from, WaitNode to, int shard, long waitingThread, String lock) {

    boolean inLine() {
        return lock == null;
    }
}
