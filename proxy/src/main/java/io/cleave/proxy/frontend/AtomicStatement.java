package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * One client statement carried out in several rounds of statements on several shards (a write
 * that keeps a lookup table right: lookup rows first, then the rows), all or nothing as one
 * server runs a statement. Outside a transaction it gets one of its own, committed at the end
 * through {@link DistributedCommit} (one phase when one shard wrote, else two) or rolled back on
 * every shard. Inside the session's, each shard it reaches gets a savepoint before its first
 * statement there, and a failure goes back to it on every shard, so the transaction goes on
 * without any of the statement.
 */
final class AtomicStatement {

    private static final byte[] SAVEPOINT = "SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNDO = "ROLLBACK TO SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);

    /** A shard's statements in one round. */
    record Leg(int shard, List<byte[]> statements) {
    }

    private final Session session;
    private final Command command;
    private final boolean implicit;
    private final BitSet savepoints = new BitSet();

    AtomicStatement(Session session, Command command) {
        this.session = session;
        this.command = command;
        this.implicit = !session.inTransaction(command);
        if (implicit) {
            session.transaction().beginImplicit();
        }
    }

    /**
     * Runs one round: every leg at once, in the statement's transaction. {@code then} gets the
     * results when every shard answered without an error; an error ends the statement with it
     * instead (undone everywhere; when a shard lost the transaction, a deadlock or its connection
     * gone, the whole transaction is rolled back).
     */
    void round(List<Leg> legs, Consumer<List<LegResult>> then) {
        if (legs.isEmpty()) {
            then.accept(List.of());
            return;
        }
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), true, results -> {
            for (LegResult leg : results) {
                if (leg.failure != null || leg.error != null && session.transaction().abortedBy(leg.error.errorCode())) {
                    fail(leg.errorPacket(), true);
                    return;
                }
            }
            for (LegResult leg : results) {
                if (!leg.ok()) {
                    fail(leg.errorPacket(), false);
                    return;
                }
            }
            then.accept(results);
        });
        for (Leg leg : legs) {
            session.transaction().markWritten(leg.shard());
            List<byte[]> statements = leg.statements();
            if (!implicit && !savepoints.get(leg.shard())) {
                savepoints.set(leg.shard());
                statements = new ArrayList<>(statements);
                statements.add(0, SAVEPOINT);
            }
            multi.leg(leg.shard(), statements);
        }
        multi.start();
    }

    /** The statement failed: nothing of it stays; the client gets {@code error}. */
    void fail(ErrPacket error) {
        fail(error, false);
    }

    private void fail(ErrPacket error, boolean transactionLost) {
        if (implicit || transactionLost) {
            DistributedCommit.rollBack(session, () -> command.error(error));
            return;
        }
        MultiExchange undo = new MultiExchange(new CommandLegs(session, command), true, undone -> {
            if (undone.stream().allMatch(LegResult::ok)) {
                command.error(error);
            } else {
                DistributedCommit.rollBack(session, () -> command.error(error.errorCode(), error.sqlState(),
                        error.message() + "; undoing the statement failed, so the transaction was rolled back"));
            }
        });
        for (int s = savepoints.nextSetBit(0); s >= 0; s = savepoints.nextSetBit(s + 1)) {
            undo.leg(s, UNDO);
        }
        if (savepoints.isEmpty()) {
            command.error(error);
            return;
        }
        undo.start();
    }

    /** Every round went through: commits the statement's own transaction, then {@code answer} runs. */
    void succeed(Runnable answer) {
        if (!implicit) {
            answer.run();
            return;
        }
        new DistributedCommit(session).commit(error -> {
            if (error != null) {
                command.error(error);
            } else {
                answer.run();
            }
        });
    }
}
