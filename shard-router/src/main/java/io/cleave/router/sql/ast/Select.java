package io.cleave.router.sql.ast;

import java.util.List;

/**
 * One SELECT block. Absent clauses are null (expressions, limit, locking, into) or empty (lists).
 * {@code from} lists the comma-separated table references; each may be a join tree.
 */
public record Select(Span span, With with, SelectOptions options, List<SelectItem> items, Into into,
                     List<TableRef> from, Expr where, List<OrderItem> groupBy, boolean withRollup, Expr having,
                     List<OrderItem> orderBy, Limit limit, Locking locking) implements Query {

    /** Select options; hints are the HINT tokens' text as written. */
    public record SelectOptions(boolean distinct, boolean calcFoundRows, boolean straightJoin, boolean highPriority,
                                boolean sqlNoCache, List<String> hints) {
        public static final SelectOptions NONE = new SelectOptions(false, false, false, false, false, List.of());
    }

    /** {@code FOR UPDATE | FOR SHARE | LOCK IN SHARE MODE [OF t, ...] [NOWAIT | SKIP LOCKED]}. */
    public record Locking(Span span, LockStrength strength, List<Name> of, LockWait waitPolicy) implements Node {
    }

    public enum LockStrength { UPDATE, SHARE }

    public enum LockWait { WAIT, NOWAIT, SKIP_LOCKED }

    /** {@code INTO OUTFILE 'f' | INTO DUMPFILE 'f' | INTO @a, @b}; target is OUTFILE, DUMPFILE or VARIABLES. */
    public record Into(Span span, String target, List<Expr> variables) implements Node {
    }
}
