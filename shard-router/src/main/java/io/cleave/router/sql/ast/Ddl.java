package io.cleave.router.sql.ast;

import java.util.List;

/**
 * Schema changes. The planner needs the kind, the tables involved and, for CREATE TABLE, the
 * columns and keys; other bodies are kept as spans over the original text.
 */
public sealed interface Ddl extends Statement {

    /** Every table the statement names, with schema when written. */
    List<TableName> tables();

    /**
     * {@code CREATE [TEMPORARY] TABLE [IF NOT EXISTS] t (...) [options] | LIKE other | [AS] SELECT}.
     * {@code like} and {@code asQuery} are null when absent; {@code optionsSpan} covers the table
     * options after the definition list (may be empty).
     */
    record CreateTable(Span span, boolean temporary, boolean ifNotExists, TableName table, List<ColumnDef> columns,
                       List<KeyDef> keys, TableName like, Query asQuery, Span optionsSpan) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_TABLE;
        }

        @Override
        public List<TableName> tables() {
            return like == null ? List.of(table) : List.of(table, like);
        }

        /** The primary key's columns from a column attribute or a table constraint; empty if none. */
        public List<String> primaryKey() {
            for (KeyDef k : keys) {
                if (k.type() == KeyType.PRIMARY) {
                    return k.columns();
                }
            }
            for (ColumnDef c : columns) {
                if (c.primaryKey()) {
                    return List.of(c.name().value());
                }
            }
            return List.of();
        }
    }

    /** A column definition; {@code type} is the data type, attributes the planner cares about are flags. */
    record ColumnDef(Span span, Name name, DataType type, boolean autoIncrement, boolean primaryKey, boolean unique,
                     boolean notNull) implements Node {
    }

    /**
     * A table-level key or constraint: its type, name (null if none), key column names, and the
     * expressions of functional key parts ({@code KEY k ((lower(email)))}).
     */
    record KeyDef(Span span, KeyType type, String name, List<String> columns, List<Expr> expressions) implements Node {
    }

    enum KeyType { PRIMARY, UNIQUE, INDEX, FULLTEXT, SPATIAL, FOREIGN, CHECK }

    /**
     * {@code ALTER TABLE t ...}; the alterations are kept as a span, and one {@link AlterClause} per
     * alteration (split at the top-level commas). {@code renameTo} for {@code RENAME [TO|AS] x}, else null.
     */
    record AlterTable(Span span, TableName table, Span body, TableName renameTo, List<AlterClause> clauses)
            implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.ALTER_TABLE;
        }

        @Override
        public List<TableName> tables() {
            return renameTo == null ? List.of(table) : List.of(table, renameTo);
        }
    }

    /**
     * One alteration of an ALTER TABLE. {@code addsKey}: it is {@code ADD [CONSTRAINT [c]] {PRIMARY KEY |
     * UNIQUE | INDEX | KEY | FULLTEXT | SPATIAL} ...}; {@code addedKey} is that key as read, named as the
     * server names it when a name is written (the index name, else the constraint's; PRIMARY for a
     * primary key; null when unnamed), or null when the clause could not be read.
     */
    record AlterClause(Span span, boolean addsKey, KeyDef addedKey) implements Node {
    }

    /** {@code DROP [TEMPORARY] TABLE [IF EXISTS] t1, t2}. */
    record DropTable(Span span, boolean temporary, boolean ifExists, List<TableName> tables) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_TABLE;
        }
    }

    /** {@code TRUNCATE [TABLE] t}. */
    record TruncateTable(Span span, TableName table) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.TRUNCATE_TABLE;
        }

        @Override
        public List<TableName> tables() {
            return List.of(table);
        }
    }

    /** {@code RENAME TABLE a TO b, c TO d}: {@code from.get(i)} becomes {@code to.get(i)}. */
    record RenameTable(Span span, List<TableName> from, List<TableName> to) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.RENAME_TABLE;
        }

        @Override
        public List<TableName> tables() {
            List<TableName> all = new java.util.ArrayList<>(from);
            all.addAll(to);
            return all;
        }
    }

    /** {@code CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX i ON t (cols)}; functional parts in {@code expressions}. */
    record CreateIndex(Span span, KeyType type, Name name, TableName table, List<String> columns,
                       List<Expr> expressions) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.CREATE_INDEX;
        }

        @Override
        public List<TableName> tables() {
            return List.of(table);
        }
    }

    /** {@code DROP INDEX i ON t}. */
    record DropIndex(Span span, Name name, TableName table) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.DROP_INDEX;
        }

        @Override
        public List<TableName> tables() {
            return List.of(table);
        }
    }

    /** {@code CREATE|ALTER|DROP DATABASE|SCHEMA [IF [NOT] EXISTS] name}; kind tells which. */
    record Database(Span span, StatementKind kind, boolean ifClause, Name name) implements Ddl {
        @Override
        public List<TableName> tables() {
            return List.of();
        }
    }

    /**
     * CREATE/ALTER/DROP of a VIEW, TRIGGER, PROCEDURE, FUNCTION or EVENT: the kind and the object
     * names. For a trigger, {@code tables} holds the table it is on; for a view created AS SELECT,
     * {@code query} is the SELECT (null otherwise). Routine bodies are not analyzed.
     */
    record ObjectDdl(Span span, StatementKind kind, List<TableName> names, List<TableName> tables, Query query)
            implements Ddl {
    }

    /**
     * {@code CREATE [OR REPLACE] [TEMPORARY] SEQUENCE}, {@code ALTER SEQUENCE}, {@code DROP [TEMPORARY]
     * SEQUENCE} (MariaDB): the kind tells which; a sequence is a table of one row to the server.
     */
    record Sequence(Span span, StatementKind kind, boolean temporary, List<TableName> tables) implements Ddl {
    }

    /** {@code ANALYZE|OPTIMIZE|CHECK|REPAIR|CHECKSUM TABLE t, ...}; operation in upper case. */
    record TableMaintenance(Span span, String operation, List<TableName> tables) implements Ddl {
        @Override
        public StatementKind kind() {
            return StatementKind.TABLE_MAINTENANCE;
        }
    }
}
