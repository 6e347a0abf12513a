package io.cleave.router.unique;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An ALTER TABLE of a sharded table that adds a global unique key (a PRIMARY KEY or UNIQUE key
 * leaving out the sharding column), as the proxy runs it: like CREATE UNIQUE INDEX, the key's
 * lookup is built from the rows once the shards added the index, and when the rows break the key
 * the index is dropped again. That is all or nothing only when whatever else the statement does
 * can be dropped again losing nothing: the other clauses may add indexes (dropped with the key)
 * and set ALGORITHM or LOCK; anything else (a column, a drop, a change of a column, a second
 * global key) is refused, naming the clause. A column defined UNIQUE or PRIMARY KEY (ADD, MODIFY,
 * CHANGE) that is not the sharding column is refused too: its key would be enforced per shard only.
 *
 * @param key     the global key added (one of {@code added}; null only with a refusal); its name as
 *                written, null when unnamed
 * @param added   every index the statement adds, in its order (the server names unnamed ones in
 *                that order), to drop should the key not be built
 * @param refusal why the statement may not run, or null
 */
public record GlobalKeyAlter(Ddl.KeyDef key, List<Ddl.KeyDef> added, String refusal) {

    /** What {@code alter} does with global unique keys of a table sharded by {@code shardingColumn}; null: nothing. */
    public static GlobalKeyAlter of(Ddl.AlterTable alter, String shardingColumn, TokenBuffer tokens) {
        Ddl.KeyDef key = null;
        List<Ddl.KeyDef> added = new ArrayList<>();
        String refusal = null;
        String other = null;
        String columnRefusal = null;
        String unreadable = null;
        for (Ddl.AlterClause clause : alter.clauses()) {
            String text = tokens.text(clause.span().first(), clause.span().end() - 1);
            Ddl.KeyDef adds = clause.addedKey();
            if (clause.addsKey() && adds == null) {
                if (unique(tokens, clause) && unreadable == null) {
                    unreadable = "ALTER TABLE " + alter.table().name() + ": the clause '" + text + "' adds a unique key"
                            + " whose columns the proxy cannot read, so it cannot tell whether the key leaves out the"
                            + " sharding column " + shardingColumn + " (add it with CREATE UNIQUE INDEX)";
                }
                other = other != null ? other : text;
            } else if (adds != null && isGlobal(adds, shardingColumn)) {
                if (key != null) {
                    refusal = refusal != null ? refusal : "ALTER TABLE " + alter.table().name() + " adds two unique keys"
                            + " that leave out the sharding column " + shardingColumn + " ('" + text + "' is the second):"
                            + " add them one per statement";
                }
                key = adds;
                added.add(adds);
            } else if (adds != null && (adds.name() != null || !adds.columns().isEmpty())) {
                added.add(adds);
            } else {
                String column = columnMadeUnique(tokens, clause);
                if (column != null && !column.equalsIgnoreCase(shardingColumn) && columnRefusal == null) {
                    columnRefusal = "ALTER TABLE " + alter.table().name() + ": '" + text + "' makes " + column + " a unique"
                            + " key, which leaves out the sharding column " + shardingColumn + ": define the column"
                            + " without it, then add the key with ALTER TABLE " + alter.table().name() + " ADD UNIQUE ("
                            + column + "), which builds its lookup across shards from the rows";
                }
                if (!isOption(tokens, clause) && other == null) {
                    other = text;
                }
            }
        }
        if (unreadable != null || columnRefusal != null) {
            return new GlobalKeyAlter(key, List.copyOf(added), unreadable != null ? unreadable : columnRefusal);
        }
        if (key == null) {
            return null;
        }
        if (refusal == null && ignores(alter, tokens)) {
            // Each shard would delete its own rows that break the key; those breaking it across shards would stay.
            refusal = "ALTER IGNORE TABLE " + alter.table().name() + " adds the unique key " + describe(key) + ", which"
                    + " leaves out the sharding column " + shardingColumn + ": IGNORE, which deletes the rows that break"
                    + " the key, is not supported for such a key (delete them, then add the key without IGNORE)";
        }
        if (refusal == null && other != null) {
            refusal = "ALTER TABLE " + alter.table().name() + " adds the unique key " + describe(key) + ", which leaves out"
                    + " the sharding column " + shardingColumn + ", together with '" + other + "': should the rows break"
                    + " the key, that could not be undone losing nothing; run the key's clause as a statement of its own";
        }
        return new GlobalKeyAlter(key, List.copyOf(added), refusal);
    }

    /**
     * The name the server gives an added key: its own, PRIMARY for a primary key, else its first
     * column's, with _2, _3, ... when an index of the table (in {@code taken}, lower case) has it.
     * {@code taken} gets the name.
     */
    public static String serverName(Ddl.KeyDef key, Set<String> taken) {
        String name = key.name();
        if (name == null) {
            String base = key.columns().get(0);
            name = base;
            for (int i = 2; taken.contains(name.toLowerCase(Locale.ROOT)) || name.equalsIgnoreCase("PRIMARY"); i++) {
                name = base + "_" + i;
            }
        }
        taken.add(name.toLowerCase(Locale.ROOT));
        return name;
    }

    private static boolean isGlobal(Ddl.KeyDef key, String shardingColumn) {
        return (key.type() == Ddl.KeyType.PRIMARY || key.type() == Ddl.KeyType.UNIQUE) && key.expressions().isEmpty()
                && !key.columns().isEmpty() && key.columns().stream().noneMatch(c -> c.equalsIgnoreCase(shardingColumn));
    }

    /**
     * The column an {@code ADD|MODIFY|CHANGE [COLUMN]} clause defines with a {@code UNIQUE} or
     * {@code PRIMARY KEY} attribute, or null; a parenthesized list of columns with one is named by
     * its first. The key such a clause adds is no clause of its own, but a key all the same.
     */
    private static String columnMadeUnique(TokenBuffer tokens, Ddl.AlterClause clause) {
        int i = clause.span().first();
        int end = clause.span().end();
        boolean change = tokens.isKeyword(i, Keyword.CHANGE);
        if (!tokens.isKeyword(i, Keyword.ADD) && !change && !tokens.textEqualsIgnoreCase(i, "MODIFY")) {
            return null;
        }
        i++;
        if (tokens.isKeyword(i, Keyword.COLUMN)) {
            i++;
        }
        boolean list = tokens.type(i) == TokenType.LPAREN;
        boolean unique = false;
        boolean generated = false;
        int depth = 0;
        for (int k = i; k < end; k++) {
            TokenType t = tokens.type(k);
            depth += t == TokenType.LPAREN ? 1 : t == TokenType.RPAREN ? -1 : 0;
            if ((depth == 0 || list && depth == 1) && (tokens.isKeyword(k, Keyword.UNIQUE)
                    || tokens.isKeyword(k, Keyword.PRIMARY) && tokens.isKeyword(k + 1, Keyword.KEY))) {
                unique = true;
            }
            generated |= tokens.textEqualsIgnoreCase(k, "AUTO_INCREMENT");
        }
        // An AUTO_INCREMENT column's ids are unique across shards as each shard generates them (its own
        // offset, stepping by the shard count): its key stays enforced by each shard, as before.
        if (!unique || generated) {
            return null;
        }
        i += list ? 1 : 0;
        while (tokens.isKeyword(i, Keyword.IF) || tokens.isKeyword(i, Keyword.NOT) || tokens.isKeyword(i, Keyword.EXISTS)) {
            i++;
        }
        return Identifiers.unquote(tokens.text(change && !list ? i + 1 : i));
    }

    /** Whether the clause says UNIQUE or PRIMARY KEY anywhere. */
    private static boolean unique(TokenBuffer tokens, Ddl.AlterClause clause) {
        for (int i = clause.span().first(); i < clause.span().end(); i++) {
            if (tokens.isKeyword(i, Keyword.UNIQUE) || tokens.isKeyword(i, Keyword.PRIMARY)) {
                return true;
            }
        }
        return false;
    }

    /** {@code ALTER [ONLINE] IGNORE TABLE}. */
    private static boolean ignores(Ddl.AlterTable alter, TokenBuffer tokens) {
        for (int i = alter.span().first(); i < alter.body().first(); i++) {
            if (tokens.textEqualsIgnoreCase(i, "TABLE")) {
                return false;
            }
            if (tokens.textEqualsIgnoreCase(i, "IGNORE")) {
                return true;
            }
        }
        return false;
    }

    /** {@code ALGORITHM [=] x} and {@code LOCK [=] x}: how the server alters, not what. */
    private static boolean isOption(TokenBuffer tokens, Ddl.AlterClause clause) {
        int first = clause.span().first();
        return clause.span().end() - first <= 3
                && (tokens.textEqualsIgnoreCase(first, "ALGORITHM") || tokens.textEqualsIgnoreCase(first, "LOCK"));
    }

    private static String describe(Ddl.KeyDef key) {
        return (key.name() == null ? "" : key.name() + " ") + "(" + String.join(", ", key.columns()) + ")";
    }
}
