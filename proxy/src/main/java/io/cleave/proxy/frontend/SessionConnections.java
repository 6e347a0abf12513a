package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.deadlock.TrackedTransaction;
import io.cleave.proxy.protocol.ServerStatus;

import java.util.List;

/**
 * The backend connections a session holds beyond one statement, and why: its transaction's,
 * those pinned by connection-bound state (temporary tables, locks, cursors), and the previous
 * statement's while the client may still ask for its warnings. Every other connection is borrowed
 * from the loop's pool for one statement and given back when it is done ({@link #settle}).
 */
final class SessionConnections {

    private final TransactionState transaction;
    private final ConnectionPins pins;
    /** The connection of the previous statement, kept while it has warnings the client may ask for. */
    private BackendConnection warnings;
    /** The proxy's own warnings for the previous statement (SHOW WARNINGS answers them). */
    private List<String> proxyWarnings = List.of();
    /** A backend whose reads stopped because the client could not take more. */
    private BackendConnection paused;

    SessionConnections(int shards, TrackedTransaction tracked) {
        this.transaction = new TransactionState(shards, tracked);
        this.pins = new ConnectionPins(shards);
    }

    TransactionState transaction() {
        return transaction;
    }

    ConnectionPins pins() {
        return pins;
    }

    /**
     * The session's own connection to {@code shard}, if it has one: its transaction's, else a
     * pinned one, else (for a statement reading what the previous one left) the previous one's.
     */
    BackendConnection connectionFor(int shard, boolean previousConnection) {
        BackendConnection c = transaction.held(shard);
        if (c != null) {
            return c;
        }
        BackendConnection pin = pins.connection(shard);
        if (pin != null) {
            return pin;
        }
        if (previousConnection && warnings != null && warnings.shard() == shard) {
            return warnings;
        }
        return null;
    }

    /** A shard where the session already works (its transaction, a pinned connection), or -1. */
    int shardInUse() {
        int s = transaction.onlyShard();
        return s >= 0 ? s : pins.anyShard();
    }

    /**
     * Keeps a connection the session still needs (an open transaction on it, pinned state, warnings
     * the client may ask for) and gives the others back to the pool.
     */
    void settle(int shard, BackendConnection conn, boolean keepForWarnings) {
        boolean inTransaction = conn.isUsable() && ServerStatus.has(conn.lastStatus(), ServerStatus.IN_TRANS);
        if (transaction.held(shard) == conn && conn.isUsable() && transaction.isXaBranch(shard)) {
            // An XA branch stays with the transaction until the distributed commit ends it.
            return;
        }
        if (inTransaction) {
            transaction.hold(shard, conn);
            return;
        }
        if (transaction.held(shard) == conn) {
            transaction.drop(shard);
            if (!transaction.begun() && transaction.deferredBegin() != null && !conn.isUsable()) {
                transaction.end();
            }
        }
        if (pins.isPinned(shard, conn)) {
            if (conn.isUsable()) {
                return;
            }
            pins.lost(shard, conn);
        }
        if (warnings == conn) {
            warnings = null;
        }
        if (keepForWarnings && conn.isUsable()) {
            releaseWarningsConnection();
            warnings = conn;
            return;
        }
        conn.release();
    }

    /** The proxy's own warnings for the last statement (SHOW WARNINGS answers them). */
    List<String> proxyWarnings() {
        return proxyWarnings;
    }

    void proxyWarnings(List<String> messages) {
        proxyWarnings = messages;
    }

    /** A new statement: the previous one's warnings, on a connection or the proxy's own, are gone. */
    void releaseWarningsConnection() {
        proxyWarnings = List.of();
        BackendConnection c = warnings;
        if (c != null) {
            warnings = null;
            if (transaction.held(c.shard()) != c && !pins.isPinned(c.shard(), c)) {
                c.release();
            }
        }
    }

    boolean hasWarningsConnection() {
        return warnings != null;
    }

    int warningsShard() {
        return warnings == null ? -1 : warnings.shard();
    }

    /** Stops reading from {@code conn} until the client can take more of what it sends. */
    void pause(BackendConnection conn) {
        paused = conn;
        conn.channel().config().setAutoRead(false);
    }

    /** The client can take more: reading from the paused backend goes on. */
    void resume() {
        if (paused != null) {
            BackendConnection conn = paused;
            paused = null;
            conn.channel().config().setAutoRead(true);
        }
    }

    /**
     * Closes the connections of the session's transaction and pinned state, and forgets them
     * (reset, end of session): closing rolls back a transaction and drops temporary tables, locks
     * and cursors, as a server does for a client that goes.
     */
    void dropAll() {
        releaseWarningsConnection();
        List<BackendConnection> pinned = pins.dropAll();
        for (int shard = 0; shard < transaction.shardCount(); shard++) {
            if (transaction.committing()) {
                // A two-phase commit is under way on these connections: it ends the transaction and
                // gives them back itself. Closing them now would leave its prepared branches waiting
                // for a decision that this proxy, still counting the commit as running, never settles.
                pinned.remove(transaction.held(shard));
                continue;
            }
            BackendConnection held = transaction.drop(shard);
            if (held != null) {
                held.close();
                held.release();
                pinned.remove(held);
            }
        }
        for (BackendConnection pin : pinned) {
            pin.close();
            pin.release();
        }
    }
}
