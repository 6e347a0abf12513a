package io.cleave.router.sql.ast;

import java.util.List;

/**
 * UPDATE, single-table ({@code tables} holds one {@link TableRef.Table}) or multi-table (several
 * references or a join; ORDER BY and LIMIT are then not allowed by MySQL).
 */
public record Update(Span span, List<String> modifiers, List<String> hints, List<TableRef> tables,
                     List<Assignment> assignments, Expr where, List<OrderItem> orderBy, Limit limit)
        implements Statement {

    @Override
    public StatementKind kind() {
        return StatementKind.UPDATE;
    }

    public boolean isMultiTable() {
        return tables.size() > 1 || !(tables.get(0) instanceof TableRef.Table);
    }
}
