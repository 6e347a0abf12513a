package io.cleave.router.routine;

import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a {@link RoutineProfile} from a routine's body (as information_schema.ROUTINES holds it). */
public final class RoutineProfiler {

    private static final Set<String> WRITES = Set.of("INSERT", "UPDATE", "DELETE", "REPLACE", "TRUNCATE", "LOAD",
            "ALTER", "DROP", "CREATE", "RENAME", "PREPARE", "EXECUTE", "HANDLER", "GRANT", "REVOKE");
    private static final Set<String> TRANSACTION_CONTROL = Set.of("COMMIT", "ROLLBACK", "XA", "SAVEPOINT");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_$\\x{80}-\\x{FFFF}]+");

    private RoutineProfiler() {
    }

    public static RoutineProfile profile(String body, SqlMode mode) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(mode).lex(body.getBytes(StandardCharsets.UTF_8), tokens);
        Set<String> names = new LinkedHashSet<>();
        Set<String> variables = new LinkedHashSet<>();
        Set<String> procedures = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        boolean writes = false;
        boolean state = false;
        boolean transactions = false;
        int n = tokens.size();
        for (int i = 0; i < n; i++) {
            TokenType t = tokens.type(i);
            if (t == TokenType.KEYWORD || t == TokenType.IDENTIFIER) {
                String word = tokens.text(i).toUpperCase(Locale.ROOT);
                names.add(word.toLowerCase(Locale.ROOT));
                writes |= WRITES.contains(word);
                transactions |= TRANSACTION_CONTROL.contains(word) || word.equals("START") && is(tokens, i + 1, "TRANSACTION");
                state |= word.equals("TEMPORARY") || word.equals("GET_LOCK") || word.equals("PREPARE")
                        || word.equals("LOCK") && is(tokens, i + 1, "TABLES");
                if (word.equals("CALL")) {
                    procedures.add(qualifiedName(tokens, i + 1));
                } else if (tokens.type(i + 1) == TokenType.LPAREN) {
                    functions.add(tokens.type(i - 1) == TokenType.DOT && i >= 2 ? word(tokens, i - 2) + "." + word(tokens, i)
                            : word.toLowerCase(Locale.ROOT));
                }
            } else if (t == TokenType.QUOTED_IDENTIFIER) {
                names.add(Identifiers.unquote(tokens.text(i)).toLowerCase(Locale.ROOT));
            } else if (t == TokenType.STRING) {
                Matcher words = WORD.matcher(tokens.text(i));
                while (words.find()) {
                    names.add(words.group().toLowerCase(Locale.ROOT));
                }
            } else if (t == TokenType.USER_VARIABLE) {
                variables.add(Identifiers.userVariable(tokens.text(i)));
            }
        }
        return new RoutineProfile(names, writes, new ArrayList<>(variables), procedures, functions, state, transactions, true);
    }

    private static boolean is(TokenBuffer tokens, int i, String upper) {
        return tokens.type(i) != TokenType.EOF && tokens.textEqualsIgnoreCase(i, upper);
    }

    /** {@code name} or {@code schema.name} at token {@code i}, unquoted and in lower case. */
    private static String qualifiedName(TokenBuffer tokens, int i) {
        String first = word(tokens, i);
        if (tokens.type(i + 1) == TokenType.DOT) {
            return first + "." + word(tokens, i + 2);
        }
        return first;
    }

    private static String word(TokenBuffer tokens, int i) {
        if (tokens.type(i) == TokenType.EOF) {
            return "";
        }
        String text = tokens.text(i);
        return (tokens.type(i) == TokenType.QUOTED_IDENTIFIER ? Identifiers.unquote(text) : text).toLowerCase(Locale.ROOT);
    }
}
