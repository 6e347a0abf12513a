package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;

import java.util.ArrayList;
import java.util.List;

/**
 * The session's transaction as the proxy sees it. BEGIN is deferred until the first statement
 * names its shard, then sent in the same round trip as that statement; each shard that joins
 * keeps its connection here until COMMIT or ROLLBACK.
 */
final class TransactionState {

    private final BackendConnection[] held;
    private int heldCount;
    /** START TRANSACTION ... to send before the first statement on a shard, or null. */
    private String deferredBegin;
    /** SET TRANSACTION ... (without SESSION): applies to the next transaction only. */
    private String nextTransaction;
    /** SAVEPOINTs issued before any shard joined: replayed on the first shard. */
    private final List<String> earlySavepoints = new ArrayList<>();
    private final List<String> earlySavepointNames = new ArrayList<>();

    TransactionState(int shards) {
        this.held = new BackendConnection[shards];
    }

    /** Whether the client believes it is in a transaction (BEGIN given, or a shard holds one). */
    boolean active() {
        return deferredBegin != null || heldCount > 0;
    }

    boolean begun() {
        return heldCount > 0;
    }

    int heldCount() {
        return heldCount;
    }

    BackendConnection held(int shard) {
        return held[shard];
    }

    /** The one shard holding a transaction, or -1 (none or several). */
    int onlyShard() {
        if (heldCount != 1) {
            return -1;
        }
        for (int s = 0; s < held.length; s++) {
            if (held[s] != null) {
                return s;
            }
        }
        return -1;
    }

    /** A shard other than {@code shard} that already holds a transaction, or -1. */
    int otherShard(int shard) {
        for (int s = 0; s < held.length; s++) {
            if (s != shard && held[s] != null) {
                return s;
            }
        }
        return -1;
    }

    List<BackendConnection> heldConnections() {
        List<BackendConnection> out = new ArrayList<>(heldCount);
        for (BackendConnection c : held) {
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    void hold(int shard, BackendConnection conn) {
        if (held[shard] == null) {
            heldCount++;
        }
        held[shard] = conn;
        // The transaction started there: deferred work is done once the first shard joined.
        earlySavepoints.clear();
        earlySavepointNames.clear();
    }

    /** Forgets a shard's connection (its transaction ended); returns it, or null. */
    BackendConnection drop(int shard) {
        BackendConnection c = held[shard];
        if (c != null) {
            held[shard] = null;
            heldCount--;
        }
        return c;
    }

    void begin(String statement) {
        deferredBegin = statement;
    }

    void nextTransaction(String setTransaction) {
        nextTransaction = setTransaction;
    }

    void earlySavepoint(String name, String statement) {
        earlySavepointNames.add(name.toLowerCase(java.util.Locale.ROOT));
        earlySavepoints.add(statement);
    }

    boolean hasEarlySavepoint(String name) {
        return earlySavepointNames.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    void releaseEarlySavepoint(String name) {
        int i = earlySavepointNames.indexOf(name.toLowerCase(java.util.Locale.ROOT));
        if (i >= 0) {
            earlySavepointNames.remove(i);
            earlySavepoints.remove(i);
        }
    }

    /** The deferred BEGIN is over (the transaction ended or never needed a shard). */
    void end() {
        deferredBegin = null;
        earlySavepoints.clear();
        earlySavepointNames.clear();
    }

    String deferredBegin() {
        return deferredBegin;
    }

    /**
     * What to send before a statement on {@code shard}: SET TRANSACTION for the next transaction,
     * and when a BEGIN waits and the shard has not joined, START TRANSACTION and early savepoints.
     * Consumes the one-shot parts.
     */
    List<String> preamble(int shard, boolean startsTransaction) {
        List<String> out = null;
        boolean joining = deferredBegin != null && held[shard] == null && startsTransaction;
        if (nextTransaction != null && (joining || deferredBegin == null && heldCount == 0)) {
            out = new ArrayList<>(3);
            out.add(nextTransaction);
            nextTransaction = null;
        }
        if (joining) {
            if (out == null) {
                out = new ArrayList<>(2);
            }
            out.add(deferredBegin);
            out.addAll(earlySavepoints);
        }
        return out;
    }
}
