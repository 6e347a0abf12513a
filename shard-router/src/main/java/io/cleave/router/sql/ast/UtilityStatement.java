package io.cleave.router.sql.ast;

import java.util.List;

/** Session, metadata and admin statements. */
public sealed interface UtilityStatement extends Statement {

    /** {@code USE db}. */
    record Use(Span span, Name schema) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.USE;
        }
    }

    /**
     * {@code SHOW ...}. {@code what} is the upper-case words that name what is shown
     * ({@code "DATABASES"}, {@code "TABLES"}, {@code "COLUMNS"}, {@code "CREATE TABLE"},
     * {@code "VARIABLES"}, ...). {@code table} and {@code schema} are set when written (FROM/IN),
     * {@code like} / {@code where} are the filter expressions, or null.
     */
    record Show(Span span, String what, boolean full, VariableScope scope, TableName table, Name schema, Expr like,
                Expr where) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.SHOW;
        }
    }

    /** {@code DESCRIBE|DESC|EXPLAIN t [column]}. */
    record Describe(Span span, TableName table, Name column) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.DESCRIBE;
        }
    }

    /** {@code EXPLAIN|DESCRIBE [ANALYZE] [FORMAT=x] statement}, or MariaDB's {@code ANALYZE statement}. */
    record Explain(Span span, boolean analyze, String format, Statement statement) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.EXPLAIN;
        }
    }

    /** {@code LOCK TABLES t [AS a] READ [LOCAL] | [LOW_PRIORITY] WRITE, ...}. */
    record LockTables(Span span, List<TableLock> locks) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.LOCK_TABLES;
        }
    }

    record TableLock(Span span, TableName table, String alias, boolean write) implements Node {
    }

    /** {@code UNLOCK TABLES}. */
    record UnlockTables(Span span) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.UNLOCK_TABLES;
        }
    }

    /** {@code PREPARE name FROM 'text' | @var}: source is a slot or a user variable. */
    record Prepare(Span span, Name name, Expr source) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.PREPARE;
        }
    }

    /** {@code EXECUTE name [USING @a, ...]}. */
    record Execute(Span span, Name name, List<Expr> using) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.EXECUTE;
        }
    }

    /** {@code DEALLOCATE|DROP PREPARE name}. */
    record Deallocate(Span span, Name name) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.DEALLOCATE_PREPARE;
        }
    }

    /** {@code CALL [schema.]proc[(args)]}. */
    record Call(Span span, TableName procedure, List<Expr> args) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.CALL;
        }
    }

    /** {@code DO expr, ...}. */
    record Do(Span span, List<Expr> exprs) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.DO;
        }
    }

    /** {@code LOAD DATA|XML ... INTO TABLE t ...}: only the table is analyzed. */
    record LoadData(Span span, TableName table) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.LOAD_DATA;
        }
    }

    /** {@code KILL [CONNECTION | QUERY] id}: id is a slot (the proxy maps client connection ids). */
    record Kill(Span span, boolean queryOnly, Expr id) implements UtilityStatement {
        @Override
        public StatementKind kind() {
            return StatementKind.KILL;
        }
    }

    /**
     * Anything recognized only by its leading keywords (FLUSH, KILL, GRANT, REVOKE, CREATE USER,
     * HANDLER, INSTALL PLUGIN, SET PASSWORD, SET ROLE, ...). {@code words} are the leading words
     * in upper case; {@code table} is set when the statement obviously names one (HANDLER t).
     */
    record Other(Span span, StatementKind kind, String words, TableName table) implements UtilityStatement {
    }
}
