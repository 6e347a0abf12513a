package io.cleave.router.sql.ast;

import java.util.List;

/** Transaction control. */
public sealed interface TransactionStatement extends Statement {

    /**
     * {@code BEGIN [WORK]} or {@code START TRANSACTION [READ ONLY | READ WRITE | WITH CONSISTENT SNAPSHOT], ...}.
     * readOnly/readWrite are false when not written.
     */
    record Begin(Span span, boolean readOnly, boolean readWrite, boolean consistentSnapshot) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.BEGIN;
        }
    }

    /** {@code COMMIT [WORK] [AND [NO] CHAIN] [[NO] RELEASE]}; chain/release null when not written. */
    record Commit(Span span, Boolean chain, Boolean release) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.COMMIT;
        }
    }

    /** {@code ROLLBACK [WORK] [AND [NO] CHAIN] [[NO] RELEASE]} or {@code ROLLBACK [WORK] TO [SAVEPOINT] name}. */
    record Rollback(Span span, Boolean chain, Boolean release, Name savepoint) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.ROLLBACK;
        }
    }

    /** {@code SAVEPOINT name}, or {@code RELEASE SAVEPOINT name} when release is true. */
    record Savepoint(Span span, Name name, boolean release) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return release ? StatementKind.RELEASE_SAVEPOINT : StatementKind.SAVEPOINT;
        }
    }

    /**
     * {@code XA START|BEGIN|END|PREPARE|COMMIT|ROLLBACK|RECOVER xid ...}: action in upper case; the
     * xid's parts (gtrid [, bqual [, formatID]]) are slots, and {@code xid} spans them (empty for RECOVER).
     */
    record Xa(Span span, String action, Span xid, List<Expr> xidParts) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.XA;
        }
    }

    /**
     * {@code SET [GLOBAL|SESSION] TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE}; isolation
     * is e.g. {@code "READ COMMITTED"}, null when not set; accessMode {@code "READ ONLY"}/{@code "READ WRITE"} or null.
     */
    record SetTransaction(Span span, VariableScope scope, String isolation, String accessMode) implements TransactionStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.SET_TRANSACTION;
        }
    }
}
