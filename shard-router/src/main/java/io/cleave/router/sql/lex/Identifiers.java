package io.cleave.router.sql.lex;

/** Names as the server reads them from their tokens. */
public final class Identifiers {

    private Identifiers() {
    }

    /** {@code `a``b`} -> a`b, {@code "x"} and {@code 'x'} -> x; anything else as it is. */
    public static String unquote(String text) {
        if (text.length() >= 2) {
            char q = text.charAt(0);
            if ((q == '`' || q == '\'' || q == '"') && text.charAt(text.length() - 1) == q) {
                return text.substring(1, text.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
            }
        }
        return text;
    }

    /** A user variable token's name: {@code @x}, {@code @`x`}, {@code @'x'}, {@code @"x"} -> x. */
    public static String userVariable(String token) {
        return unquote(token.substring(1));
    }
}
