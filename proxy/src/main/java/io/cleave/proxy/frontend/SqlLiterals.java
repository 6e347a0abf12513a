package io.cleave.proxy.frontend;

/**
 * Names and values the proxy writes into its own statements to the shards (which run them with
 * the server's default sql_mode, so backslashes escape).
 */
final class SqlLiterals {

    private SqlLiterals() {
    }

    /** {@code s} as a quoted string literal. */
    static String string(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /** {@code s} as a back-quoted identifier. */
    static String identifier(String s) {
        return "`" + s.replace("`", "``") + "`";
    }
}
