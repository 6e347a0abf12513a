package io.cleave.proxy.backend;

/** Events of backend pools worth counting. Defaults do nothing, so tests need no registry. */
public interface PoolMetrics {

    PoolMetrics NONE = new PoolMetrics() {
    };

    default void connectionOpened(int shard) {
    }

    default void connectFailed(int shard) {
    }

    default void waitTimedOut(int shard) {
    }

    /** A statement was written behind another client's on one connection (pipelined). */
    default void statementPipelined(int shard) {
    }
}
