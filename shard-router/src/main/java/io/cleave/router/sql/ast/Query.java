package io.cleave.router.sql.ast;

import java.util.List;

/**
 * A query expression: a {@link Select}, a {@link SetOperation} (UNION/INTERSECT/EXCEPT) or a
 * {@link Parenthesized} query, each with its own trailing ORDER BY / LIMIT / locking clause.
 * Used both as a statement and nested (subqueries, derived tables, INSERT ... SELECT, CTEs).
 */
public sealed interface Query extends Statement permits Select, Query.SetOperation, Query.Parenthesized {

    /** The WITH clause in front of this query, or null. */
    With with();

    List<OrderItem> orderBy();

    /** Null when absent. */
    Limit limit();

    @Override
    default StatementKind kind() {
        return StatementKind.SELECT;
    }

    /** {@code left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right}, left-associative (INTERSECT binds tighter). */
    record SetOperation(Span span, With with, SetOperator operator, boolean all, Query left, Query right,
                        List<OrderItem> orderBy, Limit limit) implements Query {
    }

    /** {@code (query) [ORDER BY ...] [LIMIT ...]}. */
    record Parenthesized(Span span, With with, Query query, List<OrderItem> orderBy, Limit limit) implements Query {
    }

    enum SetOperator { UNION, INTERSECT, EXCEPT }

    /** {@code WITH [RECURSIVE] cte, ...}. */
    record With(Span span, boolean recursive, List<Cte> ctes) implements Node {
    }

    /** {@code name [(columns)] AS (query)}. */
    record Cte(Span span, Name name, List<Name> columns, Query query) implements Node {
    }
}
