package io.cleave.router.sql.ast;

/**
 * An ORDER BY (or GROUP BY) item. {@code ordinal} is the 1-based column position when the item
 * is a bare integer ({@code ORDER BY 2}), else 0. The span covers the expression and ASC/DESC.
 */
public record OrderItem(Span span, Expr expr, boolean descending, int ordinal) implements Node {

    public boolean isOrdinal() {
        return ordinal > 0;
    }
}
