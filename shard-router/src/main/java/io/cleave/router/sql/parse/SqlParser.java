package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.nio.charset.StandardCharsets;

/**
 * Parses one lexed statement into an immutable AST. Literal tokens become {@code Slot} nodes
 * numbered by the digest (so the digest must be computed from the same tokens first), except
 * those the digest kept in its key, which become {@code Literal}s.
 *
 * <p>The only exception thrown is {@link SqlSyntaxException}, for any input. A trailing
 * {@code ;} is accepted; a second statement after it is a syntax error (multi-statement text
 * must be split at SEMICOLON tokens first). Stateless and thread-safe.
 */
public final class SqlParser {

    /** Reads a statement at the cursor: EXPLAIN uses it to read the statement it wraps. */
    interface StatementReader {
        Statement read();
    }

    public SqlParser() {
    }

    /**
     * Parses the statement held by {@code tokens}; {@code digest} must have been computed from them.
     *
     * @throws SqlSyntaxException if the statement is not valid (as far as this parser knows)
     */
    public Statement parse(TokenBuffer tokens, StatementDigest digest) {
        TokenCursor c = new TokenCursor(tokens, digest);
        try {
            if (tokens.size() == 0) {
                throw new SqlSyntaxException(tokens, 0, "Query was empty");
            }
            Statement s = new Dispatcher(c).statement();
            while (c.accept(TokenType.SEMICOLON)) {
                // trailing semicolons
            }
            if (c.type() != TokenType.EOF) {
                throw c.error("unexpected text after the statement");
            }
            return s;
        } catch (SqlSyntaxException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // A parser bug must not escape as anything but a syntax error; the cause keeps it visible.
            throw new SqlSyntaxException(tokens, Math.min(c.pos, tokens.size()), "internal parser error: " + e, e);
        }
    }

    /** Lexes, digests and parses {@code sql} in the default SQL mode: for the cold path, tools and tests. */
    public static Statement parse(String sql) {
        return parse(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT);
    }

    public static Statement parse(byte[] sql, SqlMode mode) {
        return parse(sql, mode, new TokenBuffer());
    }

    /** As {@link #parse(byte[], SqlMode)}, lexing into {@code tokens}, which the statement's spans index. */
    public static Statement parse(byte[] sql, SqlMode mode, TokenBuffer tokens) {
        new SqlLexer(mode).lex(sql, tokens);
        StatementDigest digest = new StatementDigest();
        digest.compute(tokens);
        return new SqlParser().parse(tokens, digest);
    }

    /** Routes on the leading keyword. */
    private static final class Dispatcher implements StatementReader {
        private final TokenCursor c;
        private final QueryParser queries;
        private final DmlParser dml;
        private final SessionParser session;
        private final UtilityParser utility;
        private final DdlParser ddl;

        Dispatcher(TokenCursor c) {
            this.c = c;
            this.queries = new QueryParser(c);
            this.dml = new DmlParser(c, queries);
            this.session = new SessionParser(c, queries);
            this.utility = new UtilityParser(c, queries);
            this.ddl = new DdlParser(c, queries, utility);
        }

        @Override
        public Statement read() {
            return statement();
        }

        Statement statement() {
            c.enter();
            try {
                return dispatch();
            } finally {
                c.leave();
            }
        }

        private Statement dispatch() {
            if (c.type() == TokenType.LPAREN) {
                return queries.queryExpression();
            }
            Keyword k = c.kw();
            if (k == null) {
                if (c.isWord("CHECKSUM")) {
                    return ddl.maintenance();
                }
                return otherByWord();
            }
            int start = c.pos;
            switch (k) {
                case SELECT:
                case WITH:
                    return queries.queryExpression();
                case INSERT:
                case REPLACE:
                    return dml.insert();
                case UPDATE:
                    return dml.update();
                case DELETE:
                    return dml.delete();
                case SET:
                    return session.set(utility);
                case BEGIN:
                case START:
                    if (k == Keyword.START && !c.isAt(1, Keyword.TRANSACTION)) {
                        return utility.other(start, StatementKind.OTHER, 2);
                    }
                    return session.begin();
                case COMMIT:
                case ROLLBACK:
                    return session.commitOrRollback();
                case SAVEPOINT:
                    return session.savepoint();
                case RELEASE:
                    return session.savepoint();
                case XA:
                    return session.xa();
                case USE:
                    return utility.use();
                case SHOW:
                    return utility.show();
                case DESCRIBE:
                case DESC:
                case EXPLAIN:
                    return utility.describe(this);
                case CREATE:
                    return ddl.create();
                case ALTER:
                    return ddl.alter();
                case DROP:
                    return ddl.drop();
                case TRUNCATE:
                    return ddl.truncate();
                case RENAME:
                    return ddl.rename();
                case ANALYZE:
                    if (c.isAt(1, Keyword.TABLE) || c.isAt(1, Keyword.NO_WRITE_TO_BINLOG) || c.isAt(1, Keyword.LOCAL)) {
                        return ddl.maintenance();
                    }
                    return utility.analyzeStatement(this);
                case OPTIMIZE:
                case CHECK:
                    return ddl.maintenance();
                case LOCK:
                    return utility.lockTables();
                case UNLOCK:
                    return utility.unlockTables();
                case PREPARE:
                    return utility.prepare();
                case EXECUTE:
                    return utility.execute();
                case DEALLOCATE:
                    return utility.deallocate();
                case CALL:
                    return utility.call();
                case DO:
                    return utility.doStatement();
                case LOAD:
                    return utility.load();
                case HANDLER:
                    return utility.handler();
                case FLUSH:
                    return utility.other(start, StatementKind.FLUSH, 2);
                case KILL:
                    return utility.kill();
                case GRANT:
                    return utility.other(start, StatementKind.GRANT, 1);
                case REVOKE:
                    return utility.other(start, StatementKind.REVOKE, 1);
                default:
                    return otherByWord();
            }
        }

        private Statement otherByWord() {
            int start = c.pos;
            if (!c.isAnyWord()) {
                throw c.error("expected a statement");
            }
            if (c.isWord("REPAIR")) {
                return ddl.maintenance();
            }
            if (c.isWord("INSTALL")) {
                return utility.other(start, StatementKind.INSTALL, 2);
            }
            if (c.isWord("UNINSTALL")) {
                return utility.other(start, StatementKind.UNINSTALL, 2);
            }
            return utility.other(start, StatementKind.OTHER, 2);
        }
    }
}
