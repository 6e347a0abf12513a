package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.DataType;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** CREATE, ALTER, DROP, TRUNCATE, RENAME and table maintenance statements. */
final class DdlParser {

    private final TokenCursor c;
    private final QueryParser queries;
    private final UtilityParser utility;

    DdlParser(TokenCursor c, QueryParser queries, UtilityParser utility) {
        this.c = c;
        this.queries = queries;
        this.utility = utility;
    }

    Statement create() {
        int start = c.expect(Keyword.CREATE);
        boolean orReplace = false;
        if (c.is(Keyword.OR) && c.isAt(1, Keyword.REPLACE)) {
            c.pos += 2;
            orReplace = true;
        }
        boolean temporary = c.accept(Keyword.TEMPORARY);
        if (c.is(Keyword.TABLE)) {
            return createTable(start, temporary);
        }
        if (c.isWord("SEQUENCE")) {
            c.pos++;
            ifNotExists();
            TableName name = c.tableName();
            skipRest();
            return new Ddl.Sequence(c.spanFrom(start), StatementKind.CREATE_SEQUENCE, temporary, List.of(name));
        }
        if (c.is(Keyword.UNIQUE) || c.is(Keyword.FULLTEXT) || c.is(Keyword.SPATIAL) || c.is(Keyword.INDEX)) {
            return createIndex(start);
        }
        if (c.is(Keyword.DATABASE) || c.is(Keyword.SCHEMA)) {
            c.pos++;
            boolean ifNotExists = ifNotExists();
            Name name = c.identifier();
            skipRest();
            return new Ddl.Database(c.spanFrom(start), StatementKind.CREATE_DATABASE, ifNotExists, name);
        }
        if (c.isWord("USER") || c.is(Keyword.ROLE)) {
            return utility.other(start, StatementKind.USER_ADMIN, 2);
        }
        skipViewAndRoutineOptions();
        if (c.is(Keyword.VIEW)) {
            return view(start, StatementKind.CREATE_VIEW);
        }
        StatementKind kind = routineKind(true);
        if (kind != null) {
            return routine(start, kind);
        }
        return utility.other(start, StatementKind.OTHER, orReplace ? 4 : 2);
    }

    /** ALGORITHM=..., DEFINER=..., SQL SECURITY ..., AGGREGATE before VIEW/TRIGGER/PROCEDURE/FUNCTION/EVENT. */
    private void skipViewAndRoutineOptions() {
        while (true) {
            if (c.isWord("ALGORITHM")) {
                c.pos++;
                c.expect(TokenType.EQ);
                c.anyWord();
            } else if (c.isWord("DEFINER")) {
                c.pos++;
                c.expect(TokenType.EQ);
                if (c.is(Keyword.CURRENT_USER)) {
                    c.pos++;
                    if (c.accept(TokenType.LPAREN)) {
                        c.expect(TokenType.RPAREN);
                    }
                } else {
                    if (c.is(TokenType.STRING)) {
                        c.pos++;
                    } else {
                        c.anyWord();
                    }
                    if (c.is(TokenType.USER_VARIABLE) || c.is(TokenType.AT)) {
                        c.pos++;
                        if (c.tokens.type(c.pos - 1) == TokenType.AT) {
                            c.pos++;
                        }
                    }
                }
            } else if (c.isWord("SQL") && c.isWordAt(1, "SECURITY")) {
                c.pos += 3;
            } else if (c.isWord("AGGREGATE")) {
                c.pos++;
            } else {
                return;
            }
        }
    }

    private StatementKind routineKind(boolean create) {
        if (c.is(Keyword.TRIGGER)) {
            return create ? StatementKind.CREATE_TRIGGER : StatementKind.DROP_TRIGGER;
        }
        if (c.is(Keyword.PROCEDURE)) {
            return create ? StatementKind.CREATE_PROCEDURE : StatementKind.DROP_PROCEDURE;
        }
        if (c.is(Keyword.FUNCTION)) {
            return create ? StatementKind.CREATE_FUNCTION : StatementKind.DROP_FUNCTION;
        }
        if (c.is(Keyword.EVENT)) {
            return create ? StatementKind.CREATE_EVENT : StatementKind.DROP_EVENT;
        }
        return null;
    }

    private Statement routine(int start, StatementKind kind) {
        c.pos++;
        ifNotExists();
        TableName name = c.tableName();
        List<TableName> tables = List.of();
        if (kind == StatementKind.CREATE_TRIGGER) {
            // {BEFORE|AFTER} {INSERT|UPDATE|DELETE} ON table FOR EACH ROW ...
            while (!c.atEnd() && !c.is(Keyword.ON)) {
                c.pos++;
            }
            c.expect(Keyword.ON);
            tables = List.of(c.tableName());
        }
        // The body may hold semicolons: it runs to the end of the statement text.
        c.skipToEnd();
        return new Ddl.ObjectDdl(c.spanFrom(start), kind, List.of(name), tables, null);
    }

    private Statement view(int start, StatementKind kind) {
        c.expect(Keyword.VIEW);
        ifNotExists();
        TableName name = c.tableName();
        if (c.is(TokenType.LPAREN)) {
            queries.nameList();
        }
        c.expect(Keyword.AS);
        Query query = queries.queryExpression();
        if (c.is(Keyword.WITH)) {
            // WITH [CASCADED|LOCAL] CHECK OPTION
            while (!c.atEnd()) {
                c.pos++;
            }
        }
        return new Ddl.ObjectDdl(c.spanFrom(start), kind, List.of(name), List.of(), query);
    }

    private boolean ifNotExists() {
        if (c.is(Keyword.IF) && c.isAt(1, Keyword.NOT) && c.isAt(2, Keyword.EXISTS)) {
            c.pos += 3;
            return true;
        }
        return false;
    }

    private boolean ifExists() {
        if (c.is(Keyword.IF) && c.isAt(1, Keyword.EXISTS)) {
            c.pos += 2;
            return true;
        }
        return false;
    }

    private Statement createTable(int start, boolean temporary) {
        c.expect(Keyword.TABLE);
        boolean ifNotExists = ifNotExists();
        TableName table = c.tableName();
        if (c.accept(Keyword.LIKE)) {
            TableName like = c.tableName();
            return new Ddl.CreateTable(c.spanFrom(start), temporary, ifNotExists, table, List.of(), List.of(), like,
                    null, Span.of(c.pos, c.pos));
        }
        if (c.is(TokenType.LPAREN) && c.isAt(1, Keyword.LIKE)) {
            c.pos += 2;
            TableName like = c.tableName();
            c.expect(TokenType.RPAREN);
            return new Ddl.CreateTable(c.spanFrom(start), temporary, ifNotExists, table, List.of(), List.of(), like,
                    null, Span.of(c.pos, c.pos));
        }
        List<Ddl.ColumnDef> columns = new ArrayList<>();
        List<Ddl.KeyDef> keys = new ArrayList<>();
        if (c.is(TokenType.LPAREN) && !c.startsQuery(1)) {
            c.pos++;
            do {
                if (!tableConstraint(keys)) {
                    columns.add(columnDef());
                }
            } while (c.accept(TokenType.COMMA));
            c.expect(TokenType.RPAREN);
        }
        int optionsStart = c.pos;
        while (!c.atEnd() && !startsAsQuery()) {
            if (c.is(TokenType.LPAREN)) {
                c.skipParens();
            } else if (c.type() == TokenType.ERROR) {
                throw c.error("lexical error");
            } else {
                c.pos++;
            }
        }
        Span options = Span.of(optionsStart, c.pos);
        Query asQuery = null;
        if (!c.atEnd()) {
            if (c.accept(Keyword.IGNORE) || c.accept(Keyword.REPLACE)) {
                // duplicate handling for CREATE ... SELECT
            }
            c.accept(Keyword.AS);
            asQuery = queries.queryExpression();
        }
        return new Ddl.CreateTable(c.spanFrom(start), temporary, ifNotExists, table, List.copyOf(columns),
                List.copyOf(keys), null, asQuery, options);
    }

    private boolean startsAsQuery() {
        if (c.is(Keyword.SELECT) || c.is(Keyword.WITH)) {
            return true;
        }
        if (c.is(TokenType.LPAREN) && c.startsQuery(1)) {
            return true;
        }
        if ((c.is(Keyword.AS) || c.is(Keyword.IGNORE) || c.is(Keyword.REPLACE)) && c.startsQuery(1)) {
            return true;
        }
        return c.is(Keyword.AS) && c.type(1) == TokenType.LPAREN;
    }

    /** A table-level key or constraint, if one starts here. */
    private boolean tableConstraint(List<Ddl.KeyDef> keys) {
        int start = c.pos;
        String constraintName = null;
        if (c.is(Keyword.CONSTRAINT)) {
            c.pos++;
            if (c.isIdentifier() && !c.is(Keyword.CHECK)) {
                constraintName = c.identifier().value();
            }
        }
        Ddl.KeyType type = keyType(constraintName == null);
        if (type == null && c.accept(Keyword.FOREIGN)) {
            c.expect(Keyword.KEY);
            type = Ddl.KeyType.FOREIGN;
        } else if (type == null && c.is(Keyword.CHECK)) {
            c.pos++;
            c.skipParens();
            skipConstraintTail();
            keys.add(new Ddl.KeyDef(c.spanFrom(start), Ddl.KeyType.CHECK, constraintName, List.of(), List.of()));
            return true;
        } else if (type == null) {
            if (start != c.pos) {
                throw c.error("expected a constraint");
            }
            return false;
        }
        String name = constraintName;
        if (!c.is(TokenType.LPAREN) && !c.is(Keyword.USING)) {
            String indexName = c.identifier().value();
            if (name == null) {
                name = indexName;
            }
        }
        if (c.accept(Keyword.USING)) {
            c.anyWord();
        }
        KeyParts parts = keyParts();
        skipConstraintTail();
        keys.add(new Ddl.KeyDef(c.spanFrom(start), type, name, parts.columns(), parts.expressions()));
        return true;
    }

    /**
     * {@code PRIMARY KEY | UNIQUE [KEY|INDEX] | FULLTEXT|SPATIAL [KEY|INDEX] | KEY | INDEX} (the last two
     * when {@code plainIndex}), read; null (nothing read) when no key type stands here.
     */
    private Ddl.KeyType keyType(boolean plainIndex) {
        Ddl.KeyType type;
        if (c.accept(Keyword.PRIMARY)) {
            c.expect(Keyword.KEY);
            return Ddl.KeyType.PRIMARY;
        } else if (c.accept(Keyword.UNIQUE)) {
            type = Ddl.KeyType.UNIQUE;
        } else if (c.accept(Keyword.FULLTEXT) || c.accept(Keyword.SPATIAL)) {
            type = c.isAt(-1, Keyword.FULLTEXT) ? Ddl.KeyType.FULLTEXT : Ddl.KeyType.SPATIAL;
        } else if (plainIndex && (c.accept(Keyword.KEY) || c.accept(Keyword.INDEX))) {
            return Ddl.KeyType.INDEX;
        } else {
            return null;
        }
        if (!c.accept(Keyword.KEY)) {
            c.accept(Keyword.INDEX);
        }
        return type;
    }

    private record KeyParts(List<String> columns, List<Expr> expressions) {
    }

    /** {@code (col [(len)] [ASC|DESC], (expr), ...)}: column names and functional parts. */
    private KeyParts keyParts() {
        c.expect(TokenType.LPAREN);
        List<String> columns = new ArrayList<>();
        List<Expr> expressions = new ArrayList<>();
        do {
            if (c.is(TokenType.LPAREN)) {
                c.pos++;
                expressions.add(queries.exprs.expr());
                c.expect(TokenType.RPAREN);
            } else {
                columns.add(c.anyWord().value());
                if (c.is(TokenType.LPAREN)) {
                    c.skipParens();
                }
            }
            if (!c.accept(Keyword.ASC)) {
                c.accept(Keyword.DESC);
            }
        } while (c.accept(TokenType.COMMA));
        c.expect(TokenType.RPAREN);
        return new KeyParts(List.copyOf(columns), List.copyOf(expressions));
    }

    /** Index options, REFERENCES ..., [NOT] ENFORCED: up to the next ',' or ')' of the definition list. */
    private void skipConstraintTail() {
        while (!c.is(TokenType.COMMA) && !c.is(TokenType.RPAREN)) {
            if (c.atEnd() || c.type() == TokenType.ERROR) {
                throw c.error("expected , or )");
            }
            if (c.is(TokenType.LPAREN)) {
                c.skipParens();
            } else {
                c.pos++;
            }
        }
    }

    private Ddl.ColumnDef columnDef() {
        int start = c.pos;
        Name name = c.identifier();
        DataType type = queries.exprs.dataType();
        boolean autoIncrement = false;
        boolean primaryKey = false;
        boolean unique = false;
        boolean notNull = false;
        while (!c.is(TokenType.COMMA) && !c.is(TokenType.RPAREN)) {
            if (c.atEnd() || c.type() == TokenType.ERROR) {
                throw c.error("expected , or )");
            }
            if (c.accept(Keyword.AUTO_INCREMENT)) {
                autoIncrement = true;
            } else if (c.accept(Keyword.PRIMARY)) {
                c.accept(Keyword.KEY);
                primaryKey = true;
            } else if (c.accept(Keyword.UNIQUE)) {
                c.accept(Keyword.KEY);
                unique = true;
            } else if (c.accept(Keyword.KEY)) {
                primaryKey = true;
            } else if (c.is(Keyword.NOT) && c.isAt(1, Keyword.NULL)) {
                c.pos += 2;
                notNull = true;
            } else if (c.is(Keyword.DEFAULT) || c.is(Keyword.COMMENT)) {
                c.pos++;
                if (c.is(TokenType.LPAREN)) {
                    c.skipParens();
                } else if (c.is(TokenType.MINUS) || c.is(TokenType.PLUS)) {
                    c.pos += 2;
                } else {
                    c.pos++;
                    if (c.is(TokenType.LPAREN)) {
                        c.skipParens();
                    }
                }
            } else if (c.is(TokenType.LPAREN)) {
                c.skipParens();
            } else {
                c.pos++;
            }
        }
        return new Ddl.ColumnDef(c.spanFrom(start), name, type, autoIncrement, primaryKey, unique, notNull);
    }

    private Statement createIndex(int start) {
        Ddl.KeyType type = Ddl.KeyType.INDEX;
        if (c.accept(Keyword.UNIQUE)) {
            type = Ddl.KeyType.UNIQUE;
        } else if (c.accept(Keyword.FULLTEXT)) {
            type = Ddl.KeyType.FULLTEXT;
        } else if (c.accept(Keyword.SPATIAL)) {
            type = Ddl.KeyType.SPATIAL;
        }
        c.expect(Keyword.INDEX);
        ifNotExists();
        Name name = c.identifier();
        if (c.accept(Keyword.USING)) {
            c.anyWord();
        }
        c.expect(Keyword.ON);
        TableName table = c.tableName();
        KeyParts parts = keyParts();
        skipRest();
        return new Ddl.CreateIndex(c.spanFrom(start), type, name, table, parts.columns(), parts.expressions());
    }

    private Ddl.AlterClause clause(int from, Ddl.AlterClause added) {
        return added != null ? new Ddl.AlterClause(Span.of(from, c.pos), true, added.addedKey())
                : new Ddl.AlterClause(Span.of(from, c.pos), false, null);
    }

    /**
     * At the start of an alteration: {@code ADD [CONSTRAINT [c]] <key> [IF NOT EXISTS] [name] [USING t] (parts)}
     * read up to the parts (the options after them are left for the clause loop), or null when no
     * key is added here. A key clause this reader does not follow comes back with no key: the
     * caller treats it as a key it cannot see, never as no key.
     */
    private Ddl.AlterClause alterAddKey() {
        if (!c.is(Keyword.ADD)) {
            return null;
        }
        int start = c.pos;
        int at = 1;
        if (c.isAt(1, Keyword.CONSTRAINT)) {
            at = c.isAt(2, Keyword.PRIMARY) || c.isAt(2, Keyword.UNIQUE) ? 2 : 3;
        }
        boolean key = c.isAt(at, Keyword.PRIMARY) || c.isAt(at, Keyword.UNIQUE) || c.isAt(at, Keyword.INDEX)
                || c.isAt(at, Keyword.KEY) || c.isAt(at, Keyword.FULLTEXT) || c.isAt(at, Keyword.SPATIAL);
        if (!key) {
            return null;
        }
        try {
            c.pos++;
            String constraint = null;
            if (c.accept(Keyword.CONSTRAINT) && !c.is(Keyword.PRIMARY) && !c.is(Keyword.UNIQUE)) {
                constraint = c.identifier().value();
            }
            Ddl.KeyType type = keyType(true);
            if (type == null) {
                throw c.error("expected a key");
            }
            ifNotExists();
            String name = null;
            if (!c.is(TokenType.LPAREN) && !c.is(Keyword.USING)) {
                name = c.identifier().value();
            }
            if (c.accept(Keyword.USING)) {
                c.anyWord();
            }
            KeyParts parts = keyParts();
            name = type == Ddl.KeyType.PRIMARY ? "PRIMARY" : name != null ? name : constraint;
            return new Ddl.AlterClause(c.spanFrom(start), true,
                    new Ddl.KeyDef(c.spanFrom(start), type, name, parts.columns(), parts.expressions()));
        } catch (SqlSyntaxException e) {
            c.pos = start + 1;
            return new Ddl.AlterClause(c.spanFrom(start), true, null);
        }
    }

    Statement alter() {
        int start = c.expect(Keyword.ALTER);
        while (c.isWord("ONLINE") || c.isWord("OFFLINE") || c.is(Keyword.IGNORE)) {
            c.pos++;
        }
        if (c.accept(Keyword.TABLE)) {
            ifExists();
            TableName table = c.tableName();
            int bodyStart = c.pos;
            TableName renameTo = null;
            List<Ddl.AlterClause> clauses = new ArrayList<>();
            int clauseStart = c.pos;
            Ddl.AlterClause added = alterAddKey();
            while (!c.atEnd()) {
                if (c.type() == TokenType.ERROR) {
                    throw c.error("lexical error");
                }
                if (c.is(TokenType.COMMA)) {
                    clauses.add(clause(clauseStart, added));
                    c.pos++;
                    clauseStart = c.pos;
                    added = alterAddKey();
                    continue;
                }
                if (c.is(Keyword.RENAME) && !c.isAt(1, Keyword.COLUMN) && !c.isAt(1, Keyword.INDEX)
                        && !c.isAt(1, Keyword.KEY)) {
                    c.pos++;
                    if (!c.accept(Keyword.TO)) {
                        c.accept(Keyword.AS);
                    }
                    renameTo = c.tableName();
                    continue;
                }
                if (c.is(TokenType.LPAREN)) {
                    c.skipParens();
                } else {
                    c.pos++;
                }
            }
            if (c.pos > clauseStart) {
                clauses.add(clause(clauseStart, added));
            }
            return new Ddl.AlterTable(c.spanFrom(start), table, Span.of(bodyStart, c.pos), renameTo, List.copyOf(clauses));
        }
        if (c.is(Keyword.DATABASE) || c.is(Keyword.SCHEMA)) {
            c.pos++;
            Name name = c.isIdentifier() && !isDatabaseOption() ? c.identifier() : null;
            skipRest();
            return new Ddl.Database(c.spanFrom(start), StatementKind.ALTER_DATABASE, false, name);
        }
        skipViewAndRoutineOptions();
        if (c.is(Keyword.VIEW)) {
            return view(start, StatementKind.ALTER_VIEW);
        }
        if (c.is(Keyword.EVENT) || c.is(Keyword.PROCEDURE) || c.is(Keyword.FUNCTION)) {
            StatementKind kind = c.is(Keyword.EVENT) ? StatementKind.ALTER_EVENT
                    : c.is(Keyword.PROCEDURE) ? StatementKind.ALTER_PROCEDURE : StatementKind.ALTER_FUNCTION;
            c.pos++;
            TableName name = c.tableName();
            c.skipToEnd();
            return new Ddl.ObjectDdl(c.spanFrom(start), kind, List.of(name), List.of(), null);
        }
        if (c.isWord("SEQUENCE")) {
            c.pos++;
            ifExists();
            TableName name = c.tableName();
            skipRest();
            return new Ddl.Sequence(c.spanFrom(start), StatementKind.ALTER_SEQUENCE, false, List.of(name));
        }
        if (c.isWord("USER") || c.is(Keyword.ROLE)) {
            return utility.other(start, StatementKind.USER_ADMIN, 2);
        }
        return utility.other(start, StatementKind.OTHER, 2);
    }

    private boolean isDatabaseOption() {
        return c.is(Keyword.DEFAULT) || c.is(Keyword.CHARACTER) || c.is(Keyword.CHARSET) || c.is(Keyword.COLLATE)
                || c.isWord("ENCRYPTION") || c.isWord("READ");
    }

    Statement drop() {
        int start = c.expect(Keyword.DROP);
        boolean temporary = c.accept(Keyword.TEMPORARY);
        if (c.accept(Keyword.TABLE) || c.accept(Keyword.TABLES)) {
            boolean ifExists = ifExists();
            List<TableName> tables = new ArrayList<>();
            do {
                tables.add(c.tableName());
            } while (c.accept(TokenType.COMMA));
            if (c.isWord("RESTRICT") || c.isWord("CASCADE")) {
                c.pos++;
            }
            return new Ddl.DropTable(c.spanFrom(start), temporary, ifExists, List.copyOf(tables));
        }
        if (c.accept(Keyword.INDEX)) {
            ifExists();
            Name name = c.is(Keyword.PRIMARY) ? c.anyWord() : c.identifier();
            c.expect(Keyword.ON);
            TableName table = c.tableName();
            skipRest();
            return new Ddl.DropIndex(c.spanFrom(start), name, table);
        }
        if (c.accept(Keyword.DATABASE) || c.accept(Keyword.SCHEMA)) {
            boolean ifExists = ifExists();
            Name name = c.identifier();
            return new Ddl.Database(c.spanFrom(start), StatementKind.DROP_DATABASE, ifExists, name);
        }
        if (c.is(Keyword.PREPARE)) {
            c.pos = start;
            return utility.deallocate();
        }
        if (c.is(Keyword.VIEW) || c.isWord("SEQUENCE")) {
            boolean sequence = c.isWord("SEQUENCE");
            c.pos++;
            ifExists();
            List<TableName> names = new ArrayList<>();
            do {
                names.add(c.tableName());
            } while (c.accept(TokenType.COMMA));
            skipRest();
            return sequence
                    ? new Ddl.Sequence(c.spanFrom(start), StatementKind.DROP_SEQUENCE, temporary, List.copyOf(names))
                    : new Ddl.ObjectDdl(c.spanFrom(start), StatementKind.DROP_VIEW, List.copyOf(names), List.of(), null);
        }
        StatementKind kind = routineKind(false);
        if (kind != null) {
            c.pos++;
            ifExists();
            TableName name = c.tableName();
            skipRest();
            return new Ddl.ObjectDdl(c.spanFrom(start), kind, List.of(name), List.of(), null);
        }
        if (c.isWord("USER") || c.is(Keyword.ROLE)) {
            return utility.other(start, StatementKind.USER_ADMIN, 2);
        }
        return utility.other(start, StatementKind.OTHER, 2);
    }

    Statement truncate() {
        int start = c.expect(Keyword.TRUNCATE);
        c.accept(Keyword.TABLE);
        TableName table = c.tableName();
        return new Ddl.TruncateTable(c.spanFrom(start), table);
    }

    Statement rename() {
        int start = c.expect(Keyword.RENAME);
        if (!c.accept(Keyword.TABLE) && !c.accept(Keyword.TABLES)) {
            return utility.other(start, c.isWordAt(1, "USER") ? StatementKind.USER_ADMIN : StatementKind.OTHER, 2);
        }
        List<TableName> from = new ArrayList<>();
        List<TableName> to = new ArrayList<>();
        do {
            from.add(c.tableName());
            c.expect(Keyword.TO);
            to.add(c.tableName());
        } while (c.accept(TokenType.COMMA));
        return new Ddl.RenameTable(c.spanFrom(start), List.copyOf(from), List.copyOf(to));
    }

    /** ANALYZE|OPTIMIZE|CHECK|REPAIR|CHECKSUM [NO_WRITE_TO_BINLOG|LOCAL] TABLE t, ... [options]. */
    Statement maintenance() {
        int start = c.pos;
        String operation = c.upperWord();
        if (c.is(Keyword.NO_WRITE_TO_BINLOG) || c.is(Keyword.LOCAL)) {
            c.pos++;
        }
        if (!c.accept(Keyword.TABLE) && !c.accept(Keyword.TABLES)) {
            return utility.other(start, StatementKind.OTHER, 2);
        }
        List<TableName> tables = new ArrayList<>();
        do {
            tables.add(c.tableName());
        } while (c.accept(TokenType.COMMA));
        skipRest();
        return new Ddl.TableMaintenance(c.spanFrom(start), operation.toUpperCase(Locale.ROOT), List.copyOf(tables));
    }

    private void skipRest() {
        while (!c.atEnd()) {
            if (c.type() == TokenType.ERROR) {
                throw c.error("lexical error");
            }
            c.pos++;
        }
    }
}
