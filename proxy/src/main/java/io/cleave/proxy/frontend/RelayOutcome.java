package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.router.plan.Pin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * How a command relayed to one shard ends, once the shard's answer has gone to the client: what
 * the answer tells the session (the insert id, a dropped schema, state the statement pinned to
 * its connection, a cursor), what must be read back from the connection (variables the statement
 * assigned, locks it took), and whether the session keeps the connection. Also a shard's error
 * before the relay, and a lost connection.
 */
final class RelayOutcome {

    private static final Logger log = LoggerFactory.getLogger(RelayOutcome.class);

    private final Session session;
    private final Cursors cursors;

    RelayOutcome(Session session, Cursors cursors) {
        this.session = session;
        this.cursors = cursors;
    }

    /** The response was relayed completely. */
    void completed(Command command, int shard, BackendConnection conn, ResponseTracker tracker) {
        SessionConnections connections = session.connections();
        if (tracker.isError() && session.transaction().abortedBy(tracker.errorCode())) {
            // A deadlock, lock wait timeout or duplicate key in a transaction over several shards:
            // no shard may keep its part. The client has the error already.
            connections.settle(shard, conn, false);
            DistributedCommit.rollBack(session, command::finish);
            return;
        }
        if (tracker.isError()) {
            session.metrics().error(tracker.errorCode());
            if (command.command() == CommandCode.STMT_PREPARE) {
                session.statements().forget(command.statement().id());
            }
        } else {
            if (!tracker.resultSetSeen()) {
                command.relayedOk(tracker.affectedRows());
            } else {
                command.foundRows(tracker.rows());
            }
            if (tracker.lastInsertId() != 0) {
                session.lastInsertId(tracker.lastInsertId());
            }
            if (ServerStatus.has(tracker.statusFlags(), ServerStatus.DB_DROPPED)) {
                session.databaseDropped(command);
                // Whether the connection lost its schema depends on which one it had: start it over.
                conn.close();
            }
            if (command.pins().pin() != Pin.NONE) {
                connections.pins().apply(shard, conn, command.pins());
            }
            cursors.afterResponse(command, shard, conn, tracker);
        }
        boolean warned = tracker.warnings() > 0 && !tracker.isError();
        // Another client's statement may have run on the connection right after this one
        // (pipelined): the server's warnings are that statement's now, and SHOW WARNINGS says so.
        boolean keepForWarnings = warned && !conn.hasPendingResponses();
        if (warned && !keepForWarnings) {
            connections.proxyWarnings(List.of("the previous statement had " + tracker.warnings()
                    + " warning(s) that are not available: another client's statement ran on its backend connection"
                    + " right after it (proxy.pipeline_depth > 1)"));
        }
        boolean ok = !tracker.isError() && conn.isUsable();
        List<String> locks = ok && command.pins().pin() == Pin.NAMED_LOCK ? command.pins().names() : List.of();
        List<String> variables = ok ? command.assignedVariables() : List.of();
        boolean calcFoundRows = ok && tracker.resultSetSeen() && command.effects().countsFoundRows();
        if (locks.isEmpty() && variables.isEmpty() && !calcFoundRows) {
            connections.settle(shard, conn, keepForWarnings);
            command.finish();
            return;
        }
        readBack(command, shard, conn, variables, locks, calcFoundRows, () -> {
            connections.settle(shard, conn, keepForWarnings);
            command.finish();
        });
    }

    /** The shard refused before anything was relayed (a failed session sync or prepare), or none could be had. */
    void failed(Command command, int shard, BackendConnection conn, ErrPacket error) {
        if (command.command() == CommandCode.STMT_PREPARE) {
            session.statements().forget(command.statement().id());
        }
        if (conn != null) {
            session.connections().settle(shard, conn, false);
        }
        if (error.errorCode() == TransactionState.DEADLOCK && session.transaction().begun()) {
            // A deadlock victim taken out of a pool's line: its transaction ends on every shard.
            DistributedCommit.rollBack(session, () -> command.error(error));
            return;
        }
        command.error(error);
    }

    /** The connection broke during the command; {@code partial}: part of the answer reached the client. */
    void lost(Command command, int shard, BackendConnection conn, Throwable cause, boolean partial) {
        boolean inTransaction = session.transaction().held(shard) == conn;
        session.connections().settle(shard, conn, false);
        log.info("connection {}: lost {} ({})", session.connectionId(), conn, cause.getMessage());
        if (partial || inTransaction) {
            // The client saw part of a result, or its transaction is gone: only a closed
            // connection tells it the truth.
            command.fatal(1158, "08S01", "Lost connection to shard " + shard + " during query"
                    + (inTransaction ? "; the transaction was rolled back" : "") + ": " + cause.getMessage());
            return;
        }
        command.error(1158, "08S01", "Lost connection to shard " + shard + " during query: " + cause.getMessage());
    }

    /**
     * After a statement that assigned user variables outside SET, called GET_LOCK() or counted
     * its rows without LIMIT (SQL_CALC_FOUND_ROWS): reads
     * from its connection what they are now, so the session carries the variables to whichever
     * connection serves it next, and keeps the connection pinned only for locks it really owns
     * (a GET_LOCK that timed out took nothing).
     */
    private void readBack(Command command, int shard, BackendConnection conn, List<String> variables, List<String> locks,
                          boolean calcFoundRows, Runnable then) {
        StringBuilder select = new StringBuilder(!variables.isEmpty() ? ConnectionReadBack.selectVariables(variables)
                : "SELECT 1");
        for (String lock : locks) {
            select.append(", IS_USED_LOCK('").append(lock.replace("\\", "\\\\").replace("'", "''"))
                    .append("') <=> CONNECTION_ID()");
        }
        int firstLock = !variables.isEmpty() ? variables.size() : 1;
        int foundRowsColumn = firstLock + locks.size();
        if (calcFoundRows) {
            // Evaluated before this read-back counts as a statement: the previous statement's rows without LIMIT.
            select.append(", FOUND_ROWS()");
        }
        select.append(" LIMIT 1"); // whatever sql_select_limit says
        ConnectionReadBack.run(conn, select.toString(), (columns, row) -> {
            if (!variables.isEmpty() && row != null) {
                SessionSettings updated = session.settings();
                boolean backslashEscapes = !session.sqlMode().noBackslashEscapes();
                for (int i = 0; i < variables.size(); i++) {
                    updated = updated.withUserVariable(variables.get(i),
                            SettingStatements.literal(columns.get(i), row, i, backslashEscapes));
                }
                session.settings(updated);
                conn.sessionState().applied(updated);
            }
            List<String> free = new ArrayList<>();
            for (int i = 0; i < locks.size(); i++) {
                if (row == null || !"1".equals(row.string(firstLock + i))) {
                    free.add(locks.get(i));
                }
            }
            session.connections().pins().notHeld(shard, conn, free);
            if (calcFoundRows && row != null) {
                command.foundRows(Long.parseLong(row.string(foundRowsColumn)));
            }
            then.run();
        });
    }
}
