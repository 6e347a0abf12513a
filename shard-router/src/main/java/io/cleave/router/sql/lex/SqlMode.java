package io.cleave.router.sql.lex;

/**
 * What changes how a session's statements are tokenized: two parts of its sql_mode, and whether
 * its client character set lets multibyte text be split byte by byte.
 *
 * @param ansiQuotes          ANSI_QUOTES: {@code "x"} is an identifier, not a string
 * @param noBackslashEscapes  NO_BACKSLASH_ESCAPES: a backslash in a string is an ordinary byte
 * @param asciiOnly           the client's character set is not ASCII-safe (gbk, sjis, big5, cp932,
 *                            gb18030: the second byte of a character can be a quote or a backslash),
 *                            so only statements of ASCII bytes can be tokenized exactly
 */
public record SqlMode(boolean ansiQuotes, boolean noBackslashEscapes, boolean asciiOnly) {

    public static final SqlMode DEFAULT = new SqlMode(false, false, false);

    public SqlMode(boolean ansiQuotes, boolean noBackslashEscapes) {
        this(ansiQuotes, noBackslashEscapes, false);
    }

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
        return new SqlMode(ansi, noBackslash, false);
    }

    /** This mode for a client whose character set is {@code charset} (null: unknown, taken as unsafe). */
    public SqlMode withClientCharset(String charset) {
        return new SqlMode(ansiQuotes, noBackslashEscapes, !Charsets.isAsciiSafe(charset));
    }
}
