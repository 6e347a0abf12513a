package io.cleave.proxy.frontend;

import io.cleave.router.plan.Effects;
import io.cleave.router.plan.Pin;
import io.cleave.router.plan.Plan;

/**
 * Which statements may share their backend connection with other clients' statements (be
 * pipelined behind or ahead of them, see {@code PipelineWindow}): those that leave nothing on the
 * connection and need nothing from it but the session settings every joiner is checked for.
 * Autocommit outside any transaction, on no pinned connection, a plain SELECT, INSERT, UPDATE,
 * DELETE or REPLACE as one statement (no multi-statement text, no CALL, no LOAD DATA, no DDL, no
 * session statement), pinning nothing, assigning no user variable, not reading what the previous
 * statement left (SHOW WARNINGS, FOUND_ROWS()), not needing the session's LAST_INSERT_ID() sent
 * first; an execute of a prepared statement without long data and without a cursor.
 *
 * <p>A statement that can wait for a row lock (a write, a locking read) may go behind others but
 * nothing goes behind it: a statement never waits for another client's lock wait.
 */
enum PipelineRule {
    /** Runs on a connection of its own as usual. */
    ALONE,
    /** May share; statements of other clients may go behind it. */
    SHARED,
    /** May go behind others; nothing goes behind it. */
    LAST;

    static PipelineRule of(Session session, Command command, Plan.Route route, ShardExchange.Mode mode,
                           boolean joinsTransaction, boolean forceInTransaction) {
        if (mode != ShardExchange.Mode.RELAY && mode != ShardExchange.Mode.EXECUTE) {
            return ALONE;
        }
        if (joinsTransaction || forceInTransaction || session.inTransaction()
                || command.plan() instanceof Plan.MultiStatement) {
            return ALONE;
        }
        switch (route.kind()) {
            case SELECT, INSERT, UPDATE, DELETE, REPLACE:
                break;
            default:
                return ALONE;
        }
        Effects effects = route.effects();
        if (effects.previousConnection() || effects.usesLastInsertId() || effects.pin().pin() != Pin.NONE
                || !effects.assignedVariables().isEmpty() || command.pins().pin() != Pin.NONE) {
            return ALONE;
        }
        if (mode == ShardExchange.Mode.EXECUTE) {
            ClientStatement statement = command.statement();
            if (statement == null || command.cursor() != null || statement.hasLongData()
                    || statement.longDataTooLong()) {
                return ALONE;
            }
        }
        return route.write() || route.lockingRead() ? LAST : SHARED;
    }
}
