package io.cleave.proxy.backend;

/**
 * Who stands in a pool's line for a backend connection. A wait in that line can be an edge of a
 * deadlock (a transaction holding one shard waits for a connection to another that transactions
 * waiting on it hold), so the pool tells the waiter when it is put in line, and the deadlock
 * detector can list the line and take a victim out of it.
 */
public interface ConnectionWaiter {

    /** Put in the line of {@code shard}'s pool (on the pool's event loop). */
    void waitingInLine(int shard);
}
