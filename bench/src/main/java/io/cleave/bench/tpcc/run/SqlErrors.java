package io.cleave.bench.tpcc.run;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

/** Sorts SQL failures into what the terminal does next, and names them for counting. */
public final class SqlErrors {
    public static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    public static final int ER_LOCK_DEADLOCK = 1213;

    /** What a failed attempt leads to. */
    public enum Kind {
        /** Deadlock, lock wait timeout, serialization failure, rolled-back XA branch: run it again. */
        RETRYABLE,
        /** The connection is gone: count it, reconnect, move on to the next transaction. */
        CONNECTION_LOST,
        /** Anything else: count it by code, keep the first message, move on. */
        OTHER
    }

    private SqlErrors() {
    }

    public static Kind classify(SQLException e) {
        int code = e.getErrorCode();
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (code == ER_LOCK_DEADLOCK || code == ER_LOCK_WAIT_TIMEOUT) {
            return Kind.RETRYABLE;
        }
        if (e instanceof SQLRecoverableException || e instanceof SQLNonTransientConnectionException
            || e instanceof SQLTransientConnectionException || state.startsWith("08")) {
            return Kind.CONNECTION_LOST;
        }
        // SQLSTATE class 40 is "transaction rollback": serialization failures (40001) and the
        // rollbacks a proxy reports when a distributed transaction loses a conflict. XA1xx says
        // the same of an XA branch (deadlock, timeout) in a two-phase commit.
        if (state.startsWith("40") || state.startsWith("XA1")) {
            return Kind.RETRYABLE;
        }
        return Kind.OTHER;
    }

    /** The counting key: the server's error number when there is one, else the SQLSTATE. */
    public static String code(SQLException e) {
        if (e.getErrorCode() != 0) {
            return Integer.toString(e.getErrorCode());
        }
        return e.getSQLState() == null ? "unknown" : e.getSQLState();
    }
}
