package io.cleave.router.plan;

import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Connection-bound state a statement creates or releases ({@link Pin}), and where in its text the
 * names of that state are: found once when the statement is planned (statements sharing a digest
 * have the same tokens at the same indexes), named per execution by {@link #names}. A table or
 * statement name is written in the text; a lock name is a string literal, a value that differs
 * between executions of one plan.
 */
public record PinSpec(Pin pin, List<NameAt> taken, List<NameAt> released, boolean releaseAll, boolean complete) {

    public static final PinSpec NONE = unnamed(Pin.NONE);

    public PinSpec {
        taken = List.copyOf(taken);
        released = List.copyOf(released);
    }

    /** Where one name is written. */
    public sealed interface NameAt permits Words, Literal {
    }

    /** A name written as tokens: {@code name}, or {@code schema.name} (tokens first, first + 2). */
    public record Words(int first, boolean qualified) implements NameAt {
    }

    /** A name given as the string literal in a slot. */
    public record Literal(int slot) implements NameAt {
    }

    /** A pin whose names are not located (yet). */
    public static PinSpec unnamed(Pin pin) {
        return new PinSpec(pin, List.of(), List.of(), false, true);
    }

    /** The names {@code pin} takes or releases in the statement lexed into {@code tokens}. */
    static PinSpec locate(Pin pin, TokenBuffer tokens, StatementDigest digest) {
        switch (pin) {
            case TEMPORARY_TABLE:
            case DROP_TEMPORARY_TABLE:
                return tables(pin, tokens);
            case NAMED_LOCK:
            case RELEASE_NAMED_LOCK:
                return locks(pin, tokens, digest);
            case SQL_PREPARE:
                return word(pin, tokens, 1);
            case SQL_DEALLOCATE:
                return word(pin, tokens, 2);
            default:
                return unnamed(pin);
        }
    }

    /** The names of one execution: its tokens, and its values for lock names given as literals. */
    public PinNames names(TokenBuffer tokens, ParameterValues values) {
        if (pin == Pin.NONE) {
            return PinNames.NONE;
        }
        return new PinNames(pin, resolve(taken, tokens, values), resolve(released, tokens, values), releaseAll, complete);
    }

    private List<String> resolve(List<NameAt> at, TokenBuffer tokens, ParameterValues values) {
        List<String> out = new ArrayList<>(at.size());
        for (NameAt name : at) {
            out.add(resolve(name, tokens, values));
        }
        return out;
    }

    private String resolve(NameAt at, TokenBuffer tokens, ParameterValues values) {
        if (at instanceof Literal l) {
            // Lock names compare without regard to case.
            String value = values.text(l.slot());
            return value == null ? "" : value.toLowerCase(Locale.ROOT);
        }
        Words w = (Words) at;
        String name = Identifiers.unquote(tokens.text(w.first()));
        if (w.qualified()) {
            name = name + "." + Identifiers.unquote(tokens.text(w.first() + 2));
        }
        // Prepared statement names compare without regard to case; table names as written.
        return pin == Pin.SQL_PREPARE || pin == Pin.SQL_DEALLOCATE ? name.toLowerCase(Locale.ROOT) : name;
    }

    /**
     * CREATE TEMPORARY TABLE [IF NOT EXISTS] t ... / DROP TEMPORARY TABLE [IF EXISTS] a, b, and the same
     * of a temporary SEQUENCE (a table to the server).
     */
    private static PinSpec tables(Pin pin, TokenBuffer tokens) {
        int i = 0;
        while (i < tokens.size() && !tokens.textEqualsIgnoreCase(i, "TABLE") && !tokens.textEqualsIgnoreCase(i, "SEQUENCE")) {
            i++;
        }
        i++;
        if (tokens.textEqualsIgnoreCase(i, "IF")) {
            i += tokens.textEqualsIgnoreCase(i + 1, "NOT") ? 3 : 2;
        }
        List<NameAt> names = new ArrayList<>();
        boolean complete = true;
        while (i < tokens.size()) {
            if (!isName(tokens.type(i))) {
                complete = false;
                break;
            }
            boolean qualified = tokens.type(i + 1) == TokenType.DOT && i + 2 < tokens.size()
                    && isName(tokens.type(i + 2));
            names.add(new Words(i, qualified));
            i += qualified ? 3 : 1;
            if (pin == Pin.TEMPORARY_TABLE || tokens.type(i) != TokenType.COMMA) {
                break;
            }
            i++;
        }
        return pin == Pin.TEMPORARY_TABLE ? new PinSpec(pin, names, List.of(), false, complete)
                : new PinSpec(pin, List.of(), names, false, complete);
    }

    /** Every GET_LOCK('name', ...) and RELEASE_LOCK('name') with a literal name; RELEASE_ALL_LOCKS(). */
    private static PinSpec locks(Pin pin, TokenBuffer tokens, StatementDigest digest) {
        List<NameAt> taken = new ArrayList<>();
        List<NameAt> released = new ArrayList<>();
        boolean all = false;
        boolean complete = true;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            boolean get = tokens.textEqualsIgnoreCase(i, "GET_LOCK");
            boolean release = tokens.textEqualsIgnoreCase(i, "RELEASE_LOCK");
            if (tokens.textEqualsIgnoreCase(i, "RELEASE_ALL_LOCKS")) {
                all = true;
            }
            if ((get || release) && tokens.type(i + 1) == TokenType.LPAREN) {
                int slot = digest.slotOfToken(i + 2);
                if (tokens.type(i + 2) == TokenType.STRING && tokens.bodyOffset(i + 2) == 0 && slot >= 0) {
                    (get ? taken : released).add(new Literal(slot));
                } else if (get) {
                    complete = false;
                }
            }
        }
        return new PinSpec(pin, taken, released, all, complete);
    }

    /** PREPARE name FROM ... (word 1) / DEALLOCATE PREPARE name, DROP PREPARE name (word 2). */
    private static PinSpec word(Pin pin, TokenBuffer tokens, int index) {
        if (index >= tokens.size() || !isName(tokens.type(index))) {
            return new PinSpec(pin, List.of(), List.of(), false, false);
        }
        List<NameAt> name = List.of(new Words(index, false));
        return pin == Pin.SQL_PREPARE ? new PinSpec(pin, name, List.of(), false, true)
                : new PinSpec(pin, List.of(), name, false, true);
    }

    private static boolean isName(TokenType t) {
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }
}
