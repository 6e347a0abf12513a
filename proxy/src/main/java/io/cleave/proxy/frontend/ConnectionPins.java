package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.router.plan.PinNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The backend connections a session must keep because they hold its state: temporary tables,
 * named locks, LOCK TABLES, SQL prepared statements, open cursors, the last values of sequences. Such a connection serves every
 * statement of the session on its shard until the last of that state is gone, then goes back to
 * the pool. State whose name the proxy cannot read (a lock name given as a parameter) keeps the
 * connection until the session resets or ends.
 */
final class ConnectionPins {

    /** One shard's pinned connection and what it holds. */
    private static final class Held {
        final BackendConnection connection;
        final Set<String> temporaryTables = new HashSet<>();
        final Map<String, Integer> namedLocks = new HashMap<>();
        final Set<String> preparedStatements = new HashSet<>();
        boolean lockTables;
        /** The connection drew from or set a sequence: its LASTVAL is the session's. */
        boolean sequences;
        int cursors;
        boolean untracked;

        Held(BackendConnection connection) {
            this.connection = connection;
        }

        boolean holdsAnything() {
            return lockTables || sequences || cursors > 0 || untracked || !temporaryTables.isEmpty() || !namedLocks.isEmpty()
                    || !preparedStatements.isEmpty();
        }
    }

    private Held[] held;

    /** {@code shards}: the shard indexes in use now; room for more is made as shards are pinned. */
    ConnectionPins(int shards) {
        this.held = new Held[shards];
    }

    private Held at(int shard) {
        return shard < held.length ? held[shard] : null;
    }

    /** The pinned connection to {@code shard}, or null. */
    BackendConnection connection(int shard) {
        Held h = at(shard);
        return h == null ? null : h.connection;
    }

    boolean isPinned(int shard, BackendConnection conn) {
        return at(shard) != null && at(shard).connection == conn;
    }

    /** True when the session has created temporary tables that still exist (or may: untracked state). */
    boolean holdsTemporaryTables() {
        for (Held h : held) {
            if (h != null && (!h.temporaryTables.isEmpty() || h.untracked)) {
                return true;
            }
        }
        return false;
    }

    /** A shard the session holds a connection to, or -1. */
    int anyShard() {
        for (int i = 0; i < held.length; i++) {
            if (held[i] != null) {
                return i;
            }
        }
        return -1;
    }

    /** Records what a successful statement created or released on {@code conn}. */
    void apply(int shard, BackendConnection conn, PinNames names) {
        Held h = at(shard);
        if (h != null && h.connection != conn) {
            // Cannot happen (a pinned connection serves its shard), but never lose track of one.
            h.untracked = true;
            return;
        }
        switch (names.pin()) {
            case TEMPORARY_TABLE:
                h = hold(shard, conn);
                h.temporaryTables.addAll(names.names());
                break;
            case DROP_TEMPORARY_TABLE:
                if (h != null) {
                    h.temporaryTables.removeAll(names.released());
                }
                break;
            case NAMED_LOCK:
            case RELEASE_NAMED_LOCK:
                if (!names.names().isEmpty() || !names.complete()) {
                    h = hold(shard, conn);
                }
                if (h != null) {
                    if (names.releaseAll()) {
                        h.namedLocks.clear();
                    }
                    for (String name : names.released()) {
                        // Locks are counted: each GET_LOCK of a held name needs its own release.
                        h.namedLocks.computeIfPresent(name, (k, n) -> n > 1 ? n - 1 : null);
                    }
                    for (String name : names.names()) {
                        h.namedLocks.merge(name, 1, Integer::sum);
                    }
                }
                break;
            case LOCK_TABLES:
                hold(shard, conn).lockTables = true;
                break;
            case UNLOCK_TABLES:
                if (h != null) {
                    h.lockTables = false;
                }
                break;
            case SQL_PREPARE:
                hold(shard, conn).preparedStatements.addAll(names.names());
                break;
            case SQL_DEALLOCATE:
                if (h != null) {
                    h.preparedStatements.removeAll(names.released());
                }
                break;
            case SEQUENCE:
                hold(shard, conn).sequences = true;
                break;
            default:
                return;
        }
        h = at(shard);
        if (h != null) {
            h.untracked |= !names.complete();
            release(shard);
        }
    }

    /** The named locks {@code names} turned out not to be owned by {@code conn} (a GET_LOCK that timed out). */
    void notHeld(int shard, BackendConnection conn, List<String> names) {
        Held h = at(shard);
        if (h != null && h.connection == conn) {
            names.forEach(h.namedLocks::remove);
            release(shard);
        }
    }

    /** A cursor was opened on {@code conn}: it serves the statement's COM_STMT_FETCH until closed. */
    void cursorOpened(int shard, BackendConnection conn) {
        Held h = at(shard);
        if (h != null && h.connection != conn) {
            h.untracked = true;
            return;
        }
        hold(shard, conn).cursors++;
    }

    void cursorClosed(int shard) {
        Held h = at(shard);
        if (h != null && h.cursors > 0) {
            h.cursors--;
            release(shard);
        }
    }

    /** The connection broke: what it held is gone with it. */
    void lost(int shard, BackendConnection conn) {
        if (isPinned(shard, conn)) {
            held[shard] = null;
        }
    }

    /** Forgets every pin (reset, end of session); returns the connections, to be closed. */
    List<BackendConnection> dropAll() {
        List<BackendConnection> out = new ArrayList<>();
        for (int i = 0; i < held.length; i++) {
            if (held[i] != null) {
                out.add(held[i].connection);
                held[i] = null;
            }
        }
        return out;
    }

    private Held hold(int shard, BackendConnection conn) {
        if (shard >= held.length) {
            held = java.util.Arrays.copyOf(held, shard + 1);
        }
        if (held[shard] == null) {
            held[shard] = new Held(conn);
        }
        return held[shard];
    }

    private void release(int shard) {
        if (!held[shard].holdsAnything()) {
            held[shard] = null;
        }
    }
}
