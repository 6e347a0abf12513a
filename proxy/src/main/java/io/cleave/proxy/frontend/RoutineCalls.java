package io.cleave.proxy.frontend;

import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Target;
import io.cleave.router.routine.RoutinePlacement;
import io.cleave.router.routine.RoutineProfile;
import io.cleave.router.routine.Routines;

import java.util.ArrayList;
import java.util.List;

/**
 * CALL of a stored procedure: it runs on one shard, the one where everything it can name lives
 * ({@link RoutinePlacement}: the default shard, or its declared key's shard), and its answer (the
 * result sets of the statements it runs, its OUT parameters in the binary protocol, the final OK)
 * is relayed as the shard sends it. Afterwards the user variables it may have set (its OUT and
 * INOUT arguments, the ones its body names) are read back for the session, and a procedure that
 * leaves state on its connection (temporary tables, locks) keeps the session on that connection.
 */
final class RoutineCalls {

    private final Session session;
    private final PlanExecutor executor;

    RoutineCalls(Session session, PlanExecutor executor) {
        this.session = session;
        this.executor = executor;
    }

    /**
     * Runs {@code command}'s CALL. The first CALL (and one naming a procedure not known yet) reads
     * the routines from the default shard first; the command then starts again ({@code rerun}), as
     * its text lives in the event loop's buffers.
     */
    void run(Command command, Plan.Route route, Target.Routine call, Runnable rerun) {
        StoredRoutines catalog = session.runtime().routines();
        Routines routines = catalog.cached();
        if (routines == null) {
            read(command, catalog, rerun);
            return;
        }
        String schema = call.schema() != null ? call.schema() : session.settings().schema();
        Routines.Routine procedure = schema == null ? null : routines.procedure(schema, call.procedure());
        if (procedure == null) {
            if (!command.routinesRead()) {
                // Created on the shards directly, or since they were read: read them again, once.
                catalog.forget();
                read(command, catalog, rerun);
                return;
            }
            // The server answers for a procedure that does not exist (or no schema chosen), as one server would.
            executor.single(command, route, session.runtime().topology().defaultShard());
            return;
        }
        RoutinePlacement placement = routines.place(procedure, session.runtime().topology());
        int shard = shard(command, call, placement);
        if (shard < 0) {
            return;
        }
        List<RoutineProfile> closure = routines.closure(procedure);
        List<String> variables = new ArrayList<>();
        boolean connectionState = false;
        boolean transactionControl = false;
        for (RoutineProfile p : closure) {
            variables.addAll(p.userVariables());
            connectionState |= p.connectionState();
            transactionControl |= p.transactionControl();
        }
        TransactionState tx = session.transaction();
        if (transactionControl && tx.begun() && (tx.heldCount() > 1 || tx.onlyShard() != shard)) {
            // Its COMMIT or ROLLBACK would end the part of the transaction on one shard only.
            command.refuse("CALL " + call.procedure() + ": the procedure commits or rolls back by itself, and the"
                    + " session's transaction reaches other shards than the procedure's " + shard + ": end the"
                    + " transaction first");
            return;
        }
        command.runsRoutine(variables, connectionState,
                placement instanceof RoutinePlacement.OnShard);
        executor.single(command, route, shard);
    }

    private void read(Command command, StoredRoutines catalog, Runnable rerun) {
        command.routinesRead(true);
        catalog.load(session.loop(), (routines, error) -> {
            if (error != null) {
                command.error(error);
            } else {
                rerun.run();
            }
        });
    }

    /** The shard the placement names for this CALL, or -1 when the command was refused. */
    private int shard(Command command, Target.Routine call, RoutinePlacement placement) {
        if (placement instanceof RoutinePlacement.Refused refused) {
            command.refuse(refused.message());
            return -1;
        }
        if (placement instanceof RoutinePlacement.OnShard on) {
            if (call.alongside() != null && call.alongside() >= 0 && call.alongside() != on.shard()) {
                command.refuse("CALL " + call.procedure() + " runs on shard " + on.shard() + ", and the other statements"
                        + " sent with it on shard " + call.alongside() + ": send them one at a time");
                return -1;
            }
            return on.shard();
        }
        RoutinePlacement.ByKey byKey = (RoutinePlacement.ByKey) placement;
        if (call.alongside() != null) {
            command.refuse("CALL " + call.procedure() + " runs on the shard of its key, which it takes from its"
                    + " arguments: send it alone, not in one query with other statements");
            return -1;
        }
        int slot = byKey.argument() < call.argumentSlots().size() ? call.argumentSlots().get(byKey.argument()) : -1;
        if (slot < 0) {
            command.refuse("CALL " + call.procedure() + " runs on the shard of its key, its argument "
                    + (byKey.argument() + 1) + ", which must be a literal or a parameter marker");
            return -1;
        }
        int shard = session.runtime().resolver().shardOf(byKey.keyspace(), new KeyValue.SlotValue(slot, false),
                command.values(), session.runtime().shardMaps().current());
        if (shard < 0) {
            command.refuse("CALL " + call.procedure() + ": its key argument " + (byKey.argument() + 1)
                    + " is no key of keyspace " + byKey.keyspace().name() + " that a shard holds");
        }
        return shard;
    }
}
