package io.cleave.proxy.frontend;

import io.cleave.router.plan.Pin;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What connection-bound state a statement creates or releases, by name: the temporary tables of
 * CREATE/DROP TEMPORARY TABLE, the lock names of GET_LOCK()/RELEASE_LOCK(), the statement name
 * of PREPARE/DEALLOCATE PREPARE. Read from the statement's tokens when it is planned with a pin
 * (rare statements, never the hot path). A name that is not written out (a parameter, an
 * expression) leaves {@code complete} false: such state is only known gone when the session resets.
 *
 * @param releaseAll RELEASE_ALL_LOCKS()
 */
record PinNames(Pin pin, List<String> names, List<String> released, boolean releaseAll, boolean complete) {

    static final PinNames NONE = new PinNames(Pin.NONE, List.of(), List.of(), false, true);

    static PinNames of(Pin pin, TokenBuffer tokens) {
        switch (pin) {
            case TEMPORARY_TABLE:
                return tables(pin, tokens);
            case DROP_TEMPORARY_TABLE:
                return tables(pin, tokens);
            case NAMED_LOCK:
            case RELEASE_NAMED_LOCK:
                return locks(pin, tokens);
            case SQL_PREPARE:
                return word(pin, tokens, 1);
            case SQL_DEALLOCATE:
                return word(pin, tokens, 2);
            default:
                return new PinNames(pin, List.of(), List.of(), false, true);
        }
    }

    /** CREATE TEMPORARY TABLE [IF NOT EXISTS] t ... / DROP TEMPORARY TABLE [IF EXISTS] a, b. */
    private static PinNames tables(Pin pin, TokenBuffer tokens) {
        int i = 0;
        while (i < tokens.size() && !tokens.textEqualsIgnoreCase(i, "TABLE")) {
            i++;
        }
        i++;
        if (tokens.textEqualsIgnoreCase(i, "IF")) {
            i += tokens.textEqualsIgnoreCase(i + 1, "NOT") ? 3 : 2;
        }
        List<String> names = new ArrayList<>();
        boolean complete = true;
        while (i < tokens.size()) {
            if (i >= tokens.size() || !isName(tokens.type(i))) {
                complete = false;
                break;
            }
            // name, or schema.name
            StringBuilder name = new StringBuilder(unquote(tokens.text(i++)));
            if (tokens.type(i) == TokenType.DOT && i + 1 < tokens.size() && isName(tokens.type(i + 1))) {
                name.append('.').append(unquote(tokens.text(i + 1)));
                i += 2;
            }
            names.add(name.toString());
            if (pin == Pin.TEMPORARY_TABLE || tokens.type(i) != TokenType.COMMA) {
                break;
            }
            i++;
        }
        return pin == Pin.TEMPORARY_TABLE ? new PinNames(pin, names, List.of(), false, complete)
                : new PinNames(pin, List.of(), names, false, complete);
    }

    /** Every GET_LOCK('name', ...) and RELEASE_LOCK('name') with a literal name; RELEASE_ALL_LOCKS(). */
    private static PinNames locks(Pin pin, TokenBuffer tokens) {
        List<String> taken = new ArrayList<>();
        List<String> released = new ArrayList<>();
        boolean all = false;
        boolean complete = true;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            boolean get = tokens.textEqualsIgnoreCase(i, "GET_LOCK");
            boolean release = tokens.textEqualsIgnoreCase(i, "RELEASE_LOCK");
            if (tokens.textEqualsIgnoreCase(i, "RELEASE_ALL_LOCKS")) {
                all = true;
            }
            if ((get || release) && tokens.type(i + 1) == TokenType.LPAREN) {
                if (tokens.type(i + 2) == TokenType.STRING && tokens.bodyOffset(i + 2) == 0) {
                    // Lock names compare without regard to case.
                    String name = unquote(tokens.text(i + 2)).toLowerCase(Locale.ROOT);
                    (get ? taken : released).add(name);
                } else if (get) {
                    complete = false;
                }
            }
        }
        return new PinNames(pin, taken, released, all, complete);
    }

    /** PREPARE name FROM ... (word 1) / DEALLOCATE PREPARE name, DROP PREPARE name (word 2). */
    private static PinNames word(Pin pin, TokenBuffer tokens, int index) {
        if (index >= tokens.size() || !isName(tokens.type(index))) {
            return new PinNames(pin, List.of(), List.of(), false, false);
        }
        String name = unquote(tokens.text(index)).toLowerCase(Locale.ROOT);
        return pin == Pin.SQL_PREPARE ? new PinNames(pin, List.of(name), List.of(), false, true)
                : new PinNames(pin, List.of(), List.of(name), false, true);
    }

    private static boolean isName(TokenType t) {
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }

    /** `a``b` -> a`b, 'it''s' -> it's (enough to compare names written the same way). */
    private static String unquote(String text) {
        if (text.length() >= 2) {
            char q = text.charAt(0);
            if ((q == '`' || q == '\'' || q == '"') && text.charAt(text.length() - 1) == q) {
                String body = text.substring(1, text.length() - 1);
                return body.replace(String.valueOf(q) + q, String.valueOf(q));
            }
        }
        return text;
    }
}
