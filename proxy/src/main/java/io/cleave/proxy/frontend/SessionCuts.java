package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.AcquireCallback;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.cut.BackendCut;
import io.cleave.proxy.cut.Cut;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.cut.ShardSnapshot;
import io.cleave.proxy.cut.SnapshotStatements;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * When a client session's reads take a consistent cut ({@link CutWindows}), and how:
 * <ul>
 * <li>a read of several shards outside a transaction reads them at a cut of its own
 *     ({@link #read}), on pool connections whose snapshots end with the command;</li>
 * <li>a read of several shards that is the first statement of a REPEATABLE READ transaction
 *     joins those shards to the transaction at a cut ({@link #join}): the first as the coordinator
 *     (START TRANSACTION WITH CONSISTENT SNAPSHOT), the others as XA branches whose read view
 *     opens inside the window;</li>
 * <li>a transaction begun WITH CONSISTENT SNAPSHOT or READ ONLY at REPEATABLE READ joins every
 *     shard at one cut, at START TRANSACTION or at its first statement ({@link #snapshotTransaction}).</li>
 * </ul>
 * Nothing else takes part: a statement on one shard never waits for a cut. A cut whose shards
 * all answered, but later than its window allows (a slow round trip on a busy host), is taken
 * again from the start, up to {@link #ATTEMPTS} times: nothing of the client's ran yet, and its
 * connections (with whatever snapshot they opened) are closed first.
 */
final class SessionCuts {

    /** How many times a cut is tried before its client is told it could not be taken. */
    static final int ATTEMPTS = 3;

    private final Session session;

    SessionCuts(Session session) {
        this.session = session;
    }

    private CutWindows windows() {
        return session.runtime().cuts();
    }

    /** Whether a read of {@code shards} shards outside a transaction reads them at a cut. */
    boolean forRead(int shards) {
        return shards > 1 && windows().enabled();
    }

    /**
     * Whether a read of {@code shards} shards inside the session's transaction joins them at a cut:
     * when it is the transaction's first statement to reach a shard, at REPEATABLE READ, and reads
     * without locks (a locking read reads the newest rows, which the locks keep whole).
     */
    boolean forFirstRead(int shards, boolean lockingRead) {
        TransactionState tx = session.transaction();
        return shards > 1 && !lockingRead && windows().enabled() && !tx.begun() && !tx.joiningAny()
                && repeatableRead();
    }

    /**
     * Whether the session's transaction is one that reads every shard at one cut (begun WITH
     * CONSISTENT SNAPSHOT or READ ONLY, at REPEATABLE READ) and has not taken it yet.
     */
    boolean snapshotDue() {
        TransactionState tx = session.transaction();
        if (!windows().enabled() || !tx.active() || tx.begun() || tx.joiningAny() || tx.deferredBegin() == null
                || session.runtime().shardMaps().current().shardCount() < 2
                || !session.runtime().shardMaps().current().attached().isEmpty()) {
            return false;
        }
        String begin = tx.deferredBegin().toUpperCase(Locale.ROOT);
        String next = tx.nextTransaction() == null ? "" : tx.nextTransaction().toUpperCase(Locale.ROOT);
        return (begin.contains("WITH CONSISTENT SNAPSHOT") || begin.contains("READ ONLY") || next.contains("READ ONLY"))
                && repeatableRead();
    }

    /**
     * Whether the session's (next) transaction runs at REPEATABLE READ, where a snapshot lasts the
     * transaction: at READ COMMITTED and READ UNCOMMITTED each statement reads afresh on each shard,
     * and at SERIALIZABLE reads lock. A level the session never set is the shards' default.
     */
    private boolean repeatableRead() {
        String next = session.transaction().nextTransaction();
        if (next != null) {
            String upper = next.toUpperCase(Locale.ROOT);
            int at = upper.indexOf("ISOLATION LEVEL");
            if (at >= 0) {
                return isRepeatableRead(upper.substring(at + "ISOLATION LEVEL".length()));
            }
        }
        return sessionRepeatableRead();
    }

    /** Whether the session's own level is REPEATABLE READ (set so, or not set: the shards' default). */
    private boolean sessionRepeatableRead() {
        String level = session.settings().systemVariables().get(session.runtime().transactionVariables().isolation());
        return level == null || isRepeatableRead(level);
    }

    private static boolean isRepeatableRead(String level) {
        return level.toUpperCase(Locale.ROOT).replace('-', ' ').contains("REPEATABLE READ");
    }

    // ---- taking cuts -------------------------------------------------------------------------

    /**
     * Takes a cut over {@code shards} for a read outside a transaction, on connections brought to
     * {@code settings}; {@code then} gets the context its statements run in, whose snapshots end
     * when the command does. A cut that cannot be taken answers the command with the error.
     */
    void read(Command command, int[] shards, SessionSettings settings, Consumer<ReadAtCut> then) {
        // The statement is a transaction of its own: a SET TRANSACTION before it was for it. Its
        // snapshot is taken at REPEATABLE READ whatever the level (one statement reads the same rows
        // at any level but READ UNCOMMITTED, which is given committed rows), so the level is only set
        // where the session's differs.
        session.transaction().takeNextTransaction();
        List<String> statements = sessionRepeatableRead() ? SnapshotStatements.READ.subList(1, 2) : SnapshotStatements.READ;
        List<BackendCut.ShardOpening> openings = new ArrayList<>(shards.length);
        for (int shard : shards) {
            openings.add(new BackendCut.ShardOpening(shard, statements));
        }
        take(openings, settings, ATTEMPTS, cut -> {
            ReadAtCut atCut = new ReadAtCut(session, cut, settings);
            command.whenEnded(atCut::end);
            then.accept(atCut);
        }, failed -> failed(command, failed));
    }

    /**
     * Joins {@code shards} to the session's transaction at one cut (the first one coordinates),
     * then runs {@code then}; a cut that cannot be taken answers the command with the error and
     * leaves the transaction as it was.
     */
    void join(Command command, int[] shards, Runnable then) {
        join(command, shards, then, null);
    }

    /** As {@link #join(Command, int[], Runnable)}; {@code abandon} (if not null) runs before a failed cut's error is sent. */
    private void join(Command command, int[] shards, Runnable then, Runnable abandon) {
        TransactionState tx = session.transaction();
        String setTransaction = tx.takeNextTransaction();
        List<BackendCut.ShardOpening> openings = new ArrayList<>(shards.length);
        for (int shard : shards) {
            openings.add(new BackendCut.ShardOpening(shard, tx.openingAtCut(shard, setTransaction, session.xids())));
        }
        take(openings, session.settingsFor(command), ATTEMPTS, cut -> {
            for (ShardSnapshot<BackendConnection> s : cut.shards()) {
                tx.hold(s.shard(), s.connection());
            }
            then.run();
        }, failed -> {
            for (int shard : shards) {
                tx.joinFailed(shard);
            }
            if (abandon != null) {
                abandon.run();
            }
            failed(command, failed);
        });
    }

    /** Takes a cut, again while it fails only by its window expiring and attempts are left. */
    private void take(List<BackendCut.ShardOpening> openings, SessionSettings settings, int attempts,
                      Consumer<Cut<BackendConnection>> taken, Consumer<BackendCut.Failed> failed) {
        BackendCut.take(windows(), openings, false, new PoolConnections(settings), outcome -> {
            if (outcome instanceof BackendCut.Taken t) {
                taken.accept(t.cut());
                return;
            }
            BackendCut.Failed f = (BackendCut.Failed) outcome;
            if (f.windowExpired() && attempts > 1 && !session.connections().clientGone()) {
                discard(f);
                take(openings, settings, attempts - 1, taken, failed);
            } else {
                failed.accept(f);
            }
        });
    }

    /**
     * The session's transaction reads every shard at one cut taken now; then {@code then} runs. When
     * the cut cannot be taken at {@code START TRANSACTION} itself ({@code atStart}), no transaction
     * is left begun, as a server leaves none after a START TRANSACTION that failed.
     */
    void snapshotTransaction(Command command, boolean atStart, Runnable then) {
        int count = session.runtime().shardMaps().current().shardCount();
        int[] shards = new int[count];
        for (int s = 0; s < count; s++) {
            shards[s] = s;
        }
        join(command, shards, then, atStart ? session.transaction()::end : null);
    }

    /** Connections that may hold part of a snapshot go: closed, so nothing of it stays open. */
    private void failed(Command command, BackendCut.Failed failed) {
        discard(failed);
        command.error(failed.error());
    }

    private void discard(BackendCut.Failed failed) {
        for (BackendConnection c : failed.connections()) {
            session.connections().discard(c);
        }
    }

    /** A cut's connections: the session's loop's pools, recorded as the session's, brought to the given settings. */
    private final class PoolConnections implements BackendCut.Connections {
        private final SessionSettings settings;

        PoolConnections(SessionSettings settings) {
            this.settings = settings;
        }

        @Override
        public Executor executor() {
            return session.loop().loop();
        }

        @Override
        public boolean abandoned() {
            return session.connections().clientGone();
        }

        @Override
        public void connect(int shard, BackendCut.Connected then) {
            session.loop().pool(shard).acquire(session.shardLogin(), new AcquireCallback() {
                @Override
                public void acquired(BackendConnection conn) {
                    if (!session.connections().lent(conn)) {
                        then.failed(new ErrPacket(1158, "08S01", "the client has left"));
                        return;
                    }
                    SessionSyncStep.run(conn, settings, error -> {
                        if (error == null) {
                            then.ready(conn);
                        } else {
                            session.connections().keepOrGiveBack(shard, conn, false);
                            then.failed(error);
                        }
                    });
                }

                @Override
                public void failed(Throwable cause) {
                    then.failed(ShardErrors.unavailable(shard, cause));
                }

                @Override
                public ConnectionWaiter waiter() {
                    return session.tracked();
                }
            });
        }
    }
}
