package io.cleave.router.sql.ast;

/**
 * {@code LIMIT count}, {@code LIMIT offset, count} or {@code LIMIT count OFFSET offset}.
 * {@code offset} is null when absent. Values are slots (or user variables inside routines).
 * The span covers the whole clause from LIMIT, so a rewrite can replace it.
 */
public record Limit(Span span, Expr count, Expr offset) implements Node {
}
