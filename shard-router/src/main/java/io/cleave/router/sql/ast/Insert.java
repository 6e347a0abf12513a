package io.cleave.router.sql.ast;

import java.util.List;

/**
 * INSERT or REPLACE. Exactly one of the sources: {@link Values} rows, {@link SetList}
 * assignments, or a {@link FromQuery}. {@code columns} is empty when no column list was written.
 * {@code rowAlias} is MySQL 8's {@code AS alias [(cols)]} (null when absent); {@code returning}
 * is MariaDB's RETURNING list (empty when absent).
 */
public record Insert(Span span, boolean replace, List<String> modifiers, List<String> hints, TableName table,
                     List<Name> partitions, List<Name> columns, Source source, Name rowAlias, List<Name> rowAliasColumns,
                     List<Assignment> onDuplicateKeyUpdate, List<SelectItem> returning) implements Statement {

    @Override
    public StatementKind kind() {
        return replace ? StatementKind.REPLACE : StatementKind.INSERT;
    }

    public sealed interface Source extends Node {
    }

    /** {@code VALUES (..), (..)}; each row keeps its span (parentheses included) for per-shard splitting. */
    public record Values(Span span, List<Row> rows) implements Source {
    }

    /** One {@code (v1, v2, ...)} row; the span covers the parentheses. */
    public record Row(Span span, List<Expr> values) implements Node {
    }

    /** {@code SET a = 1, b = 2}. */
    public record SetList(Span span, List<Assignment> assignments) implements Source {
    }

    /** {@code SELECT ...}, {@code (SELECT ...)}, {@code TABLE t} is not supported. */
    public record FromQuery(Span span, Query query) implements Source {
    }
}
