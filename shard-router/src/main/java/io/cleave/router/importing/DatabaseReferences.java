package io.cleave.router.importing;

import java.util.regex.Pattern;

/**
 * Whether SQL text names a database as a qualifier ({@code shop.items}, {@code `shop`.`items`}, {@code "shop".items}
 * under ANSI_QUOTES, {@code shop . items}), anywhere in it: string literals included, since a routine may run them as
 * SQL (PREPARE ... FROM '...'). Read from the text alone, without parsing, so it reads the definitions the server
 * stores and bodies the parser does not know. Letter case is ignored: a false alarm (a {@code Shop} that is another
 * database, a comment) is better than a reader missed.
 */
public final class DatabaseReferences {

    private final Pattern qualifier;

    private DatabaseReferences(Pattern qualifier) {
        this.qualifier = qualifier;
    }

    /** The matcher for {@code database}, exactly as the shards name it. */
    public static DatabaseReferences of(String database) {
        String bare = "(?<![\\p{L}\\p{N}_$`\"])" + Pattern.quote(database);
        String backticks = "`" + Pattern.quote(database.replace("`", "``")) + "`";
        String quotes = "\"" + Pattern.quote(database.replace("\"", "\"\"")) + "\"";
        return new DatabaseReferences(Pattern.compile("(?:" + bare + "|" + backticks + "|" + quotes + ")\\s*\\.",
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
    }

    /** Whether {@code sql} names the database as a qualifier (false for null). */
    public boolean namedIn(String sql) {
        return sql != null && qualifier.matcher(sql).find();
    }
}
