package io.cleave.proxy.cutover;

import io.netty.channel.EventLoop;

/**
 * What the cutover gate reads of a client session, always on the session's own event loop: whether
 * its transaction holds a shard, and whether a command of it is running. Serials tell one
 * transaction or command from the next.
 */
public interface Participant {

    EventLoop eventLoop();

    /** The session's transaction holds (or is joining) {@code shard}. */
    boolean holdsTransactionOn(int shard);

    /**
     * The session keeps a backend connection beyond one statement on some shard: its transaction's
     * (or one it is joining), or one pinned by connection-bound state (temporary tables, locks,
     * prepared SQL statements, cursors), which cannot follow the session to another server.
     */
    boolean holdsAnyShard();

    /** Changes whenever the session's transaction ends. */
    long transactionSerial();

    /** A command of the session is running. */
    boolean busy();

    /** Changes whenever a command ends. */
    long commandSerial();
}
