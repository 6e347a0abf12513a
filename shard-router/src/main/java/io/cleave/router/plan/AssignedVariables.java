package io.cleave.router.plan;

import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;

/**
 * The user variables a statement assigns outside SET ({@code SELECT @n := n + 1},
 * {@code SELECT ... INTO @a, @b}, {@code CALL p(@out)}): the proxy reads them back from the connection afterwards, so
 * the session's next statement sees them whichever connection serves it. Found once per statement
 * shape, when it is planned (variable names are part of the digest).
 */
public final class AssignedVariables {

    private AssignedVariables() {
    }

    /** The names assigned, in order, each once (empty when none). */
    public static List<String> in(TokenBuffer tokens) {
        List<String> names = null;
        boolean into = false;
        // A procedure's OUT and INOUT parameters set the variables passed for them.
        boolean call = tokens.size() > 0 && tokens.textEqualsIgnoreCase(0, "CALL");
        int n = tokens.size();
        for (int i = 0; i < n; i++) {
            TokenType t = tokens.type(i);
            if (t == TokenType.USER_VARIABLE) {
                if (call || into || (i + 1 < n && tokens.type(i + 1) == TokenType.ASSIGN)) {
                    names = add(names, Identifiers.userVariable(tokens.text(i)));
                }
            } else if (t == TokenType.KEYWORD || t == TokenType.IDENTIFIER) {
                into = tokens.textEqualsIgnoreCase(i, "INTO");
            } else if (t != TokenType.COMMA) {
                into = false;
            }
        }
        return names == null ? List.of() : names;
    }

    private static List<String> add(List<String> names, String name) {
        List<String> out = names == null ? new ArrayList<>(2) : names;
        if (!out.contains(name)) {
            out.add(name);
        }
        return out;
    }
}
