package io.cleave.router.sql.ast;

import java.util.List;

/**
 * DELETE. Single-table: {@code from} holds one table, {@code targets} is empty. Multi-table
 * ({@code DELETE t1, t2 FROM refs} or {@code DELETE FROM t1, t2 USING refs}): {@code targets}
 * names the tables rows are deleted from (by name or alias), {@code from} the references.
 */
public record Delete(Span span, List<String> modifiers, List<String> hints, List<TableName> targets,
                     List<TableRef> from, Expr where, List<OrderItem> orderBy, Limit limit,
                     List<SelectItem> returning) implements Statement {

    @Override
    public StatementKind kind() {
        return StatementKind.DELETE;
    }

    public boolean isMultiTable() {
        return !targets.isEmpty();
    }
}
