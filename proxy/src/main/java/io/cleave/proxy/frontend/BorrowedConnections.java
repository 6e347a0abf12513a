package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.protocol.ServerStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The backend connections one client session has borrowed from the pools and not given back:
 * whatever holds them (its transaction, pinned state, warnings, a statement in flight). Every
 * give-back of the session goes through here, so a connection is given back once however many
 * paths let go of it, and a stale reference to a connection given back long ago (and lent to
 * someone else since) can neither give it back nor close it. When the session ends, what is
 * still here is given back (closed when it may hold anything: a transaction, session state, a
 * statement in flight), so a client can end at any moment without leaving anything behind. A
 * connection shared with other clients' pipelined statements is never closed from here.
 *
 * <p>A session holds a handful of connections at most: a list scanned by identity is enough.
 */
final class BorrowedConnections {

    private final List<BackendConnection> borrowed = new ArrayList<>(4);

    void add(BackendConnection conn) {
        if (!contains(conn)) {
            borrowed.add(conn);
        }
    }

    /** Those with a statement running (a response still due). */
    List<BackendConnection> running() {
        List<BackendConnection> out = new ArrayList<>();
        for (BackendConnection c : borrowed) {
            if (c.hasPendingResponses()) {
                out.add(c);
            }
        }
        return out;
    }

    boolean contains(BackendConnection conn) {
        for (BackendConnection c : borrowed) {
            if (c == conn) {
                return true;
            }
        }
        return false;
    }

    /** Forgets {@code conn} without giving it back: someone else gives it back. Returns whether the session had it. */
    boolean remove(BackendConnection conn) {
        for (int i = 0; i < borrowed.size(); i++) {
            if (borrowed.get(i) == conn) {
                borrowed.remove(i);
                return true;
            }
        }
        return false;
    }

    /** Gives {@code conn} back to its pool if this session still has it (else it was given back already). */
    void giveBack(BackendConnection conn) {
        for (int i = 0; i < borrowed.size(); i++) {
            if (borrowed.get(i) == conn) {
                borrowed.remove(i);
                conn.release();
                return;
            }
        }
    }

    /**
     * Gives back every connection except those {@code keep} names. One that is idle and clean
     * goes back open; any other is closed first, so the shard rolls back its transaction and
     * drops its session state, and a statement still running there cannot reach anyone (it fails
     * once this is done, so the command that sent it ends).
     */
    void giveBackAll(Predicate<BackendConnection> keep, Predicate<BackendConnection> clean) {
        for (BackendConnection c : new ArrayList<>(borrowed)) {
            if (keep.test(c)) {
                continue;
            }
            if (c.isShared()) {
                // Other clients' statements were pipelined on it and wait for their answers there:
                // only this session's share goes back (an answer still due to it is dropped).
                giveBack(c);
                continue;
            }
            if (!c.isUsable() || c.hasPendingResponses() || ServerStatus.has(c.lastStatus(), ServerStatus.IN_TRANS)
                    || !clean.test(c)) {
                c.abandon();
            }
            giveBack(c);
        }
    }
}
