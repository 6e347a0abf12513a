package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.SetStatement;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TransactionStatement;
import io.cleave.router.sql.ast.VariableScope;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** SET and transaction control. */
final class SessionParser {

    private final TokenCursor c;
    private final ExprParser exprs;

    SessionParser(TokenCursor c, QueryParser queries) {
        this.c = c;
        this.exprs = queries.exprs;
    }

    Statement set(UtilityParser utility) {
        int start = c.expect(Keyword.SET);
        int scopeAhead = scopeWordAt(0) != null ? 1 : 0;
        if (c.isAt(scopeAhead, Keyword.TRANSACTION)) {
            return setTransaction(start);
        }
        if (c.isWord("PASSWORD") && (c.type(1) == TokenType.EQ || c.isAt(1, Keyword.FOR))) {
            return utility.other(start, StatementKind.SET_PASSWORD, 2);
        }
        if (c.is(Keyword.ROLE) || (c.is(Keyword.DEFAULT) && c.isAt(1, Keyword.ROLE))) {
            return utility.other(start, StatementKind.SET_ROLE, 2);
        }
        if (c.isWord("RESOURCE") || c.isWord("STATEMENT")) {
            return utility.other(start, StatementKind.OTHER, 2);
        }
        List<SetStatement.Item> items = new ArrayList<>();
        VariableScope scope = VariableScope.DEFAULT;
        do {
            VariableScope written = scopeWordAt(0);
            if (written != null && !(c.type(1) == TokenType.EQ || c.type(1) == TokenType.ASSIGN)) {
                // A scope keyword applies to the following assignments until another one is written.
                scope = written;
                c.pos++;
            }
            items.add(item(scope));
        } while (c.accept(TokenType.COMMA));
        return new SetStatement(c.spanFrom(start), items);
    }

    private VariableScope scopeWordAt(int ahead) {
        Keyword k = c.kw(ahead);
        if (k == null) {
            return null;
        }
        return switch (k) {
            case GLOBAL -> VariableScope.GLOBAL;
            case SESSION -> VariableScope.SESSION;
            case LOCAL -> VariableScope.LOCAL;
            case PERSIST -> VariableScope.PERSIST;
            case PERSIST_ONLY -> VariableScope.PERSIST_ONLY;
            default -> null;
        };
    }

    private SetStatement.Item item(VariableScope scope) {
        int start = c.pos;
        if (c.is(Keyword.NAMES) && c.type(1) != TokenType.EQ) {
            c.pos++;
            String charset = c.accept(Keyword.DEFAULT) ? null : charsetName();
            String collation = null;
            if (charset != null && c.accept(Keyword.COLLATE)) {
                collation = charsetName();
            }
            return new SetStatement.Names(c.spanFrom(start), charset, collation);
        }
        if ((c.is(Keyword.CHARACTER) && c.isAt(1, Keyword.SET)) || (c.is(Keyword.CHARSET) && c.type(1) != TokenType.EQ)) {
            c.pos += c.is(Keyword.CHARACTER) ? 2 : 1;
            String charset = c.accept(Keyword.DEFAULT) ? null : charsetName();
            return new SetStatement.Charset(c.spanFrom(start), charset);
        }
        if (c.is(TokenType.USER_VARIABLE)) {
            String name = exprs.userVariableName(c.pos++);
            assignOperator();
            Expr value = exprs.expr();
            return new SetStatement.Variable(c.spanFrom(start), true, VariableScope.DEFAULT, name, value);
        }
        VariableScope itemScope = scope;
        String name;
        if (c.is(TokenType.SYSTEM_VARIABLE)) {
            Expr.SystemVariable v = (Expr.SystemVariable) exprs.primary();
            itemScope = v.scope();
            name = v.name();
        } else {
            VariableScope written = scopeWordAt(0);
            if (written != null && c.type(1) != TokenType.EQ && c.type(1) != TokenType.ASSIGN) {
                itemScope = written;
                c.pos++;
            }
            if (!c.isAnyWord()) {
                throw c.error("expected a variable name");
            }
            name = c.identifierText(c.pos++);
            if (c.is(TokenType.DOT) && c.type(1) != TokenType.EOF) {
                // Structured variables: default.key_buffer_size.
                c.pos++;
                name = name + "." + c.anyWord().value();
            }
            name = name.toLowerCase(Locale.ROOT);
        }
        assignOperator();
        Expr value = value();
        return new SetStatement.Variable(c.spanFrom(start), false, itemScope, name, value);
    }

    private void assignOperator() {
        if (!c.accept(TokenType.EQ) && !c.accept(TokenType.ASSIGN)) {
            throw c.error("expected =");
        }
    }

    /** A system variable's value: ON, OFF, SYSTEM and other bare words are words, not columns. */
    private Expr value() {
        int start = c.pos;
        boolean endsHere = c.type(1) == TokenType.COMMA || c.type(1) == TokenType.EOF || c.type(1) == TokenType.SEMICOLON;
        if (endsHere && (c.is(Keyword.ON) || c.is(Keyword.ALL) || c.is(Keyword.BINARY)
                || (c.isAnyWord() && !c.is(Keyword.NULL) && !c.is(Keyword.TRUE) && !c.is(Keyword.FALSE)
                && !c.is(Keyword.DEFAULT) && c.type() != TokenType.QUOTED_IDENTIFIER))) {
            String word = c.identifierText(c.pos++);
            return new Expr.Literal(c.spanFrom(start), Expr.LiteralKind.WORD, word.toUpperCase(Locale.ROOT));
        }
        return exprs.expr();
    }

    private String charsetName() {
        if (c.is(TokenType.STRING)) {
            return c.stringText(c.pos++).toLowerCase(Locale.ROOT);
        }
        return c.anyWord().value().toLowerCase(Locale.ROOT);
    }

    private Statement setTransaction(int start) {
        VariableScope scope = scopeWordAt(0);
        if (scope != null) {
            c.pos++;
        } else {
            scope = VariableScope.DEFAULT;
        }
        c.expect(Keyword.TRANSACTION);
        String isolation = null;
        String access = null;
        do {
            if (c.accept(Keyword.ISOLATION)) {
                c.expect(Keyword.LEVEL);
                if (c.accept(Keyword.READ)) {
                    if (c.accept(Keyword.COMMITTED)) {
                        isolation = "READ COMMITTED";
                    } else if (c.accept(Keyword.UNCOMMITTED)) {
                        isolation = "READ UNCOMMITTED";
                    } else {
                        throw c.error("expected COMMITTED or UNCOMMITTED");
                    }
                } else if (c.accept(Keyword.REPEATABLE)) {
                    c.expect(Keyword.READ);
                    isolation = "REPEATABLE READ";
                } else if (c.accept(Keyword.SERIALIZABLE)) {
                    isolation = "SERIALIZABLE";
                } else {
                    throw c.error("expected an isolation level");
                }
            } else if (c.accept(Keyword.READ)) {
                if (c.accept(Keyword.ONLY)) {
                    access = "READ ONLY";
                } else {
                    c.expect(Keyword.WRITE);
                    access = "READ WRITE";
                }
            } else {
                throw c.error("expected ISOLATION LEVEL or READ ONLY/WRITE");
            }
        } while (c.accept(TokenType.COMMA));
        return new TransactionStatement.SetTransaction(c.spanFrom(start), scope, isolation, access);
    }

    Statement begin() {
        int start = c.pos;
        if (c.accept(Keyword.BEGIN)) {
            c.accept(Keyword.WORK);
            return new TransactionStatement.Begin(c.spanFrom(start), false, false, false);
        }
        c.expect(Keyword.START);
        c.expect(Keyword.TRANSACTION);
        boolean readOnly = false;
        boolean readWrite = false;
        boolean snapshot = false;
        if (!c.atEnd()) {
            do {
                if (c.accept(Keyword.WITH)) {
                    c.expect(Keyword.CONSISTENT);
                    c.expect(Keyword.SNAPSHOT);
                    snapshot = true;
                } else {
                    c.expect(Keyword.READ);
                    if (c.accept(Keyword.ONLY)) {
                        readOnly = true;
                    } else {
                        c.expect(Keyword.WRITE);
                        readWrite = true;
                    }
                }
            } while (c.accept(TokenType.COMMA));
        }
        return new TransactionStatement.Begin(c.spanFrom(start), readOnly, readWrite, snapshot);
    }

    Statement commitOrRollback() {
        int start = c.pos;
        boolean commit = c.is(Keyword.COMMIT);
        c.pos++;
        c.accept(Keyword.WORK);
        if (!commit && c.accept(Keyword.TO)) {
            c.accept(Keyword.SAVEPOINT);
            Name savepoint = c.identifier();
            return new TransactionStatement.Rollback(c.spanFrom(start), null, null, savepoint);
        }
        Boolean chain = null;
        Boolean release = null;
        if (c.accept(Keyword.AND)) {
            chain = !c.accept(Keyword.NO);
            c.expect(Keyword.CHAIN);
        }
        if (c.is(Keyword.NO) && c.isAt(1, Keyword.RELEASE)) {
            c.pos += 2;
            release = false;
        } else if (c.accept(Keyword.RELEASE)) {
            release = true;
        }
        return commit
                ? new TransactionStatement.Commit(c.spanFrom(start), chain, release)
                : new TransactionStatement.Rollback(c.spanFrom(start), chain, release, null);
    }

    Statement savepoint() {
        int start = c.pos;
        boolean release = c.accept(Keyword.RELEASE);
        c.expect(Keyword.SAVEPOINT);
        Name name = c.identifier();
        return new TransactionStatement.Savepoint(c.spanFrom(start), name, release);
    }

    Statement xa() {
        int start = c.expect(Keyword.XA);
        String action = c.upperWord();
        if (action.equals("RECOVER")) {
            int at = c.pos;
            while (!c.atEnd()) {
                c.pos++;
            }
            return new TransactionStatement.Xa(c.spanFrom(start), action, Span.of(at, at), List.of());
        }
        if (!List.of("START", "BEGIN", "END", "PREPARE", "COMMIT", "ROLLBACK").contains(action)) {
            c.pos--;
            throw c.error("expected an XA action");
        }
        int xidStart = c.pos;
        List<Expr> parts = new ArrayList<>();
        parts.add(xidPart());
        for (int i = 0; i < 2 && c.accept(TokenType.COMMA); i++) {
            parts.add(xidPart());
        }
        Span xid = c.spanFrom(xidStart);
        // Trailing options: JOIN, RESUME, SUSPEND [FOR MIGRATE], ONE PHASE.
        while (c.isAnyWord()) {
            c.pos++;
        }
        return new TransactionStatement.Xa(c.spanFrom(start), action, xid, List.copyOf(parts));
    }

    private Expr xidPart() {
        TokenType t = c.type();
        if (t == TokenType.STRING || t == TokenType.HEX || t == TokenType.INTEGER || t == TokenType.PLACEHOLDER
                || t == TokenType.BIT) {
            return c.literal();
        }
        throw c.error("expected an xid");
    }
}
