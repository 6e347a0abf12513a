package io.cleave.router.sql.lex;

/**
 * The parts of the session's sql_mode that change how statements are tokenized.
 *
 * @param ansiQuotes          ANSI_QUOTES: {@code "x"} is an identifier, not a string
 * @param noBackslashEscapes  NO_BACKSLASH_ESCAPES: a backslash in a string is an ordinary byte
 */
public record SqlMode(boolean ansiQuotes, boolean noBackslashEscapes) {

    public static final SqlMode DEFAULT = new SqlMode(false, false);

    /** Reads the two flags from a sql_mode value such as {@code "ANSI_QUOTES,STRICT_TRANS_TABLES"}. */
    public static SqlMode fromSqlMode(String sqlMode) {
        boolean ansi = false;
        boolean noBackslash = false;
        for (String part : sqlMode.split(",")) {
            String p = part.trim();
            // ANSI is a combination mode that includes ANSI_QUOTES.
            if (p.equalsIgnoreCase("ANSI_QUOTES") || p.equalsIgnoreCase("ANSI")) {
                ansi = true;
            } else if (p.equalsIgnoreCase("NO_BACKSLASH_ESCAPES")) {
                noBackslash = true;
            }
        }
        return new SqlMode(ansi, noBackslash);
    }
}
