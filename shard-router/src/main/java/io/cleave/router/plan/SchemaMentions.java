package io.cleave.router.plan;

import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.Locale;
import java.util.function.Predicate;

/**
 * Where a statement's text names a database: qualifying a table, routine or grant level with it, or as the database
 * of USE, CREATE, ALTER, DROP DATABASE and SHOW ... FROM. Read from the tokens alone (no parse), so it serves
 * statements the parser does not know too. Database names are compared exactly, as the shards do on Linux
 * ({@code lower_case_table_names = 0}: {@code Shop} is another database than {@code shop}).
 */
public final class SchemaMentions {

    private SchemaMentions() {
    }

    /**
     * The first database {@code tokens} name that {@code wanted} accepts, or null. With {@code exceptDrop}, the
     * database a DROP DATABASE (or SCHEMA) statement drops does not count.
     */
    public static String first(TokenBuffer tokens, Predicate<String> wanted, boolean exceptDrop) {
        boolean show = keyword(tokens, 0, "SHOW");
        boolean drop = exceptDrop && keyword(tokens, 0, "DROP") && isDatabaseWord(tokens, 1);
        for (int i = 0; i < tokens.size(); i++) {
            String name = name(tokens, i);
            if (name == null || !wanted.test(name)) {
                continue;
            }
            boolean qualifies = i + 1 < tokens.size() && tokens.type(i + 1) == TokenType.DOT
                    && (i == 0 || tokens.type(i - 1) != TokenType.DOT);
            String before = i > 0 && (tokens.type(i - 1) == TokenType.KEYWORD || tokens.type(i - 1) == TokenType.IDENTIFIER)
                    ? tokens.text(i - 1).toUpperCase(Locale.ROOT) : "";
            boolean database = isDatabaseWord(before) || before.equals("USE")
                    || before.equals("EXISTS") && (isDatabaseWord(tokens, i - 3) || isDatabaseWord(tokens, i - 4))
                    || show && (before.equals("FROM") || before.equals("IN"));
            if (database && drop && (i == 2 || i == 4)) {
                // DROP DATABASE name, DROP DATABASE IF EXISTS name.
                continue;
            }
            if (qualifies || database) {
                return name;
            }
        }
        return null;
    }

    private static boolean keyword(TokenBuffer tokens, int i, String word) {
        return tokens.size() > i && tokens.type(i) == TokenType.KEYWORD && tokens.text(i).equalsIgnoreCase(word);
    }

    private static boolean isDatabaseWord(String word) {
        return word.equals("DATABASE") || word.equals("SCHEMA");
    }

    /** Whether token {@code i} is DATABASE or SCHEMA (as in DROP DATABASE IF EXISTS x). */
    private static boolean isDatabaseWord(TokenBuffer tokens, int i) {
        return i >= 0 && i < tokens.size() && tokens.type(i) == TokenType.KEYWORD
                && isDatabaseWord(tokens.text(i).toUpperCase(Locale.ROOT));
    }

    /** Token {@code i} as a name (bare or quoted), or null when it is none. */
    private static String name(TokenBuffer tokens, int i) {
        TokenType t = tokens.type(i);
        if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
            return tokens.text(i);
        }
        return t == TokenType.QUOTED_IDENTIFIER ? Identifiers.unquote(tokens.text(i)) : null;
    }
}
