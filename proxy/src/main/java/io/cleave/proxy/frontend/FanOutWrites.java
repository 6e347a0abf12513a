package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A write on several shards: a keyless UPDATE or DELETE, a write to a reference table, DDL, and
 * the per-shard statements of a split INSERT. Atomic across the shards: outside a transaction the
 * statement gets one of its own (committed on every shard or none); inside the session's, a
 * savepoint on each shard undoes it where it succeeded when it failed elsewhere. The client gets
 * one OK (counts added up, or one shard's for a replicated write) or the first error.
 */
final class FanOutWrites {

    private static final byte[] STATEMENT_SAVEPOINT = "SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNDO_STATEMENT = "ROLLBACK TO SAVEPOINT cleave_statement".getBytes(StandardCharsets.US_ASCII);
    private static final int DEADLOCK = 1213;

    private final Session session;

    private final SchemaChanges schemaChanges;

    FanOutWrites(Session session) {
        this.session = session;
        this.schemaChanges = new SchemaChanges(session, this);
    }

    /** The client's statement, as written, on every shard of {@code shards}. */
    void run(Command command, Plan.Route route, Plan.FanOutWrite fanOut, int[] shards) {
        session.connections().proxyWarnings(fanOut.warnings());
        if (route.kind().isDdl()) {
            // A structure change may add or drop an AUTO_INCREMENT column, or change a routine.
            session.runtime().tableColumns().forget();
            session.runtime().routines().forget();
        }
        command.served(RouteKind.BROADCAST);
        byte[] sql = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        // A replicated write (DDL, a reference table) is the same everywhere; others leave a move's ghost rows out.
        List<byte[]> perShard = fanOut.replicated() ? Collections.nCopies(shards.length, sql)
                : ShardTexts.render(session, command, new SqlTemplate.Original(), shards);
        if (perShard == null) {
            return;
        }
        command.clearLongData();
        // DDL is not transactional on any server: it simply goes to every shard.
        boolean transactional = !route.kind().isDdl() && route.write();
        String what = route.kind().name().replace('_', ' ');
        UniqueDdl unique = route.kind().isDdl() ? UniqueDdl.of(session, route.kind(), sql) : null;
        if (unique != null && unique.refusal() != null) {
            command.refuse(unique.refusal());
            return;
        }
        Runnable write = route.kind().isDdl() && fanOut.replicated()
                ? () -> schemaChanges.run(command, shards, sql, what, unique)
                : () -> write(command, shards, perShard, transactional, fanOut.replicated(), what, 0, unique);
        Runnable send = unique == null ? write : () -> unique.before(command, write);
        if (SequenceService.resetsSequences(route.kind())) {
            // A table created, dropped, emptied or renamed starts its ids afresh, as on one server.
            session.runtime().sequences().reset(sql, session.sqlMode(), session.settings().schema(), session.loop(),
                    send);
        } else {
            send.run();
        }
    }

    /**
     * Runs a write on several shards. Inside the session's transaction the shards join it, and a
     * statement savepoint on each makes the statement all-or-nothing there too: when it fails on
     * some shards, the others roll back to the savepoint, as one server undoes a failed statement.
     * Outside a transaction, a transactional write gets a transaction of its own, committed
     * atomically across the shards (or rolled back on all of them).
     *
     * @param firstGeneratedId an id the proxy generated for the first row (reported as the insert id), or 0
     */
    void write(Command command, int[] shards, List<byte[]> sql, boolean transactional, boolean replicated,
                       String what, long firstGeneratedId) {
        write(command, shards, sql, transactional, replicated, what, firstGeneratedId, null);
    }

    /**
     * {@code unique}: the structure change's part in global unique keys, told once every shard applied
     * it (before the client's OK goes) or once some did not (before the error goes); null: none.
     */
    private void write(Command command, int[] shards, List<byte[]> sql, boolean transactional, boolean replicated,
                       String what, long firstGeneratedId, UniqueDdl unique) {
        TransactionState tx = session.transaction();
        boolean inTransaction = session.inTransaction(command);
        if (inTransaction && shards.length > 1) {
            io.cleave.proxy.protocol.packet.server.ErrPacket refused = ApplicationXa.reaching(tx, -1);
            if (refused != null) {
                command.error(refused);
                return;
            }
        }
        boolean implicit = !inTransaction && transactional && shards.length > 1;
        boolean savepoint = inTransaction && transactional && shards.length > 1;
        if (implicit) {
            tx.beginImplicit();
        }
        if (inTransaction || implicit) {
            markWritten(shards);
        }
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), inTransaction || implicit,
                results -> {
                    if (firstGeneratedId > 0 && results.stream().allMatch(LegResult::ok)) {
                        // LAST_INSERT_ID() is the first id the statement generated, as on one server.
                        for (LegResult leg : results) {
                            leg.lastInsertId = 0;
                        }
                        results.get(0).lastInsertId = firstGeneratedId;
                    }
                    if (!implicit) {
                        if (savepoint && !results.stream().allMatch(LegResult::ok) && !lostTransaction(results)) {
                            if (partlyApplied(results)) {
                                undoStatement(command, results);
                            } else {
                                command.error(firstError(results));
                            }
                            return;
                        }
                        Runnable answer = () -> written(command, results, replicated, what);
                        if (unique != null && results.stream().allMatch(LegResult::ok)) {
                            unique.after(command, answer);
                            return;
                        }
                        if (unique != null) {
                            unique.failed(command, firstError(results), () -> afterTransactionalLegs(command, results, answer));
                            return;
                        }
                        afterTransactionalLegs(command, results, answer);
                        return;
                    }
                    DistributedCommit end = new DistributedCommit(session);
                    if (results.stream().allMatch(LegResult::ok)) {
                        end.commit(error -> {
                            if (error != null) {
                                command.error(error);
                            } else {
                                written(command, results, replicated, what);
                            }
                        });
                    } else {
                        // Rolled back everywhere: the statement failed as a whole, as on one server.
                        end.rollback(ignored -> command.error(firstError(results)));
                    }
                });
        for (int i = 0; i < shards.length; i++) {
            multi.leg(shards[i], savepoint ? List.of(STATEMENT_SAVEPOINT, sql.get(i)) : List.of(sql.get(i)));
        }
        multi.start();
    }

    private static boolean partlyApplied(List<LegResult> results) {
        return results.stream().anyMatch(LegResult::ok) && !results.stream().allMatch(LegResult::ok);
    }

    /** A shard rolled the whole transaction back (deadlock) or its connection is gone: no statement undo helps. */
    private static boolean lostTransaction(List<LegResult> results) {
        for (LegResult leg : results) {
            if (leg.failure != null || leg.error != null && leg.error.errorCode() == DEADLOCK) {
                return true;
            }
        }
        return false;
    }

    /**
     * A statement of the transaction failed on some shards: the shards where it succeeded go back
     * to its savepoint, so the transaction goes on without any of it; the client gets the error.
     * If that fails, the whole transaction is rolled back.
     */
    private void undoStatement(Command command, List<LegResult> results) {
        ErrPacket error = firstError(results);
        MultiExchange undo = new MultiExchange(new CommandLegs(session, command), true, undone -> {
            if (undone.stream().allMatch(LegResult::ok)) {
                command.error(error);
                return;
            }
            DistributedCommit.rollBack(session, () -> command.error(error.errorCode(), error.sqlState(),
                    error.message() + "; undoing the statement on the shards where it had succeeded failed, so the"
                            + " transaction was rolled back"));
        });
        for (LegResult leg : results) {
            if (leg.ok()) {
                undo.leg(leg.shard, UNDO_STATEMENT);
            }
        }
        undo.start();
    }

    private static ErrPacket firstError(List<LegResult> results) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                return leg.errorPacket();
            }
        }
        throw new IllegalStateException("no shard failed");
    }

    /**
     * After legs that ran in the session's transaction: a deadlock, or a lock wait timeout or
     * duplicate key on one shard of a transaction that spans shards, rolls the whole transaction
     * back, so no shard keeps half of it; the client then gets that shard's error (not a count of
     * what other shards applied: none of it stays). Otherwise {@code then} runs.
     */
    void afterTransactionalLegs(Command command, List<LegResult> results, Runnable then) {
        for (LegResult leg : results) {
            if (leg.error != null && session.transaction().abortedBy(leg.error.errorCode())) {
                ErrPacket error = leg.error;
                DistributedCommit.rollBack(session, () -> command.error(error));
                return;
            }
        }
        then.run();
    }

    private void markWritten(int[] shards) {
        for (int s : shards) {
            session.transaction().markWritten(s);
        }
    }

    /**
     * Combines the OKs of a statement every shard ran. Replicated writes (DDL, reference tables)
     * did the same thing everywhere, so one shard's count answers; otherwise counts add up. A
     * failure on some shards is reported with which shards applied the statement and which not.
     */
    void written(Command command, List<LegResult> results, boolean replicated, String what) {
        List<Integer> applied = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        ErrPacket firstError = null;
        long affected = 0;
        long insertId = 0;
        int warnings = 0;
        for (LegResult leg : results) {
            if (leg.ok()) {
                applied.add(leg.shard);
                affected = replicated ? Math.max(affected, leg.affectedRows) : affected + leg.affectedRows;
                if (insertId == 0) {
                    insertId = leg.lastInsertId;
                }
                warnings += leg.warnings;
            } else {
                failed.add(leg.shard);
                if (firstError == null) {
                    firstError = leg.errorPacket();
                }
            }
        }
        if (firstError != null) {
            String message = failed.size() == results.size() ? firstError.message()
                    : what + " applied on shard(s) " + applied + " but failed on shard(s) " + failed + ": "
                    + firstError.message();
            command.error(firstError.errorCode(), firstError.sqlState(), message);
            return;
        }
        if (insertId != 0) {
            session.lastInsertId(insertId);
        }
        if (ServerStatus.has(results.get(0).status, ServerStatus.DB_DROPPED)) {
            session.databaseDropped(command);
        }
        warnings += session.connections().proxyWarnings().size();
        command.ok(OkPacket.of(affected, insertId, session.status(), warnings));
    }
}
