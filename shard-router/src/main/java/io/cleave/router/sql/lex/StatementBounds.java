package io.cleave.router.sql.lex;

import java.util.Arrays;

/**
 * Where a statement ends in a text of several: at the first semicolon outside every compound
 * statement. A stored program's body ({@code CREATE PROCEDURE p() BEGIN ...; ...; END}) and
 * MariaDB's compound statements outside one ({@code BEGIN NOT ATOMIC ... END}, {@code IF ... END
 * IF}, loops) hold semicolons of their own, as the server reads them.
 *
 * <p>A block opens at {@code BEGIN} (at the top level only as {@code BEGIN NOT ATOMIC}: a bare
 * BEGIN starts a transaction there), at {@code CASE} (a CASE expression closes with END too), and
 * at {@code IF}, {@code LOOP}, {@code WHILE}, {@code REPEAT} or {@code FOR} where a statement
 * starts (elsewhere they are functions, {@code IF EXISTS} or {@code FOR UPDATE}); it closes at
 * {@code END} (with the block's word after it, where it has one). A statement starts at the
 * beginning, after a semicolon inside a block, after {@code BEGIN}, {@code THEN} and {@code ELSE}
 * of IF and CASE statements, {@code DO} of WHILE and FOR, {@code LOOP}, {@code REPEAT}, a label,
 * a handler's conditions, and where a stored program's header ends. Misreading the end can only
 * split a text too early (its pieces then fail to parse or are refused), never join two
 * statements: a block opens only where nothing else could stand.
 */
public final class StatementBounds {

    private enum Block { BEGIN, IF, CASE_STATEMENT, CASE_EXPRESSION, LOOP, WHILE, REPEAT, FOR }

    private StatementBounds() {
    }

    /** The index of the semicolon that ends the statement starting at token {@code first}, or {@code tokens.size()}. */
    public static int end(TokenBuffer tokens, int first) {
        int n = tokens.size();
        int body = bodyStart(tokens, first);
        boolean program = body >= 0;
        int i = program ? body : first;
        boolean statementStart = true;
        Block[] stack = new Block[8];
        int depth = 0;
        while (i < n) {
            TokenType type = tokens.type(i);
            if (type == TokenType.SEMICOLON) {
                if (depth == 0) {
                    return i;
                }
                statementStart = true;
                i++;
                continue;
            }
            if (type != TokenType.KEYWORD && type != TokenType.IDENTIFIER) {
                statementStart = false;
                i++;
                continue;
            }
            if (statementStart && tokens.type(i + 1) == TokenType.COLON && tokens.type(i) == TokenType.IDENTIFIER) {
                i += 2; // a label
                continue;
            }
            Block top = depth > 0 ? stack[depth - 1] : null;
            if (word(tokens, i, "END") && top != null) {
                depth--;
                if (closingWord(tokens, i + 1)) {
                    i++;
                }
                statementStart = false;
                i++;
                continue;
            }
            Block opens = null;
            int width = 1;
            if (word(tokens, i, "BEGIN")) {
                if (program || depth > 0) {
                    opens = Block.BEGIN;
                } else if (statementStart && word(tokens, i + 1, "NOT") && word(tokens, i + 2, "ATOMIC")) {
                    opens = Block.BEGIN;
                    width = 3;
                }
            } else if (word(tokens, i, "CASE")) {
                opens = statementStart ? Block.CASE_STATEMENT : Block.CASE_EXPRESSION;
            } else if (statementStart) {
                opens = word(tokens, i, "IF") ? Block.IF : word(tokens, i, "LOOP") ? Block.LOOP
                        : word(tokens, i, "WHILE") ? Block.WHILE : word(tokens, i, "REPEAT") ? Block.REPEAT
                        : word(tokens, i, "FOR") ? Block.FOR : null;
            }
            if (opens != null) {
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = opens;
                statementStart = opens == Block.BEGIN || opens == Block.LOOP || opens == Block.REPEAT;
                i += width;
                continue;
            }
            if ((word(tokens, i, "THEN") || word(tokens, i, "ELSE"))
                    && (top == Block.IF || top == Block.CASE_STATEMENT)) {
                statementStart = true;
            } else if (word(tokens, i, "DO") && (top == Block.WHILE || top == Block.FOR)) {
                statementStart = true;
            } else if (word(tokens, i, "HANDLER") && word(tokens, i + 1, "FOR") && depth > 0) {
                i = afterHandlerConditions(tokens, i + 2);
                statementStart = true;
                continue;
            } else {
                statementStart = false;
            }
            i++;
        }
        return n;
    }

    /**
     * Where the body of a stored program created by the statement at {@code first} starts, or -1
     * when it creates none: after a procedure's or function's parameters, return type and
     * characteristics, a trigger's FOR EACH ROW (and FOLLOWS or PRECEDES), an event's DO.
     */
    static int bodyStart(TokenBuffer tokens, int first) {
        if (!word(tokens, first, "CREATE")) {
            return -1;
        }
        int i = first + 1;
        if (word(tokens, i, "OR") && word(tokens, i + 1, "REPLACE")) {
            i += 2;
        }
        while (true) {
            if (word(tokens, i, "DEFINER") && tokens.type(i + 1) == TokenType.EQ) {
                i = afterUser(tokens, i + 2);
            } else if (word(tokens, i, "AGGREGATE")) {
                i++;
            } else {
                break;
            }
        }
        int n = tokens.size();
        if (word(tokens, i, "PROCEDURE") || word(tokens, i, "FUNCTION")) {
            while (i < n && tokens.type(i) != TokenType.LPAREN) {
                i++;
            }
            i = afterParentheses(tokens, i);
            return afterCharacteristics(tokens, i);
        }
        if (word(tokens, i, "TRIGGER")) {
            for (; i < n; i++) {
                if (word(tokens, i, "FOR") && word(tokens, i + 1, "EACH") && word(tokens, i + 2, "ROW")) {
                    i += 3;
                    return word(tokens, i, "FOLLOWS") || word(tokens, i, "PRECEDES") ? i + 2 : i;
                }
            }
            return -1;
        }
        if (word(tokens, i, "EVENT")) {
            for (; i < n; i++) {
                if (word(tokens, i, "DO")) {
                    return i + 1;
                }
            }
        }
        return -1;
    }

    private static int afterUser(TokenBuffer tokens, int i) {
        if (word(tokens, i, "CURRENT_USER")) {
            return tokens.type(i + 1) == TokenType.LPAREN ? i + 3 : i + 1;
        }
        i++; // 'user' or user
        if (tokens.type(i) == TokenType.USER_VARIABLE) {
            return i + 1; // @'host' lexed as one token
        }
        if (tokens.type(i) == TokenType.AT) {
            return i + 2;
        }
        return i;
    }

    private static int afterParentheses(TokenBuffer tokens, int i) {
        int depth = 0;
        int n = tokens.size();
        for (; i < n; i++) {
            if (tokens.type(i) == TokenType.LPAREN) {
                depth++;
            } else if (tokens.type(i) == TokenType.RPAREN && --depth == 0) {
                return i + 1;
            }
        }
        return n;
    }

    /** Past a function's RETURNS type and a routine's characteristics (COMMENT, LANGUAGE SQL, DETERMINISTIC, ...). */
    private static int afterCharacteristics(TokenBuffer tokens, int i) {
        while (i < tokens.size()) {
            if (word(tokens, i, "RETURNS")) {
                i += 2;
                if (tokens.type(i) == TokenType.LPAREN) {
                    i = afterParentheses(tokens, i);
                }
            } else if (word(tokens, i, "COMMENT")) {
                i += 2;
            } else if (word(tokens, i, "LANGUAGE") || word(tokens, i, "CONTAINS") || word(tokens, i, "NO")
                    || word(tokens, i, "CHARSET") || word(tokens, i, "COLLATE")
                    || word(tokens, i, "NOT") && word(tokens, i + 1, "DETERMINISTIC")) {
                i += 2;
            } else if (word(tokens, i, "CHARACTER") && word(tokens, i + 1, "SET")
                    || word(tokens, i, "READS") || word(tokens, i, "MODIFIES")
                    || word(tokens, i, "SQL") && word(tokens, i + 1, "SECURITY")) {
                i += 3;
            } else if (word(tokens, i, "DETERMINISTIC") || word(tokens, i, "UNSIGNED") || word(tokens, i, "SIGNED")
                    || word(tokens, i, "ZEROFILL") || word(tokens, i, "BINARY") || word(tokens, i, "ASCII")
                    || word(tokens, i, "UNICODE")) {
                i++;
            } else {
                return i;
            }
        }
        return i;
    }

    /** Past a handler's conditions: SQLEXCEPTION, SQLWARNING, NOT FOUND, SQLSTATE [VALUE] '...', codes and names. */
    private static int afterHandlerConditions(TokenBuffer tokens, int i) {
        while (i < tokens.size()) {
            if (word(tokens, i, "SQLSTATE")) {
                i += word(tokens, i + 1, "VALUE") ? 3 : 2;
            } else if (word(tokens, i, "NOT") && word(tokens, i + 1, "FOUND")) {
                i += 2;
            } else {
                i++;
            }
            if (tokens.type(i) != TokenType.COMMA) {
                return i;
            }
            i++;
        }
        return i;
    }

    private static boolean closingWord(TokenBuffer tokens, int i) {
        return word(tokens, i, "IF") || word(tokens, i, "CASE") || word(tokens, i, "LOOP") || word(tokens, i, "WHILE")
                || word(tokens, i, "REPEAT") || word(tokens, i, "FOR");
    }

    private static boolean word(TokenBuffer tokens, int i, String upper) {
        TokenType t = tokens.type(i);
        return (t == TokenType.KEYWORD || t == TokenType.IDENTIFIER) && tokens.textEqualsIgnoreCase(i, upper);
    }
}
