package io.cleave.router.plan;

import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.Set;

/**
 * Reads that would show Cleave's own things, which clients do not see: the shard account's rows in
 * the grant tables (mysql.user, mysql.global_priv, ... and information_schema's privilege views),
 * its connections in information_schema.PROCESSLIST, and Cleave's schema in
 * information_schema.SCHEMATA (SHOW DATABASES is the default shard's answer less that row: see
 * the proxy's SchemaListing); and SHOW GRANTS FOR or SHOW CREATE USER of the shard account. The
 * proxy runs such a read itself, with conditions that leave those
 * rows out ({@link LocalQuery#FILTERED_READ}); the router only recognizes it, by name.
 */
final class HiddenRows {

    private static final Set<String> MYSQL_TABLES = Set.of("USER", "GLOBAL_PRIV", "DB", "TABLES_PRIV", "COLUMNS_PRIV",
            "PROCS_PRIV", "PROXIES_PRIV", "ROLES_MAPPING");
    private static final Set<String> INFORMATION_SCHEMA_TABLES = Set.of("USER_PRIVILEGES", "SCHEMA_PRIVILEGES",
            "TABLE_PRIVILEGES", "COLUMN_PRIVILEGES", "APPLICABLE_ROLES", "PROCESSLIST", "SCHEMATA");

    private HiddenRows() {
    }

    /**
     * Whether the statement reads one of those tables (schema-qualified), or is SHOW GRANTS FOR /
     * SHOW CREATE USER (the proxy refuses those for the shard account).
     */
    static boolean reads(TokenBuffer tokens) {
        if (tokens.textEqualsIgnoreCase(0, "SHOW")
                && (tokens.textEqualsIgnoreCase(1, "GRANTS") && tokens.textEqualsIgnoreCase(2, "FOR")
                || tokens.textEqualsIgnoreCase(1, "CREATE") && tokens.textEqualsIgnoreCase(2, "USER"))) {
            return true;
        }
        // In a query only: a GRANT on mysql.user reads nothing.
        boolean query = tokens.textEqualsIgnoreCase(0, "SELECT") || tokens.textEqualsIgnoreCase(0, "WITH")
                || tokens.size() > 0 && tokens.type(0) == TokenType.LPAREN;
        for (int i = 0; query && i + 2 < tokens.size(); i++) {
            if (tokens.type(i + 1) != TokenType.DOT) {
                continue;
            }
            String schema = name(tokens, i);
            if (schema == null) {
                continue;
            }
            String table = name(tokens, i + 2);
            if (table != null && (schema.equals("MYSQL") && MYSQL_TABLES.contains(table)
                    || schema.equals("INFORMATION_SCHEMA") && INFORMATION_SCHEMA_TABLES.contains(table))) {
                return true;
            }
        }
        return false;
    }

    private static String name(TokenBuffer tokens, int i) {
        TokenType t = tokens.type(i);
        if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
            return tokens.text(i).toUpperCase(java.util.Locale.ROOT);
        }
        if (t == TokenType.QUOTED_IDENTIFIER) {
            return Identifiers.unquote(tokens.text(i)).toUpperCase(java.util.Locale.ROOT);
        }
        return null;
    }
}
