package io.cleave.router.plan;

import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.Locale;

/**
 * Cleave keeps its own state in a schema of every shard (commit decisions, sequences): no client
 * may read, change or drop it, whatever its privileges. A statement that names that schema
 * (qualifying a table, routine or grant level with it, or as the database of USE, CREATE, ALTER,
 * DROP DATABASE and SHOW ... FROM) is refused with 1044 before it reaches a shard. Accounts
 * without privileges on it are refused by the shards too; this keeps accounts with global
 * privileges out of it as far as the statement's own text shows.
 */
final class ProtectedSchema {

    static final String NAME = "cleave";

    private ProtectedSchema() {
    }

    /** The refusal for a statement that names the schema, or null. */
    static Plan refusal(TokenBuffer tokens) {
        boolean show = tokens.size() > 0 && tokens.type(0) == TokenType.KEYWORD && tokens.text(0).equalsIgnoreCase("SHOW");
        for (int i = 0; i < tokens.size(); i++) {
            if (!isName(tokens, i)) {
                continue;
            }
            boolean qualifies = i + 1 < tokens.size() && tokens.type(i + 1) == TokenType.DOT
                    && (i == 0 || tokens.type(i - 1) != TokenType.DOT);
            String before = i > 0 && (tokens.type(i - 1) == TokenType.KEYWORD || tokens.type(i - 1) == TokenType.IDENTIFIER)
                    ? tokens.text(i - 1).toUpperCase(Locale.ROOT) : "";
            boolean database = isDatabaseWord(before) || before.equals("USE")
                    || before.equals("EXISTS") && (word(tokens, i - 3) || word(tokens, i - 4))
                    || show && (before.equals("FROM") || before.equals("IN"));
            if (qualifies || database) {
                return new Plan.Refuse(StatementKind.OTHER, 1044, "42000", "Access denied to database '" + NAME
                        + "': it holds Cleave's own state (commit decisions of cross-shard transactions, sequences),"
                        + " which no client may read, change or drop");
            }
        }
        return null;
    }

    private static boolean isDatabaseWord(String word) {
        return word.equals("DATABASE") || word.equals("SCHEMA");
    }

    /** Whether token {@code i} is DATABASE or SCHEMA (as in DROP DATABASE IF EXISTS x). */
    private static boolean word(TokenBuffer tokens, int i) {
        return i >= 0 && tokens.type(i) == TokenType.KEYWORD && isDatabaseWord(tokens.text(i).toUpperCase(Locale.ROOT));
    }

    private static boolean isName(TokenBuffer tokens, int i) {
        TokenType t = tokens.type(i);
        // Database names are case-sensitive on the shards (lower_case_table_names = 0): `Cleave` is another one.
        if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
            return tokens.text(i).equals(NAME);
        }
        return t == TokenType.QUOTED_IDENTIFIER && Identifiers.unquote(tokens.text(i)).equals(NAME);
    }
}
