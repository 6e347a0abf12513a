/**
 * The lexer: {@link io.cleave.router.sql.lex.SqlLexer} turns a byte range into tokens in a
 * {@link io.cleave.router.sql.lex.TokenBuffer} (type, start, end, keyword, flags per token).
 *
 * <p>It follows MySQL's rules: keywords are recognized case-insensitively by comparing bytes
 * against {@link io.cleave.router.sql.lex.Keyword}'s table; a word right after {@code ident.} is
 * always an identifier; {@code "x"} is a string unless ANSI_QUOTES; backslash escapes unless
 * NO_BACKSLASH_ESCAPES ({@link io.cleave.router.sql.lex.SqlMode}); {@code --} starts a comment
 * only before whitespace or a control character; version comments ({@code /*!50100 ...}) are
 * lexed as SQL; hints after SELECT/INSERT/REPLACE/UPDATE/DELETE are one HINT token; an introducer
 * and its literal ({@code _utf8mb4 'x'}) are one token. Errors (unterminated strings, quoted
 * identifiers, comments) end the stream with an ERROR token at their position.
 */
package io.cleave.router.sql.lex;
