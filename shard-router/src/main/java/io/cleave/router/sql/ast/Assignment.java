package io.cleave.router.sql.ast;

/** {@code column = value} in UPDATE SET, INSERT SET and ON DUPLICATE KEY UPDATE. */
public record Assignment(Span span, Expr.ColumnRef column, Expr value) implements Node {
}
