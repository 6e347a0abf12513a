package io.cleave.router.sql.lex;

/**
 * What a token is. Literal types keep the spelling MySQL gives them ({@link #INTEGER} vs
 * {@link #DECIMAL} vs {@link #FLOAT}) because the value decoders and the digest treat them apart.
 * Multi-character operators each have their own type so the parser never looks at bytes.
 */
public enum TokenType {
    /** Unquoted identifier that is not a keyword (or any word written right after {@code ident.}). */
    IDENTIFIER,
    /** {@code `name`}, or {@code "name"} in ANSI_QUOTES mode. */
    QUOTED_IDENTIFIER,
    /** A word from {@link Keyword}; which one is in {@link TokenBuffer#keyword(int)}. */
    KEYWORD,
    /** {@code '...'} or {@code "..."}, possibly with an introducer ({@code _utf8mb4'..'}, {@code N'..'}). */
    STRING,
    /** Digits only. */
    INTEGER,
    /** Digits with a decimal point and no exponent. */
    DECIMAL,
    /** A number with an exponent. */
    FLOAT,
    /** {@code X'0A'} or {@code 0x0A}, possibly with an introducer. */
    HEX,
    /** {@code b'01'} or {@code 0b01}, possibly with an introducer. */
    BIT,
    /** {@code ?}: a client parameter of a prepared statement. */
    PLACEHOLDER,
    /** {@code @name}, {@code @`name`}, {@code @'name'}. */
    USER_VARIABLE,
    /** {@code @@name}, {@code @@session.name}, {@code @@global.name}, ... */
    SYSTEM_VARIABLE,
    /** An optimizer hint comment {@code /*+ ... *}{@code /} right after SELECT, INSERT, REPLACE, UPDATE or DELETE. */
    HINT,

    LPAREN, RPAREN, COMMA, DOT, SEMICOLON, COLON, LBRACE, RBRACE, AT,
    /** {@code =} */
    EQ,
    /** {@code <=>} */
    NULL_SAFE_EQ,
    /** {@code <>} or {@code !=} */
    NE,
    LT, LE, GT, GE,
    /** {@code :=} */
    ASSIGN,
    /** {@code ||} */
    PIPE_PIPE,
    /** {@code &&} */
    AMP_AMP,
    /** {@code <<} */
    SHIFT_LEFT,
    /** {@code >>} */
    SHIFT_RIGHT,
    /** {@code ->} */
    ARROW,
    /** {@code ->>} */
    DOUBLE_ARROW,
    PLUS, MINUS, STAR, SLASH, PERCENT, CARET, AMP, PIPE, TILDE, BANG,
    /** Any other single byte outside identifiers, strings and comments. */
    OTHER,
    /** An unterminated string, quoted identifier or comment; lexing stops there. See {@link LexError}. */
    ERROR,
    /** Never stored: what {@link TokenBuffer#type(int)} answers past the last token. */
    EOF;

    private static final TokenType[] VALUES = values();

    static TokenType of(int ordinal) {
        return VALUES[ordinal];
    }

    public boolean isLiteral() {
        return this == STRING || this == INTEGER || this == DECIMAL || this == FLOAT || this == HEX || this == BIT;
    }

    public boolean isNumber() {
        return this == INTEGER || this == DECIMAL || this == FLOAT;
    }
}
