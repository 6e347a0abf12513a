package io.cleave.router.sql.lex;

/** Why the lexer produced an {@link TokenType#ERROR} token. */
public enum LexError {
    UNTERMINATED_STRING("unterminated string literal"),
    UNTERMINATED_IDENTIFIER("unterminated quoted identifier"),
    UNTERMINATED_COMMENT("unterminated comment"),
    /** A byte from 0x80 up while the client's character set is not ASCII-safe ({@link SqlMode#asciiOnly()}). */
    UNSAFE_CHARSET("non-ASCII text in a character set that is not ASCII-safe");

    private static final LexError[] VALUES = values();

    private final String message;

    LexError(String message) {
        this.message = message;
    }

    public String message() {
        return message;
    }

    static LexError of(int ordinal) {
        return VALUES[ordinal];
    }
}
