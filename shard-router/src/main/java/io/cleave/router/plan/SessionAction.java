package io.cleave.router.plan;

import java.util.List;

/** A statement that changes the session rather than data: the proxy keeps the state and replays it. */
public sealed interface SessionAction permits SessionAction.SetVariables, SessionAction.Use, SessionAction.Begin,
        SessionAction.Commit, SessionAction.Rollback, SessionAction.Savepoint, SessionAction.SetTransaction,
        SessionAction.UnlockedTables, SessionAction.Xa {

    /** What one SET item sets. */
    sealed interface SetTarget permits SystemVariable, UserVariable, Names, Autocommit {
    }

    /** A session system variable, name in lower case. */
    record SystemVariable(String name) implements SetTarget {
    }

    record UserVariable(String name) implements SetTarget {
    }

    /** SET NAMES or SET CHARACTER SET: the connection character set variables. */
    record Names() implements SetTarget {
    }

    /**
     * {@code autocommit}; {@code literal} is its value when written as a word (ON, OFF, TRUE,
     * FALSE), {@code slot} the slot holding it when written as a number (0, 1), else -1; with
     * neither, an expression the server evaluates.
     */
    record Autocommit(Boolean literal, int slot) implements SetTarget {
    }

    /**
     * A session SET: the server runs it (so it validates and evaluates it), then the proxy reads
     * back what it set. {@code autocommitOnly} when it only sets autocommit to a constant, which
     * the proxy does without a round trip.
     */
    record SetVariables(List<SetTarget> targets) implements SessionAction {
        public SetVariables {
            targets = List.copyOf(targets);
        }

        /** The autocommit target when it is the only thing set and written as a constant, else null. */
        public Autocommit autocommitOnly() {
            if (targets.size() == 1 && targets.get(0) instanceof Autocommit a && (a.literal() != null || a.slot() >= 0)) {
                return a;
            }
            return null;
        }
    }

    record Use(String schema) implements SessionAction {
    }

    /** BEGIN / START TRANSACTION; {@code statement} is what starts it on a shard (characteristics kept). */
    record Begin(String statement) implements SessionAction {
    }

    record Commit(boolean chain, boolean release) implements SessionAction {
    }

    record Rollback(boolean chain, boolean release) implements SessionAction {
    }

    enum SavepointOp { SET, ROLLBACK_TO, RELEASE }

    /** SAVEPOINT, ROLLBACK TO, RELEASE SAVEPOINT: sent to every shard of the transaction. */
    record Savepoint(SavepointOp op, String name) implements SessionAction {
    }

    /**
     * SET [SESSION] TRANSACTION ...: with {@code session}, a session setting (like a variable);
     * without, it applies to the next transaction only.
     */
    record SetTransaction(boolean session, String statement) implements SessionAction {
    }

    /**
     * LOCK TABLES naming sharded or reference tables: accepted, and locks nothing. Their rows are
     * on several shards, and a lock per shard would not survive the transactions a write across
     * shards needs; dump files write LOCK TABLES around each table's rows, where nothing else
     * depends on it. The client gets a warning naming the tables.
     */
    record UnlockedTables(List<String> tables) implements SessionAction {
        public UnlockedTables {
            tables = List.copyOf(tables);
        }
    }

    /** What an application's XA statement does. */
    enum XaOp { START, END, PREPARE, COMMIT, ROLLBACK, RECOVER }

    /**
     * An application's XA statement ({@code XA START 'x1'}, ...): its xid is tokens {@code [xidFirst,
     * xidEnd)} of the text (gtrid [, bqual [, formatID]]), each part in slot {@code xidSlots} (-1: no
     * slot); {@code onePhase} for XA COMMIT ... ONE PHASE; {@code option} for JOIN, RESUME, SUSPEND
     * and FOR MIGRATE, which the proxy does not carry.
     */
    record Xa(XaOp op, int xidFirst, int xidEnd, List<Integer> xidSlots, boolean onePhase, boolean option)
            implements SessionAction {
        public Xa {
            xidSlots = List.copyOf(xidSlots);
        }
    }
}
