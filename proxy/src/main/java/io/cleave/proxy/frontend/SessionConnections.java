package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.deadlock.TrackedTransaction;

import java.util.List;

/**
 * The backend connections a session holds beyond one statement, and why: its transaction's,
 * those pinned by connection-bound state (temporary tables, locks, cursors), and the previous
 * statement's while the client may still ask for its warnings. Every other connection is borrowed
 * from the loop's pool for one statement and given back when it is done ({@link #settle}).
 *
 * <p>Every connection the session borrows is recorded ({@link #lent}) and every give-back goes
 * through that record ({@link BorrowedConnections}): given back once however many paths let go
 * of it, and all of it at once when the client ends ({@link #clientLeft}).
 */
final class SessionConnections {

    private final TransactionState transaction;
    private final ConnectionPins pins;
    private final BorrowedConnections borrowed = new BorrowedConnections();
    /** The client has gone: a connection that arrives now is given straight back. */
    private boolean clientLeft;
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
        boolean inTransaction = conn.isUsable() && conn.inTransaction();
        if (transaction.held(shard) == conn && conn.isUsable()
                && (transaction.isXaBranch(shard) || transaction.applicationXid() != null)) {
            // An XA branch stays with the transaction until the distributed commit (or the
            // application's XA PREPARE, COMMIT or ROLLBACK) ends it.
            return;
        }
        if (inTransaction) {
            transaction.hold(shard, conn);
            return;
        }
        if (transaction.joining(shard) && !transaction.isXaBranch(shard)) {
            // Autocommit off, and the statement opened no transaction after all (it failed before
            // reading a table, or read none): the shard is no coordinator, the next one may be.
            transaction.joinFailed(shard);
        }
        if (transaction.held(shard) == conn) {
            transaction.drop(shard);
            if (!transaction.begun() && transaction.deferredBegin() != null && !conn.isUsable()) {
                transaction.end();
            }
        }
        keepOrGiveBack(shard, conn, keepForWarnings);
    }

    /** A connection no transaction holds: kept while pinned state or warnings need it, else given back. */
    void keepOrGiveBack(int shard, BackendConnection conn, boolean keepForWarnings) {
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
        borrowed.giveBack(conn);
    }

    /**
     * A connection borrowed for this session came from the pool: recorded, or, when the client
     * has left meanwhile, given straight back (returns false: it is not to be used).
     */
    boolean lent(BackendConnection conn) {
        if (clientLeft) {
            conn.release();
            return false;
        }
        borrowed.add(conn);
        return true;
    }

    /** Whether the client has gone: what it borrowed went back, and nothing may be sent for it any more. */
    boolean clientGone() {
        return clientLeft;
    }

    /** Whether {@code conn} is still this session's (not given back, nor lent to someone else since). */
    boolean has(BackendConnection conn) {
        return borrowed.contains(conn);
    }

    /**
     * Gives back a connection in no known state (a snapshot may be open on it, or a statement
     * running): closed first. Nothing happens to one the session no longer has.
     */
    void discard(BackendConnection conn) {
        if (borrowed.contains(conn)) {
            conn.close();
            borrowed.giveBack(conn);
        }
    }

    /**
     * A connection a commit of this session borrowed: recorded even after the client left, since
     * the commit goes on to its end and gives it back through here.
     */
    void adopt(BackendConnection conn) {
        borrowed.add(conn);
    }

    /**
     * A branch of a commit already answered leaves the session, which goes on while the branch's
     * XA COMMIT runs: the commit gives the connection back itself, so a client that leaves
     * meanwhile cannot close it under that XA COMMIT. Returns false (the session keeps it) when
     * pinned state ties the connection to the session.
     */
    boolean disown(int shard, BackendConnection conn) {
        if (pins.isPinned(shard, conn)) {
            return false;
        }
        if (warnings == conn) {
            warnings = null;
        }
        return borrowed.remove(conn);
    }

    /** The session's connections with a statement running on them now (KILL QUERY stops those). */
    List<BackendConnection> running() {
        return borrowed.running();
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
                borrowed.giveBack(c);
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
     * Gives back every connection the session borrowed (reset, end of session, the end of a
     * command that ran after the client left): its transaction's and pinned ones are closed, so
     * the shard rolls back and drops temporary tables, locks and cursors as a server does for a
     * client that goes; one with a statement in flight is closed too (nobody is left to read its
     * answer); a clean idle one goes back open.
     */
    void dropAll() {
        if (transaction.committing()) {
            // A two-phase commit is under way on the transaction's connections: it ends the
            // transaction and gives them back itself, and the end of its command sweeps again.
            // Closing them now would leave its prepared branches waiting for a decision that this
            // proxy, still counting the commit as running, never settles.
            releaseWarningsConnection();
            borrowed.giveBackAll(c -> transaction.held(c.shard()) == c || pins.isPinned(c.shard(), c), c -> true);
            return;
        }
        proxyWarnings = List.of();
        warnings = null;
        List<BackendConnection> stateful = pins.dropAll();
        for (int shard = 0; shard < transaction.shardCount(); shard++) {
            BackendConnection held = transaction.drop(shard);
            if (held != null) {
                stateful.add(held);
            }
        }
        borrowed.giveBackAll(c -> false, c -> !stateful.contains(c));
    }

    /** The client is gone: everything borrowed goes back, and whatever arrives later goes straight back. */
    void clientLeft() {
        clientLeft = true;
        dropAll();
        resume();
    }
}
