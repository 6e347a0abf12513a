package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.metrics.TransactionKind;
import io.cleave.proxy.metrics.TransactionOutcome;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.router.plan.SessionAction;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Transaction control: BEGIN waits for the first statement that names a shard (and goes with it,
 * see {@link TransactionState}); COMMIT and ROLLBACK go to the shards the transaction reached, as
 * a plain COMMIT on one shard or a {@link DistributedCommit} over several; SAVEPOINT and its kin
 * go to every shard of the transaction; SET TRANSACTION (without SESSION) waits for the next one.
 */
final class TransactionStatements {

    private static final int NO_SUCH_SAVEPOINT = 1305;

    private final Session session;
    private final ApplicationXa xa;

    TransactionStatements(Session session) {
        this.session = session;
        this.xa = new ApplicationXa(session);
    }

    void run(Command command, SessionAction action) {
        if (action instanceof SessionAction.Xa statement) {
            xa.run(command, statement);
        } else if (session.transaction().applicationXid() != null && !(action instanceof SessionAction.SetTransaction)) {
            // BEGIN, COMMIT, ROLLBACK and savepoints belong to no XA transaction, as the server says.
            command.error(ApplicationXa.rmfail(session.transaction()));
        } else if (action instanceof SessionAction.Begin begin) {
            begin(command, begin.statement());
        } else if (action instanceof SessionAction.Commit commit) {
            endTransaction(command, "COMMIT", commit.chain(), commit.release());
        } else if (action instanceof SessionAction.Rollback rollback) {
            endTransaction(command, "ROLLBACK", rollback.chain(), rollback.release());
        } else if (action instanceof SessionAction.Savepoint savepoint) {
            savepoint(command, savepoint, statementText(command));
        } else if (action instanceof SessionAction.UnlockedTables unlocked) {
            // The open transaction was committed first (ImplicitCommit), as LOCK TABLES does.
            String message = "LOCK TABLES of " + String.join(", ", unlocked.tables()) + " locks nothing: their rows"
                    + " are on several shards (accepted for dump files; use transactions with SELECT ... FOR UPDATE)";
            session.connections().proxyWarnings(List.of(message));
            command.ok(OkPacket.of(0, 0, session.status(), 1));
        } else {
            session.transaction().nextTransaction(((SessionAction.SetTransaction) action).statement());
            command.ok();
        }
    }

    // ---- transactions --------------------------------------------------------------------------

    private void begin(Command command, String startStatement) {
        TransactionState tx = session.transaction();
        if (tx.begun()) {
            // BEGIN inside a transaction commits it first, as the server does.
            finishTransaction(command, "COMMIT", () -> begun(command, startStatement));
            return;
        }
        tx.end();
        begun(command, startStatement);
    }

    /**
     * The transaction begins: held back until its first statement, except one WITH CONSISTENT
     * SNAPSHOT, whose snapshot is taken now, as a server takes it, at one cut over every shard.
     */
    private void begun(Command command, String startStatement) {
        TransactionState tx = session.transaction();
        tx.begin(startStatement);
        SessionCuts cuts = session.cuts();
        if (startStatement.contains("WITH CONSISTENT SNAPSHOT") && cuts.snapshotDue()) {
            cuts.snapshotTransaction(command, true, command::ok);
            return;
        }
        command.ok();
    }

    private void endTransaction(Command command, String verb, boolean chain, boolean release) {
        TransactionState tx = session.transaction();
        String previousBegin = tx.deferredBegin();
        finishTransaction(command, verb, () -> {
            if (chain) {
                tx.begin(previousBegin != null ? previousBegin : "START TRANSACTION");
            }
            command.ok();
            if (release) {
                command.closeConnection();
            }
        });
    }

    /**
     * Commits the open transaction on every shard it reached, as a statement that commits
     * implicitly does first, then runs {@code then}; a failed commit answers the client instead.
     */
    void commitThen(Command command, Runnable then) {
        finishTransaction(command, "COMMIT", then);
    }

    /** Sends {@code verb} to every shard of the transaction; runs {@code then} once it ended. */
    private void finishTransaction(Command command, String verb, Runnable then) {
        TransactionState tx = session.transaction();
        if (tx.distributed()) {
            DistributedCommit end = new DistributedCommit(session);
            Consumer<ErrPacket> after = error -> {
                if (error != null) {
                    command.error(error);
                } else {
                    then.run();
                }
            };
            if (verb.equals("COMMIT")) {
                end.commit(after);
            } else {
                end.rollback(after);
            }
            return;
        }
        List<BackendConnection> held = tx.heldConnections();
        if (held.isEmpty()) {
            tx.end();
            then.run();
            return;
        }
        byte[] sql = verb.getBytes(StandardCharsets.US_ASCII);
        TransactionOutcome ended = verb.equals("COMMIT") ? TransactionOutcome.COMMIT : TransactionOutcome.ROLLBACK;
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), false, results -> {
            tx.end();
            for (LegResult leg : results) {
                if (!leg.ok()) {
                    session.metrics().transactionEnded(TransactionKind.SINGLE_SHARD, TransactionOutcome.FAILED);
                    command.error(leg.errorPacket());
                    return;
                }
            }
            session.metrics().transactionEnded(TransactionKind.SINGLE_SHARD, ended);
            then.run();
        });
        for (BackendConnection c : held) {
            multi.leg(c.shard(), sql);
        }
        multi.start();
    }

    /**
     * SAVEPOINT, ROLLBACK TO and RELEASE SAVEPOINT go to every shard the transaction holds; the
     * transaction remembers its savepoints so that shards joining later take them too. Outside a
     * transaction a SAVEPOINT is accepted and gone at once, as on a server.
     */
    private void savepoint(Command command, SessionAction.Savepoint sp, byte[] text) {
        TransactionState tx = session.transaction();
        boolean set = sp.op() == SessionAction.SavepointOp.SET;
        if (!session.inTransaction() || !set && !tx.hasSavepoint(sp.name())) {
            if (set) {
                command.ok();
            } else {
                command.error(NO_SUCH_SAVEPOINT, "42000", "SAVEPOINT " + sp.name() + " does not exist");
            }
            return;
        }
        if (set) {
            tx.savepoint(sp.name());
        } else {
            tx.forgetSavepointsAfter(sp.name(), sp.op() == SessionAction.SavepointOp.RELEASE);
        }
        if (!tx.begun()) {
            command.ok();
            return;
        }
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), false, results -> {
            for (LegResult leg : results) {
                if (!leg.ok()) {
                    command.error(leg.errorPacket());
                    return;
                }
            }
            command.ok();
        });
        for (BackendConnection c : tx.heldConnections()) {
            multi.leg(c.shard(), text);
        }
        multi.start();
    }

    private static byte[] statementText(Command command) {
        return SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
    }
}
