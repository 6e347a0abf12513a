package io.cleave.router.sql.ast;

import java.util.List;

/** A table reference in FROM, UPDATE or DELETE: a table, a derived table or a join of two references. */
public sealed interface TableRef extends Node {

    /**
     * {@code [schema.]name [PARTITION (...)] [[AS] alias] [index hints]}; alias null when not
     * written. {@code DUAL} is a table named DUAL.
     */
    record Table(Span span, TableName name, String alias, List<Name> partitions, List<IndexHint> indexHints)
            implements TableRef {

        /** The name other parts of the statement use for it: the alias, else the table name. */
        public String exposedName() {
            return alias != null ? alias : name.name();
        }
    }

    /** {@code [LATERAL] (query) [AS] alias [(columns)]}. */
    record Derived(Span span, Query query, String alias, List<Name> columns, boolean lateral) implements TableRef {
    }

    /**
     * {@code left <kind> JOIN right [ON on | USING (using)]}; a comma inside parentheses is
     * kind COMMA. At most one of on and using is set.
     */
    record Join(Span span, JoinKind kind, TableRef left, TableRef right, Expr on, List<Name> using)
            implements TableRef {
    }

    enum JoinKind { COMMA, INNER, CROSS, STRAIGHT, LEFT, RIGHT, NATURAL, NATURAL_LEFT, NATURAL_RIGHT }

    /** {@code USE|FORCE|IGNORE INDEX|KEY [FOR JOIN|ORDER BY|GROUP BY] (names)}. */
    record IndexHint(Span span, String action, List<Name> indexes) implements Node {
    }
}
