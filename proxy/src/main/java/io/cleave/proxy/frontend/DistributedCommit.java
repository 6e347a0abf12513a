package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.CleaveSchema;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.metrics.TransactionKind;
import io.cleave.proxy.metrics.TransactionOutcome;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.CommitFence;
import io.cleave.proxy.server.CommitStep;
import io.cleave.proxy.session.SessionSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Ends a transaction that reached several shards. The coordinator shard holds a plain
 * transaction, every other shard an XA branch. When at most one shard wrote, each shard simply
 * ends its part (the writer commits in one phase). Otherwise: the writing branches are prepared
 * while the commit decision, a row of {@code cleave.decisions}, is inserted inside the
 * coordinator's own transaction (invisible until it commits); only when every branch prepared and
 * the row is in does the coordinator COMMIT (fsynced by InnoDB): that is the one atomic, durable
 * decision. The client is answered then, and the branches commit after: each branch commit still
 * to run is pending in the runtime's {@link CommitFence}, which every later statement reaching
 * that shard waits for, so nobody reads around an acknowledged transaction. A crash before the
 * decision's COMMIT leaves prepared branches without a decision (recovery rolls them back); after
 * it, recovery commits them.
 *
 * <p>The COMMIT is never sent behind the INSERT in one round trip: a failed INSERT (a duplicate
 * xid, a lock wait timeout, a missing table) only ends that statement, so a COMMIT after it would
 * commit the coordinator's own writes while every branch rolls back.
 */
final class DistributedCommit extends SessionLegs {

    private static final Logger log = LoggerFactory.getLogger(DistributedCommit.class);

    private final TransactionState tx;
    private final String xid;
    private final List<Integer> shards = new ArrayList<>();
    private final int coordinator;
    private final TransactionKind kind;
    /** Branches whose XA COMMIT runs after the client was answered: no longer the session's transaction's. */
    private final Map<Integer, BackendConnection> committingBranches = new HashMap<>();
    /** Those of them the session let go of: given back to their pools by this commit. */
    private final List<BackendConnection> ownBranches = new ArrayList<>();
    /**
     * The session's settings when COMMIT came, which every leg of the commit keeps. Branches commit
     * after the client was answered, and its next statements may change the session's settings
     * meanwhile: bringing a prepared branch's connection to them would send it a SET, which a
     * prepared branch refuses (XAER_RMFAIL); the failed sync closes the connection and leaves the
     * branch prepared, holding its row locks until recovery commits it.
     */
    private final SessionSettings settings;
    /** Answers the client once the branches committed, when one of them could not leave the session; else null. */
    private Runnable answerAfterBranches;
    /** The decision's way through the cuts' windows (see {@link #decide}); null before the decision. */
    private CutWindows.Decision decision;

    DistributedCommit(Session session) {
        super(session);
        this.tx = session.transaction();
        this.xid = tx.xid();
        this.kind = tx.implicit() ? TransactionKind.MULTI_SHARD_AUTOCOMMIT : TransactionKind.CROSS_SHARD;
        for (BackendConnection c : tx.heldConnections()) {
            shards.add(c.shard());
        }
        this.coordinator = tx.coordinator();
        this.settings = session.settings();
    }

    /** Rolls back every shard of the session's transaction, then runs {@code then}. */
    static void rollBack(Session session, Runnable then) {
        new DistributedCommit(session).rollback(ignored -> then.run());
    }

    /** Commits; {@code done} gets null on success or the error the client should see. */
    void commit(Consumer<ErrPacket> done) {
        long started = System.nanoTime();
        commitMeasured(error -> {
            ProxyMetrics metrics = session.runtime().metrics();
            metrics.distributedCommit(System.nanoTime() - started);
            metrics.transactionEnded(kind, error == null ? TransactionOutcome.COMMIT : TransactionOutcome.FAILED);
            done.accept(error);
        });
    }

    private void commitMeasured(Consumer<ErrPacket> done) {
        List<Integer> writers = new ArrayList<>();
        for (int s : shards) {
            if (tx.wrote(s)) {
                writers.add(s);
            }
        }
        if (writers.size() <= 1 || xid == null) {
            onePhase(writers, done);
            return;
        }
        if (coordinator < 0 || tx.held(coordinator) == null) {
            // The coordinator's part is gone (its server rolled it back): nothing can decide a commit.
            rollBackEverywhere(() -> done.accept(new ErrPacket(1213, "40001", "the transaction was rolled back on shard "
                    + "of its first statement; it is rolled back on shards " + shards + " too")));
            return;
        }
        twoPhase(writers, done);
    }

    /** Rolls every shard back; errors (a branch a deadlock already rolled back) do not matter. */
    void rollback(Consumer<ErrPacket> done) {
        rollBackEverywhere(() -> {
            session.runtime().metrics().transactionEnded(kind, TransactionOutcome.ROLLBACK);
            done.accept(null);
        });
    }

    private void rollBackEverywhere(Runnable then) {
        if (tx.applicationXid() != null) {
            // The application's XA branch, not prepared: its server rolls it back when its connection closes.
            closeEverywhere();
            then.run();
            return;
        }
        MultiExchange multi = new MultiExchange(this, false, results -> {
            finish();
            then.run();
        });
        for (int s : shards) {
            multi.leg(s, s == coordinator ? List.of(sql("ROLLBACK")) : List.of(sql("XA END " + q()), sql("XA ROLLBACK " + q())));
        }
        multi.start();
    }

    /** At most one shard wrote: no decision to record, each shard ends its own part. */
    private void onePhase(List<Integer> writers, Consumer<ErrPacket> done) {
        MultiExchange multi = new MultiExchange(this, false, results -> {
            finish();
            done.accept(firstError(results));
        });
        for (int s : shards) {
            if (s == coordinator) {
                multi.leg(s, sql("COMMIT"));
            } else if (writers.contains(s)) {
                multi.leg(s, List.of(sql("XA END " + q()), sql("XA COMMIT " + q() + " ONE PHASE")));
            } else {
                multi.leg(s, List.of(sql("XA END " + q()), sql("XA ROLLBACK " + q())));
            }
        }
        multi.start();
    }

    private void twoPhase(List<Integer> writers, Consumer<ErrPacket> done) {
        tx.committing(true);
        hook(CommitStep.BEFORE_PREPARE);
        List<Integer> prepared = new ArrayList<>();
        List<Integer> branches = new ArrayList<>(writers);
        branches.remove(Integer.valueOf(coordinator));
        MultiExchange prepare = new MultiExchange(this, false, results -> {
            ErrPacket error = firstError(results);
            for (LegResult r : results) {
                if (r.ok() && r.shard != coordinator && writers.contains(r.shard)) {
                    prepared.add(r.shard);
                }
            }
            if (error != null) {
                abort(prepared, error, done);
                return;
            }
            hook(CommitStep.AFTER_PREPARE);
            decide(prepared, done);
        });
        for (int s : shards) {
            if (s == coordinator) {
                // The decision row goes in with the prepares; it commits only with the coordinator. The
                // coordinator's connection is the client's account, which has no privilege on cleave's
                // tables: the row goes in through the procedure that runs as the shard account.
                prepare.leg(s, sql(CleaveSchema.decide(q(), join(branches))));
            } else if (writers.contains(s)) {
                prepare.leg(s, List.of(sql("XA END " + q()), sql("XA PREPARE " + q())));
            } else {
                prepare.leg(s, List.of(sql("XA END " + q()), sql("XA ROLLBACK " + q())));
            }
        }
        session.runtime().inDoubt().started(xid);
        prepare.start();
    }

    /**
     * The decision: the coordinator's transaction, holding the decision row, commits. The
     * transaction becomes visible on the coordinator's shard then, and on each other shard at its
     * branch's XA COMMIT; a cut whose snapshots are being opened (see {@link CutWindows}) makes the
     * decision wait for its snapshot on the coordinator's shard (the client has not been answered
     * yet), and the branch commits for its snapshots on theirs.
     */
    private void decide(List<Integer> prepared, Consumer<ErrPacket> done) {
        decision = session.runtime().cuts().decision(coordinator);
        if (decision.go(session.loop().loop(), () -> sendDecision(prepared, done))) {
            sendDecision(prepared, done);
        }
    }

    private void sendDecision(List<Integer> prepared, Consumer<ErrPacket> done) {
        ErrPacket fenced = session.runtime().primaryFence().refusal();
        if (fenced != null) {
            decision.answered();
            leavePrepared(prepared, fenced, done);
            return;
        }
        BackendConnection coordinatorConnection = tx.held(coordinator);
        if (coordinatorConnection == null || !coordinatorConnection.isUsable()) {
            // The coordinator's transaction died with its connection before the decision was sent:
            // no decision can exist, so the outcome is known and every branch rolls back now.
            decision.answered();
            abort(prepared, new ErrPacket(1402, "XA100", "Lost connection to shard " + coordinator + " before the"
                    + " commit decision: the transaction was rolled back on shards " + shards), done);
            return;
        }
        new MultiExchange(this, false, results -> {
            LegResult r = results.get(0);
            if (r.error != null) {
                // The coordinator refused: nothing committed anywhere.
                decision.answered();
                abort(prepared, r.error, done);
                return;
            }
            if (r.failure != null) {
                // Lost the coordinator during COMMIT: whether it committed is unknown here, but the
                // decision table knows; recovery commits or rolls back the prepared branches from it.
                for (int s : prepared) {
                    // Committed or not on the coordinator: until recovery knows, cuts keep off the branches.
                    session.runtime().cuts().owe(s, xid);
                }
                decision.answered();
                session.runtime().inDoubt().finished(xid);
                finish();
                log.warn("transaction {}: lost shard {} while committing; recovery will settle branches {}", xid,
                        coordinator, prepared);
                done.accept(new ErrPacket(2013, "HY000", "Lost connection to shard " + coordinator
                        + " while committing a transaction across shards " + shards + "; its outcome is being settled"
                        + " by recovery (xid " + xid + ")"));
                return;
            }
            hook(CommitStep.AFTER_DECISION);
            commitBranches(prepared, done);
        }).leg(coordinator, sql("COMMIT")).start();
    }

    /**
     * The decision is durable: the transaction is committed. The branches leave the session's
     * transaction, each pending in the fence on its shard, and the client is answered; then they
     * commit, and each shard's fence entry ends with its branch's XA COMMIT. A branch whose
     * connection stays the session's (pinned state ties it there) commits before the answer
     * instead: until the answer its client's leaving cannot close that connection under the XA
     * COMMIT, which would leave the branch prepared.
     */
    private void commitBranches(List<Integer> prepared, Consumer<ErrPacket> done) {
        CommitFence fence = session.runtime().commitFence();
        Map<Integer, Long> tickets = new HashMap<>();
        boolean answerNow = true;
        for (int s : prepared) {
            BackendConnection branch = tx.drop(s);
            committingBranches.put(s, branch);
            if (branch != null && session.connections().disown(s, branch)) {
                ownBranches.add(branch);
            } else if (branch != null) {
                answerNow = false;
            }
            tickets.put(s, fence.pending(s));
        }
        // No longer in flight only now that its branch commits are pending in the fence: a cut's
        // window opening from here on waits for them on their shards.
        decision.answered();
        if (answerNow) {
            finish();
            done.accept(null);
        } else {
            // The transaction stays "committing" until the pinned branch committed: a client
            // leaving meanwhile then keeps the session's connections open instead of closing the
            // branch's under its XA COMMIT.
            answerAfterBranches = () -> {
                finish();
                done.accept(null);
            };
        }
        if (prepared.isEmpty()) {
            branchesCommitted(List.of());
            return;
        }
        // The first branch commits alone, so a test can stop the coordinator between branch commits.
        int first = prepared.get(0);
        List<Integer> rest = prepared.subList(1, prepared.size());
        Consumer<List<LegResult>> firstEnded = firstResult -> {
            branchCommitEnded(fence, tickets, firstResult);
            hook(CommitStep.DURING_COMMIT);
            if (rest.isEmpty()) {
                branchesCommitted(firstResult);
                return;
            }
            Consumer<List<LegResult>> restEnded = results -> {
                branchCommitEnded(fence, tickets, results);
                List<LegResult> all = new ArrayList<>(firstResult);
                all.addAll(results);
                branchesCommitted(all);
            };
            Runnable commitRest = () -> commitUnlessFenced(rest, () -> {
                MultiExchange others = new MultiExchange(this, false, restEnded);
                for (int s : rest) {
                    others.leg(s, sql("XA COMMIT " + q()));
                }
                others.start();
            }, restEnded);
            if (decision.commitBranches(shardArray(rest), session.loop().loop(), commitRest)) {
                commitRest.run();
            }
        };
        Runnable commitFirst = () -> commitUnlessFenced(List.of(first),
                () -> new MultiExchange(this, false, firstEnded).leg(first, sql("XA COMMIT " + q())).start(), firstEnded);
        if (decision.commitBranches(new int[] {first}, session.loop().loop(), commitFirst)) {
            commitFirst.run();
        }
    }

    /**
     * Branch commits ended: their fence entries end. One that failed (its shard went away) leaves
     * its branch prepared, committed elsewhere: no cut may cover that shard until recovery has
     * committed it, which is recorded before the fence lets a cut's snapshot there open.
     */
    private void branchCommitEnded(CommitFence fence, Map<Integer, Long> tickets, List<LegResult> results) {
        for (LegResult r : results) {
            if (!r.ok()) {
                session.runtime().cuts().owe(r.shard, xid);
            }
            fence.done(r.shard, tickets.get(r.shard));
        }
    }

    private static int[] shardArray(List<Integer> shards) {
        int[] out = new int[shards.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = shards.get(i);
        }
        return out;
    }

    /**
     * A branch that did not commit (its shard went away) stays prepared until recovery commits
     * it, and recovery commits only what the decision table names: so the decision row is
     * deleted only when every branch committed, else recovery removes it once nothing needs it.
     */
    private void branchesCommitted(List<LegResult> branches) {
        List<String> failed = new ArrayList<>();
        for (LegResult r : branches) {
            if (!r.ok()) {
                failed.add("shard " + r.shard + ": " + LogSafe.text(r.errorPacket().message()));
            }
        }
        session.runtime().inDoubt().finished(xid);
        if (answerAfterBranches != null) {
            answerAfterBranches.run();
        }
        if (failed.isEmpty()) {
            String cleanup = "DELETE FROM cleave.decisions WHERE xid = " + q();
            CommitFence cleanups = session.runtime().decisionCleanups();
            long ticket = cleanups.pending(coordinator);
            new MultiExchange(new SystemContext(session.loop()), false, results -> cleanups.done(coordinator, ticket))
                    .leg(coordinator, sql(cleanup)).start();
        } else {
            log.warn("transaction {}: committed; a branch did not commit ({}), recovery will commit it", xid,
                    String.join("; ", failed));
        }
    }

    /**
     * Rolls back the coordinator's transaction and every branch, prepared or not (a branch whose
     * PREPARE failed may still be open); reports {@code error}.
     */
    private void abort(List<Integer> prepared, ErrPacket error, Consumer<ErrPacket> done) {
        MultiExchange multi = new MultiExchange(this, false, results -> {
            session.runtime().inDoubt().finished(xid);
            finish();
            done.accept(error);
        });
        for (int s : shards) {
            if (s == coordinator) {
                multi.leg(s, sql("ROLLBACK"));
            } else if (prepared.contains(s)) {
                multi.leg(s, sql("XA ROLLBACK " + q()));
            } else {
                multi.leg(s, List.of(sql("XA END " + q()), sql("XA ROLLBACK " + q())));
            }
        }
        multi.start();
    }

    /**
     * This home was fenced before the decision: nothing more is sent to its shards. Closing the transaction's
     * connections rolls back the coordinator's part (its decision row with it) and any branch not yet prepared;
     * the prepared branches stay prepared, and the new primary's recovery rolls them back, as no decision
     * exists for them.
     */
    private void leavePrepared(List<Integer> prepared, ErrPacket fenced, Consumer<ErrPacket> done) {
        for (int s : prepared) {
            session.runtime().cuts().owe(s, xid);
        }
        closeEverywhere();
        session.runtime().inDoubt().finished(xid);
        log.warn("transaction {}: not committed, this home is fenced; branches {} stay prepared", xid, prepared);
        done.accept(fenced);
    }

    /** Closes the transaction's connections: what is not prepared on them rolls back, a prepared branch stays. */
    private void closeEverywhere() {
        for (int s : shards) {
            BackendConnection c = tx.drop(s);
            if (c != null) {
                c.close();
                session.connections().keepOrGiveBack(s, c, false);
            }
        }
        tx.end();
    }

    /**
     * Runs {@code exchange}'s XA COMMIT on {@code branches}, unless this home has been fenced since the decision:
     * then no XA COMMIT is sent (a read-only shard would still take it), the branches stay prepared, and the new
     * primary's recovery commits them by the decision row it replicated with them.
     */
    private void commitUnlessFenced(List<Integer> branches, Runnable exchange, Consumer<List<LegResult>> skipped) {
        ErrPacket fenced = session.runtime().primaryFence().refusal();
        if (fenced == null) {
            exchange.run();
            return;
        }
        List<LegResult> results = new ArrayList<>();
        for (int s : branches) {
            LegResult r = new LegResult(s);
            r.error = fenced;
            results.add(r);
            BackendConnection branch = committingBranches.get(s);
            if (branch != null) {
                branch.close();
                if (ownBranches.remove(branch)) {
                    branch.release();
                }
            }
        }
        skipped.accept(results);
    }

    /** Hands the connections back (unless pinned state keeps them): the transaction is over on every shard. */
    private void finish() {
        for (int s : shards) {
            BackendConnection c = tx.drop(s);
            if (c != null) {
                session.connections().keepOrGiveBack(s, c, false);
            }
        }
        tx.end();
    }

    private void hook(CommitStep step) {
        session.runtime().commitHooks().at(step, xid);
    }

    private ErrPacket firstError(List<LegResult> results) {
        ErrPacket first = null;
        for (LegResult r : results) {
            if (!r.ok()) {
                log.info("transaction {}: shard {} failed: {}", xid, r.shard, LogSafe.text(r.errorPacket().message()));
                if (first == null) {
                    first = r.errorPacket();
                }
            }
        }
        return first;
    }

    private String q() {
        return TransactionState.quoted(xid);
    }

    private static byte[] sql(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String join(List<Integer> shards) {
        StringBuilder sb = new StringBuilder();
        for (int s : shards) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(s);
        }
        return sb.toString();
    }

    // ---- its legs: the commit talks to the transaction's own connections only -------------

    @Override
    public BackendConnection connectionFor(int shard) {
        BackendConnection branch = committingBranches.get(shard);
        return branch != null ? branch : tx.held(shard);
    }

    @Override
    public SessionSettings settings() {
        return settings;
    }

    @Override
    public List<String> preamble(int shard, boolean inTransaction) {
        return null;
    }

    /** The commit's own statements never wait: the fence waits for them. */
    @Override
    public CommitFence commitFence() {
        return null;
    }

    @Override
    public boolean lent(BackendConnection conn) {
        // Recorded with the session's even after its client left: the commit goes on to its end
        // and gives it back, once, whoever lets go of it first.
        session.connections().adopt(conn);
        return true;
    }

    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        if (ownBranches.remove(conn)) {
            // A branch committed after the client was answered: its pool takes it back (closing
            // it if the XA COMMIT did not leave it clean).
            conn.release();
            return;
        }
        // Kept until the whole commit is done; finish() gives them back.
        if (tx.held(shard) != conn) {
            session.connections().keepOrGiveBack(shard, conn, false);
        }
    }
}
