package io.cleave.router.ddl;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;

/**
 * The statement that undoes a DDL on a shard where it succeeded, when there is one that loses
 * nothing: a CREATE of something that did not exist (not OR REPLACE, not IF NOT EXISTS, which may
 * have done nothing) is dropped again; ALTER TABLE ... ADD of one column or index drops it; a
 * RENAME is renamed back. A DROP, TRUNCATE or any other change has none: its shards stay as they
 * are, and the difference is recorded for {@code cleave repair}.
 */
public final class DdlInverse {

    private DdlInverse() {
    }

    /** The undoing statement, or null when the DDL has none. */
    public static String of(Ddl ddl, TokenBuffer tokens) {
        int first = ddl.span().first();
        if (words(tokens, first, first + 3).contains("OR REPLACE") || hasIfNotExists(tokens, ddl)) {
            return null;
        }
        if (ddl instanceof Ddl.CreateTable ct) {
            return ct.temporary() ? null : "DROP TABLE " + quoted(ct.table());
        }
        if (ddl instanceof Ddl.Database db && db.kind() == StatementKind.CREATE_DATABASE) {
            return "DROP DATABASE " + quoted(db.name().value());
        }
        if (ddl instanceof Ddl.CreateIndex ci && ci.name() != null) {
            return "DROP INDEX " + quoted(ci.name().value()) + " ON " + quoted(ci.table());
        }
        if (ddl instanceof Ddl.Sequence seq && seq.kind() == StatementKind.CREATE_SEQUENCE && !seq.temporary()) {
            return "DROP SEQUENCE " + quoted(seq.tables().get(0));
        }
        if (ddl instanceof Ddl.ObjectDdl object && object.kind().name().startsWith("CREATE_")) {
            return "DROP " + object.kind().name().substring("CREATE_".length()) + " " + quoted(object.names().get(0));
        }
        if (ddl instanceof Ddl.RenameTable rename) {
            List<String> back = new ArrayList<>();
            for (int i = rename.from().size() - 1; i >= 0; i--) {
                back.add(quoted(rename.to().get(i)) + " TO " + quoted(rename.from().get(i)));
            }
            return "RENAME TABLE " + String.join(", ", back);
        }
        if (ddl instanceof Ddl.AlterTable alter) {
            return alterInverse(alter, tokens);
        }
        return null;
    }

    /** ALTER TABLE t with one clause: ADD [COLUMN] c ..., ADD {INDEX|KEY|UNIQUE [INDEX|KEY]} i (...), RENAME [TO|AS] x. */
    private static String alterInverse(Ddl.AlterTable alter, TokenBuffer tokens) {
        int i = alter.body().first();
        int end = alter.body().end();
        if (i >= end || topLevelComma(tokens, i, end)) {
            return null;
        }
        if (alter.renameTo() != null) {
            return is(tokens, i, "RENAME") ? "RENAME TABLE " + quoted(alter.renameTo()) + " TO " + quoted(alter.table())
                    : null;
        }
        if (!is(tokens, i, "ADD")) {
            return null;
        }
        i++;
        if (is(tokens, i, "UNIQUE")) {
            i++;
            if (is(tokens, i, "INDEX") || is(tokens, i, "KEY")) {
                i++;
            }
            return name(tokens, i) == null ? null : "ALTER TABLE " + quoted(alter.table()) + " DROP INDEX " + name(tokens, i);
        }
        if (is(tokens, i, "INDEX") || is(tokens, i, "KEY")) {
            i++;
            return name(tokens, i) == null ? null : "ALTER TABLE " + quoted(alter.table()) + " DROP INDEX " + name(tokens, i);
        }
        if (is(tokens, i, "COLUMN")) {
            i++;
        }
        if (is(tokens, i, "IF") || tokens.type(i) == TokenType.LPAREN || isClauseWord(tokens, i)) {
            return null;
        }
        String column = name(tokens, i);
        return column == null ? null : "ALTER TABLE " + quoted(alter.table()) + " DROP COLUMN " + column;
    }

    private static boolean isClauseWord(TokenBuffer tokens, int i) {
        for (String w : List.of("PRIMARY", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL", "PARTITION", "CHECK",
                "PERIOD", "SYSTEM")) {
            if (is(tokens, i, w)) {
                return true;
            }
        }
        return false;
    }

    /** The name at token {@code i} as a backquoted identifier, or null when no name stands there. */
    private static String name(TokenBuffer tokens, int i) {
        TokenType t = tokens.type(i);
        if (t == TokenType.QUOTED_IDENTIFIER && tokens.text(i).startsWith("`")) {
            return tokens.text(i);
        }
        if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
            return "`" + tokens.text(i).replace("`", "``") + "`";
        }
        return null;
    }

    private static boolean topLevelComma(TokenBuffer tokens, int from, int end) {
        int depth = 0;
        for (int i = from; i < end; i++) {
            TokenType t = tokens.type(i);
            if (t == TokenType.LPAREN) {
                depth++;
            } else if (t == TokenType.RPAREN) {
                depth--;
            } else if (t == TokenType.COMMA && depth == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasIfNotExists(TokenBuffer tokens, Ddl ddl) {
        int end = Math.min(ddl.span().end(), ddl.span().first() + 12);
        for (int i = ddl.span().first(); i + 2 < end; i++) {
            if (is(tokens, i, "IF") && is(tokens, i + 1, "NOT") && is(tokens, i + 2, "EXISTS")) {
                return true;
            }
        }
        return false;
    }

    private static String words(TokenBuffer tokens, int from, int end) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < end && i < tokens.size(); i++) {
            sb.append(i > from ? " " : "").append(tokens.text(i).toUpperCase(java.util.Locale.ROOT));
        }
        return sb.toString();
    }

    private static boolean is(TokenBuffer tokens, int i, String upper) {
        TokenType t = tokens.type(i);
        return (t == TokenType.KEYWORD || t == TokenType.IDENTIFIER) && tokens.textEqualsIgnoreCase(i, upper);
    }

    private static String quoted(TableName name) {
        return name.schema() == null ? quoted(name.name()) : quoted(name.schema()) + "." + quoted(name.name());
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
