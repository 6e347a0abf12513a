package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.deadlock.TrackedTransaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The session's transaction as the proxy sees it. BEGIN is deferred until the first statement
 * names its shard, then sent in the same round trip as that statement: that shard holds a plain
 * transaction and is the coordinator. Every other shard the transaction reaches joins as an XA
 * branch (XA START goes with its first statement), so that COMMIT can be made atomic across
 * shards; a transaction that stays on one shard never pays for that.
 */
final class TransactionState {

    private BackendConnection[] held;
    /** Which server thread holds the transaction on each shard, for the deadlock detector. */
    private final TrackedTransaction tracked;
    private boolean[] xaBranch;
    private boolean[] wrote;
    private int heldCount;
    /** Counts transactions that ended holding shards (so the cutover gate tells one from the next). */
    private long serial;
    private int coordinator = -1;
    private String xid;
    /** START TRANSACTION ... to send before the first statement on the first shard, or null. */
    private String deferredBegin;
    /** A transaction the proxy opened itself around a multi-shard autocommit write. */
    private boolean implicit;
    /** A two-phase commit is running on the held connections. */
    private boolean committing;
    /** SET TRANSACTION ... (without SESSION): applies to the next transaction only. */
    private String nextTransaction;
    /** The application's own XA transaction (XA START): its xid as written, null when there is none. */
    private String applicationXid;
    /** Its xid as formatID:hex(gtrid):hex(bqual), for comparing xids however they are written. */
    private String applicationXidKey;
    /** After XA END: the branch's work is done (IDLE), it may be prepared or ended in one phase. */
    private boolean applicationXaIdle;
    /**
     * The transaction's savepoints, oldest first (lower-case names): a shard that joins later takes
     * them too, right after its START TRANSACTION or XA START, so that ROLLBACK TO SAVEPOINT finds
     * them there (its part before each of them is empty, as it was when the client set it).
     */
    private final List<String> savepoints = new ArrayList<>();

    /** {@code shards}: the shard indexes in use now; {@link #ensure} makes room for more (a scale adds shards). */
    TransactionState(int shards, TrackedTransaction tracked) {
        this.held = new BackendConnection[shards];
        this.tracked = tracked;
        this.xaBranch = new boolean[shards];
        this.wrote = new boolean[shards];
    }

    /** Makes room for shard indexes below {@code shards} (on the session's loop, before a statement routes). */
    void ensure(int shards) {
        if (shards > held.length) {
            held = java.util.Arrays.copyOf(held, shards);
            xaBranch = java.util.Arrays.copyOf(xaBranch, shards);
            wrote = java.util.Arrays.copyOf(wrote, shards);
            tracked.ensure(shards);
        }
    }

    /** How many shard indexes the state has room for now. */
    int shardCount() {
        return held.length;
    }

    /**
     * A statement's preamble went through on {@code shard}: if it joined the transaction there
     * (START TRANSACTION or XA START), the connection now belongs to the transaction.
     */
    void joined(int shard, BackendConnection conn) {
        if (held(shard) == null && joining(shard)) {
            hold(shard, conn);
        }
    }

    /** Whether the client believes it is in a transaction (BEGIN given, or a shard holds one). */
    boolean active() {
        return deferredBegin != null || heldCount > 0;
    }

    long serial() {
        return serial;
    }

    boolean begun() {
        return heldCount > 0;
    }

    int heldCount() {
        return heldCount;
    }

    BackendConnection held(int shard) {
        return shard < held.length ? held[shard] : null;
    }

    boolean isXaBranch(int shard) {
        return shard < xaBranch.length && xaBranch[shard];
    }

    /** An XA branch takes part: COMMIT must go through the distributed commit. */
    boolean distributed() {
        for (boolean b : xaBranch) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an error ends the transaction on every shard: a deadlock (its victim, chosen by a
     * shard or by the proxy's detector, keeps nothing anywhere), and, when it spans shards, a lock
     * wait timeout or duplicate key too, so no shard keeps its half.
     */
    boolean abortedBy(int errorCode) {
        return errorCode == DEADLOCK && begun() || distributed() && (errorCode == 1205 || errorCode == 1062);
    }

    static final int DEADLOCK = 1213;

    int coordinator() {
        return coordinator;
    }

    String xid() {
        return xid;
    }

    boolean wrote(int shard) {
        return shard < wrote.length && wrote[shard];
    }

    boolean implicit() {
        return implicit;
    }

    boolean committing() {
        return committing;
    }

    void committing(boolean running) {
        committing = running;
    }

    /** The one shard holding a transaction, or the coordinator when several do; -1 when none. */
    int onlyShard() {
        if (heldCount == 0) {
            return -1;
        }
        if (coordinator >= 0 && held[coordinator] != null) {
            return coordinator;
        }
        for (int s = 0; s < held.length; s++) {
            if (held[s] != null) {
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

    /** A shard's connection joined the transaction (its START TRANSACTION or XA START succeeded). */
    void hold(int shard, BackendConnection conn) {
        ensure(shard + 1);
        if (held[shard] == null) {
            heldCount++;
            if (coordinator < 0 && !xaBranch[shard]) {
                coordinator = shard;
                firstShard = shard;
            }
        }
        if (held[shard] != conn) {
            tracked.joined(shard, conn);
        }
        held[shard] = conn;
    }

    /** Forgets a shard's connection (its transaction ended); returns it, or null. */
    BackendConnection drop(int shard) {
        if (shard >= held.length) {
            return null;
        }
        BackendConnection c = held[shard];
        if (c != null) {
            held[shard] = null;
            heldCount--;
            tracked.left(shard);
            if (heldCount == 0) {
                serial++;
            }
        }
        xaBranch[shard] = false;
        wrote[shard] = false;
        if (shard == coordinator) {
            coordinator = -1;
        }
        return c;
    }

    void markWritten(int shard) {
        ensure(shard + 1);
        wrote[shard] = true;
    }

    void begin(String statement) {
        deferredBegin = statement;
    }

    /** XA START {@code xid}: an application's XA transaction, deferred as BEGIN is. */
    void beginApplicationXa(String xid, String key) {
        deferredBegin = "XA START " + xid;
        applicationXid = xid;
        applicationXidKey = key;
        applicationXaIdle = false;
    }

    String applicationXid() {
        return applicationXid;
    }

    String applicationXidKey() {
        return applicationXidKey;
    }

    boolean applicationXaIdle() {
        return applicationXaIdle;
    }

    void applicationXaIdle(boolean idle) {
        applicationXaIdle = idle;
    }

    /** A transaction the proxy opens to make a multi-shard autocommit write atomic. */
    void beginImplicit() {
        deferredBegin = "START TRANSACTION";
        implicit = true;
    }

    void nextTransaction(String setTransaction) {
        nextTransaction = setTransaction;
    }

    /** SAVEPOINT name: replaces one of the same name, as a server does. */
    void savepoint(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        savepoints.remove(n);
        savepoints.add(n);
    }

    boolean hasSavepoint(String name) {
        return savepoints.contains(name.toLowerCase(Locale.ROOT));
    }

    /** ROLLBACK TO SAVEPOINT name keeps it and forgets the later ones; RELEASE forgets it too. */
    void forgetSavepointsAfter(String name, boolean andItself) {
        int i = savepoints.indexOf(name.toLowerCase(Locale.ROOT));
        if (i >= 0) {
            savepoints.subList(andItself ? i : i + 1, savepoints.size()).clear();
        }
    }

    /**
     * The transaction is over (committed, rolled back, or never needed a shard). A shard it never
     * came to hold is no part of it any more either: one whose XA START failed or whose connection
     * died before the answer stays marked as joining otherwise, so the next transaction would take
     * it for an XA branch (committing a plain transaction there with XA statements), and a move's
     * cutover would wait for that transaction on it forever.
     */
    void end() {
        for (int s = 0; s < held.length; s++) {
            if (held[s] == null) {
                xaBranch[s] = false;
                wrote[s] = false;
            }
        }
        deferredBegin = null;
        implicit = false;
        committing = false;
        xid = null;
        applicationXid = null;
        applicationXidKey = null;
        applicationXaIdle = false;
        coordinator = -1;
        firstShard = -1;
        savepoints.clear();
    }

    String deferredBegin() {
        return deferredBegin;
    }

    /**
     * What to send before a statement on {@code shard}: SET TRANSACTION for the next transaction,
     * and, when the statement belongs to a transaction the shard has not joined yet, START
     * TRANSACTION (the first shard, the coordinator) or XA START (every further shard). Consumes
     * the one-shot parts.
     *
     * @param inTransaction the statement belongs to a transaction (BEGIN, autocommit off, or one
     *                      the proxy opened)
     * @param xidFor        makes the transaction's XA id from the coordinator shard, when a second shard joins
     */
    List<String> preamble(int shard, boolean inTransaction, java.util.function.IntFunction<String> xidFor) {
        List<String> out = null;
        ensure(shard + 1);
        boolean joining = inTransaction && held[shard] == null;
        if (nextTransaction != null && (!inTransaction || joining && heldCount == 0 && firstShard < 0)) {
            out = new ArrayList<>(3);
            out.add(nextTransaction);
            nextTransaction = null;
        }
        if (!joining) {
            return out;
        }
        if (out == null) {
            out = new ArrayList<>(2);
        }
        if (heldCount == 0 && (firstShard < 0 || firstShard == shard)) {
            // The coordinator: a plain transaction (implicit when autocommit is off).
            firstShard = shard;
            if (deferredBegin != null) {
                out.add(deferredBegin);
            }
        } else {
            if (xid == null) {
                xid = xidFor.apply(heldCount > 0 ? onlyShard() : firstShard);
            }
            xaBranch[shard] = true;
            out.add("XA START " + quoted(xid));
        }
        for (String name : savepoints) {
            out.add("SAVEPOINT `" + name.replace("`", "``") + "`");
        }
        return out.isEmpty() ? null : out;
    }

    /**
     * The statements that join {@code shard} to the transaction inside a cut's window, as
     * {@link #preamble} would for its first statement there but opening its snapshot at once: the
     * first shard (the coordinator) starts WITH CONSISTENT SNAPSHOT, every other one starts an XA
     * branch and opens its read view with a read (XA START has no WITH CONSISTENT SNAPSHOT). A READ
     * ONLY transaction's branches are read-only too. {@code setTransaction} (the client's SET
     * TRANSACTION for this transaction, or null) goes to every shard.
     */
    List<String> openingAtCut(int shard, String setTransaction, java.util.function.IntFunction<String> xidFor) {
        ensure(shard + 1);
        List<String> out = new ArrayList<>(4 + savepoints.size());
        if (setTransaction != null) {
            out.add(setTransaction);
        }
        if (heldCount == 0 && (firstShard < 0 || firstShard == shard)) {
            firstShard = shard;
            out.add(io.cleave.proxy.cut.SnapshotStatements.withConsistentSnapshot(deferredBegin));
        } else {
            if (xid == null) {
                xid = xidFor.apply(heldCount > 0 ? onlyShard() : firstShard);
            }
            xaBranch[shard] = true;
            if (deferredBegin != null && deferredBegin.toUpperCase(Locale.ROOT).contains("READ ONLY")) {
                out.add("SET TRANSACTION READ ONLY");
            }
            out.add("XA START " + quoted(xid));
            out.add(io.cleave.proxy.cut.SnapshotStatements.OPEN_READ_VIEW);
        }
        for (String name : savepoints) {
            out.add("SAVEPOINT `" + name.replace("`", "``") + "`");
        }
        return out;
    }

    /** SET TRANSACTION ... for the next transaction, or null. */
    String nextTransaction() {
        return nextTransaction;
    }

    /** The pending SET TRANSACTION, consumed (a cut sends it to every shard it joins). */
    String takeNextTransaction() {
        String next = nextTransaction;
        nextTransaction = null;
        return next;
    }

    /** Whether some shard is joining (its START TRANSACTION or XA START sent) but not held yet. */
    boolean joiningAny() {
        if (firstShard >= 0 && held(firstShard) == null) {
            return true;
        }
        for (int s = 0; s < xaBranch.length; s++) {
            if (xaBranch[s] && held[s] == null) {
                return true;
            }
        }
        return false;
    }

    /** The shard whose START TRANSACTION went first (the coordinator-to-be), or -1. */
    private int firstShard = -1;

    /** Whether {@code shard} is joining (its START TRANSACTION or XA START was sent) but not held yet. */
    boolean joining(int shard) {
        return held(shard) == null && (isXaBranch(shard) || firstShard == shard);
    }

    /** A join failed: the shard is not part of the transaction. */
    void joinFailed(int shard) {
        ensure(shard + 1);
        xaBranch[shard] = false;
        if (firstShard == shard && held[shard] == null) {
            firstShard = -1;
        }
    }

    static String quoted(String xid) {
        return "'" + xid.replace("'", "''") + "'";
    }
}
