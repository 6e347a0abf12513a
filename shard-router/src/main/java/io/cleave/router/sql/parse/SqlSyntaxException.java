package io.cleave.router.sql.parse;

import io.cleave.router.sql.lex.TokenBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A statement the parser cannot read. {@link #getMessage()} is MySQL's text for error 1064
 * (SQLSTATE 42000), quoting up to 80 characters of the original statement from the failing
 * token (or "Query was empty", error 1065, when there are no tokens); {@link #detail()} says
 * what the parser expected, for logs.
 */
public final class SqlSyntaxException extends RuntimeException {

    public static final int ER_PARSE_ERROR = 1064;
    public static final int ER_EMPTY_QUERY = 1065;
    public static final String SQLSTATE = "42000";

    private final int tokenIndex;
    private final int line;
    private final String detail;

    SqlSyntaxException(TokenBuffer tokens, int tokenIndex, String detail) {
        this(tokens, tokenIndex, detail, null);
    }

    SqlSyntaxException(TokenBuffer tokens, int tokenIndex, String detail, Throwable cause) {
        super(tokens.size() == 0 ? "Query was empty" : mysqlMessage(tokens, tokenIndex), cause, false, false);
        this.tokenIndex = tokenIndex;
        this.line = lineOf(tokens, tokenIndex);
        this.detail = detail;
    }

    /** MySQL's error code: 1065 (ER_EMPTY_QUERY) for a statement with no tokens, else 1064 (ER_PARSE_ERROR). */
    public int errorCode() {
        return getMessage().equals("Query was empty") ? ER_EMPTY_QUERY : ER_PARSE_ERROR;
    }

    /** The token the parser failed at; {@code tokens.size()} when the statement ended too early. */
    public int tokenIndex() {
        return tokenIndex;
    }

    /** 1-based line of the failing token. */
    public int line() {
        return line;
    }

    /** What went wrong, in the parser's words (e.g. "expected FROM"). */
    public String detail() {
        return detail;
    }

    private static int positionOf(TokenBuffer tokens, int tokenIndex) {
        return tokenIndex < tokens.size() ? tokens.start(tokenIndex) : tokens.offset() + tokens.length();
    }

    private static int lineOf(TokenBuffer tokens, int tokenIndex) {
        int pos = positionOf(tokens, tokenIndex);
        byte[] src = tokens.source();
        int line = 1;
        for (int i = tokens.offset(); i < pos && i < src.length; i++) {
            if (src[i] == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String mysqlMessage(TokenBuffer tokens, int tokenIndex) {
        int pos = positionOf(tokens, tokenIndex);
        int end = tokens.offset() + tokens.length();
        String rest = new String(tokens.source(), pos, Math.max(0, end - pos), StandardCharsets.UTF_8);
        if (rest.codePointCount(0, rest.length()) > 80) {
            rest = rest.substring(0, rest.offsetByCodePoints(0, 80));
        }
        return "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version"
                + " for the right syntax to use near '" + rest + "' at line " + lineOf(tokens, tokenIndex);
    }
}
