package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.UtilityStatement;
import io.cleave.router.sql.ast.VariableScope;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** USE, SHOW, DESCRIBE/EXPLAIN, LOCK/UNLOCK TABLES, prepared statements, CALL, DO, LOAD DATA and the generic rest. */
final class UtilityParser {

    private static final Set<String> SHOW_ON_TABLE = Set.of("COLUMNS", "FIELDS", "INDEX", "INDEXES", "KEYS");

    private final TokenCursor c;
    private final QueryParser queries;
    private final ExprParser exprs;

    UtilityParser(TokenCursor c, QueryParser queries) {
        this.c = c;
        this.queries = queries;
        this.exprs = queries.exprs;
    }

    Statement use() {
        int start = c.expect(Keyword.USE);
        Name schema = c.identifier();
        return new UtilityStatement.Use(c.spanFrom(start), schema);
    }

    Statement show() {
        int start = c.expect(Keyword.SHOW);
        boolean full = false;
        VariableScope scope = VariableScope.DEFAULT;
        while (true) {
            if (c.accept(Keyword.FULL)) {
                full = true;
            } else if (c.accept(Keyword.EXTENDED)) {
                // SHOW EXTENDED COLUMNS: hidden columns too; nothing the router needs.
            } else if (c.accept(Keyword.GLOBAL)) {
                scope = VariableScope.GLOBAL;
            } else if (c.accept(Keyword.SESSION) || c.accept(Keyword.LOCAL)) {
                scope = VariableScope.SESSION;
            } else {
                break;
            }
        }
        StringBuilder what = new StringBuilder();
        TableName table = null;
        if (c.is(Keyword.CREATE)) {
            c.pos++;
            what.append("CREATE ").append(c.upperWord());
            table = c.tableName();
        } else {
            while (c.isAnyWord() && !c.is(Keyword.FROM) && !c.is(Keyword.IN) && !c.is(Keyword.LIKE)
                    && !c.is(Keyword.WHERE) && !c.is(Keyword.LIMIT) && !c.is(Keyword.FOR)) {
                if (what.length() > 0) {
                    what.append(' ');
                }
                what.append(c.upperWord());
            }
        }
        if (what.length() == 0) {
            throw c.error("expected what to show");
        }
        Name schema = null;
        if (c.accept(Keyword.FROM) || c.accept(Keyword.IN)) {
            if (SHOW_ON_TABLE.contains(what.toString())) {
                table = c.tableName();
                if (c.accept(Keyword.FROM) || c.accept(Keyword.IN)) {
                    schema = c.identifier();
                    table = new TableName(table.span(), schema.value(), table.name());
                }
            } else {
                schema = c.identifier();
            }
        }
        Expr like = null;
        Expr where = null;
        if (c.accept(Keyword.LIKE)) {
            like = exprs.expr();
        } else if (c.accept(Keyword.WHERE)) {
            where = exprs.expr();
        }
        // LIMIT of SHOW WARNINGS, FOR QUERY n of SHOW PROFILE, ...: not analyzed.
        while (!c.atEnd()) {
            if (c.type() == TokenType.ERROR) {
                throw c.error("lexical error");
            }
            c.pos++;
        }
        return new UtilityStatement.Show(c.spanFrom(start), what.toString(), full, scope, table, schema, like, where);
    }

    /** DESCRIBE/DESC/EXPLAIN: a table description or an explained statement. */
    Statement describe(SqlParser.StatementReader reader) {
        int start = c.pos;
        c.pos++;
        boolean analyze = c.accept(Keyword.ANALYZE);
        String format = null;
        while (c.is(Keyword.EXTENDED) || c.isWord("PARTITIONS") || c.is(Keyword.FORMAT)) {
            if (c.accept(Keyword.FORMAT)) {
                c.expect(TokenType.EQ);
                format = c.upperWord();
            } else {
                c.pos++;
            }
        }
        if (c.is(Keyword.FOR) && c.isWordAt(1, "CONNECTION")) {
            return other(start, StatementKind.EXPLAIN, 3);
        }
        if (analyze || format != null || startsExplainable()) {
            Statement inner = reader.read();
            return new UtilityStatement.Explain(c.spanFrom(start), analyze, format, inner);
        }
        TableName table = c.tableName();
        Name column = null;
        if (c.isIdentifier()) {
            column = c.identifier();
        } else if (c.is(TokenType.STRING)) {
            int i = c.pos++;
            column = new Name(c.spanFrom(i), c.stringText(i));
        }
        return new UtilityStatement.Describe(c.spanFrom(start), table, column);
    }

    /** MariaDB's {@code ANALYZE SELECT ...} (ANALYZE TABLE goes to the DDL parser). */
    Statement analyzeStatement(SqlParser.StatementReader reader) {
        int start = c.expect(Keyword.ANALYZE);
        if (c.accept(Keyword.FORMAT)) {
            c.expect(TokenType.EQ);
            c.upperWord();
        }
        Statement inner = reader.read();
        return new UtilityStatement.Explain(c.spanFrom(start), true, null, inner);
    }

    boolean startsExplainable() {
        Keyword k = c.kw();
        return c.is(TokenType.LPAREN) || k == Keyword.SELECT || k == Keyword.WITH || k == Keyword.INSERT
                || k == Keyword.REPLACE || k == Keyword.UPDATE || k == Keyword.DELETE || k == Keyword.TABLE;
    }

    Statement lockTables() {
        int start = c.expect(Keyword.LOCK);
        if (!c.accept(Keyword.TABLES)) {
            c.expect(Keyword.TABLE);
        }
        List<UtilityStatement.TableLock> locks = new ArrayList<>();
        do {
            int s = c.pos;
            TableName table = c.tableName();
            String alias = null;
            if (c.accept(Keyword.AS)) {
                alias = c.identifier().value();
            } else if (c.isIdentifier()) {
                alias = c.identifier().value();
            }
            boolean write;
            if (c.accept(Keyword.READ)) {
                c.accept(Keyword.LOCAL);
                write = false;
            } else {
                c.accept(Keyword.LOW_PRIORITY);
                c.expect(Keyword.WRITE);
                write = true;
            }
            locks.add(new UtilityStatement.TableLock(c.spanFrom(s), table, alias, write));
        } while (c.accept(TokenType.COMMA));
        return new UtilityStatement.LockTables(c.spanFrom(start), locks);
    }

    Statement unlockTables() {
        int start = c.expect(Keyword.UNLOCK);
        if (!c.accept(Keyword.TABLES)) {
            c.expect(Keyword.TABLE);
        }
        return new UtilityStatement.UnlockTables(c.spanFrom(start));
    }

    Statement prepare() {
        int start = c.expect(Keyword.PREPARE);
        Name name = c.identifier();
        c.expect(Keyword.FROM);
        Expr source;
        if (c.is(TokenType.STRING) || c.is(TokenType.USER_VARIABLE)) {
            source = exprs.primary();
        } else {
            throw c.error("expected a string or a user variable");
        }
        return new UtilityStatement.Prepare(c.spanFrom(start), name, source);
    }

    Statement execute() {
        int start = c.expect(Keyword.EXECUTE);
        Name name = c.identifier();
        List<Expr> using = List.of();
        if (c.accept(Keyword.USING)) {
            using = exprs.exprList();
        }
        return new UtilityStatement.Execute(c.spanFrom(start), name, using);
    }

    Statement deallocate() {
        int start = c.pos++;
        c.expect(Keyword.PREPARE);
        Name name = c.identifier();
        return new UtilityStatement.Deallocate(c.spanFrom(start), name);
    }

    Statement call() {
        int start = c.expect(Keyword.CALL);
        TableName procedure = c.tableName();
        List<Expr> args = List.of();
        if (c.accept(TokenType.LPAREN)) {
            if (!c.is(TokenType.RPAREN)) {
                args = exprs.exprList();
            }
            c.expect(TokenType.RPAREN);
        }
        return new UtilityStatement.Call(c.spanFrom(start), procedure, args);
    }

    Statement doStatement() {
        int start = c.expect(Keyword.DO);
        return new UtilityStatement.Do(c.spanFrom(start), exprs.exprList());
    }

    Statement load() {
        int start = c.expect(Keyword.LOAD);
        if (!c.accept(Keyword.DATA) && !c.acceptWord("XML")) {
            c.pos = start;
            return other(start, StatementKind.OTHER, 2);
        }
        while (!c.atEnd() && !(c.is(Keyword.INTO) && c.isAt(1, Keyword.TABLE))) {
            if (c.type() == TokenType.ERROR) {
                throw c.error("lexical error");
            }
            c.pos++;
        }
        c.expect(Keyword.INTO);
        c.expect(Keyword.TABLE);
        TableName table = c.tableName();
        skipRest();
        return new UtilityStatement.LoadData(c.spanFrom(start), table);
    }

    Statement kill() {
        int start = c.expect(Keyword.KILL);
        boolean queryOnly = false;
        if (c.acceptWord("QUERY")) {
            queryOnly = true;
        } else {
            c.acceptWord("CONNECTION");
        }
        Expr id = exprs.expr();
        return new UtilityStatement.Kill(c.spanFrom(start), queryOnly, id);
    }

    Statement handler() {
        int start = c.expect(Keyword.HANDLER);
        TableName table = c.tableName();
        skipRest();
        return new UtilityStatement.Other(c.spanFrom(start), StatementKind.HANDLER, "HANDLER", table);
    }

    /**
     * A statement known only by its leading words: records up to {@code words} leading words
     * (from {@code start}) and skips the rest.
     */
    Statement other(int start, StatementKind kind, int words) {
        c.pos = start;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words && c.isAnyWord(); i++) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(c.upperWord());
        }
        if (sb.length() == 0) {
            throw c.error("expected a statement");
        }
        skipRest();
        return new UtilityStatement.Other(c.spanFrom(start), kind, sb.toString(), null);
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
