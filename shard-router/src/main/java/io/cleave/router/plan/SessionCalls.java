package io.cleave.router.plan;

import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

/**
 * Calls of ROW_COUNT() and FOUND_ROWS() in a statement's text. Both read what the session's
 * previous statement left on its connection, which through the proxy is whichever pooled
 * connection ran it, since given to other clients: so the proxy writes the session's own values
 * in their place before the statement is planned, as the server reads them when the statement
 * starts. Only statements that evaluate them then are rewritten: a routine, trigger, event or
 * view body evaluates them later, on the shard, where they are right.
 */
public final class SessionCalls {

    private SessionCalls() {
    }

    /** Whether tokens {@code [0, end)} call ROW_COUNT() or FOUND_ROWS() in a statement that evaluates them when it runs. */
    public static boolean any(TokenBuffer tokens, int end) {
        return evaluatedAtOnce(tokens) && next(tokens, 0, end) >= 0;
    }

    /** The first token at or after {@code from} (before {@code end}) naming such a call, or -1. */
    public static int next(TokenBuffer tokens, int from, int end) {
        for (int i = Math.max(from, 0); i + 2 < end; i++) {
            if (tokens.type(i) == TokenType.IDENTIFIER && tokens.type(i + 1) == TokenType.LPAREN
                    && tokens.type(i + 2) == TokenType.RPAREN && (i == 0 || tokens.type(i - 1) != TokenType.DOT)
                    && function(tokens, i) != null) {
                return i;
            }
        }
        return -1;
    }

    /** The call named at token {@code i}: {@link LocalQuery#ROW_COUNT} or {@link LocalQuery#FOUND_ROWS}, else null. */
    public static LocalQuery function(TokenBuffer tokens, int i) {
        if (tokens.textEqualsIgnoreCase(i, "ROW_COUNT")) {
            return LocalQuery.ROW_COUNT;
        }
        return tokens.textEqualsIgnoreCase(i, "FOUND_ROWS") ? LocalQuery.FOUND_ROWS : null;
    }

    /** Statements whose expressions the server evaluates as they run (not a body kept for later). */
    private static boolean evaluatedAtOnce(TokenBuffer tokens) {
        if (tokens.size() == 0) {
            return false;
        }
        if (tokens.type(0) == TokenType.LPAREN) {
            return true;
        }
        for (String first : FIRST_WORDS) {
            if (tokens.textEqualsIgnoreCase(0, first)) {
                return true;
            }
        }
        return false;
    }

    private static final String[] FIRST_WORDS = {"SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "SET", "DO", "CALL",
            "WITH", "VALUES", "TABLE"};
}
