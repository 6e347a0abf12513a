package io.cleave.router.sql.lex;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The tokens of one statement, as parallel int arrays over the statement's original bytes.
 * Reused across statements ({@link SqlLexer#lex} resets it), so a warm buffer allocates nothing.
 *
 * <p>Token {@code i} covers {@code source()[start(i), end(i))}. Tokens are numbered from 0 in the
 * order they appear; comments and whitespace produce none, so two statements that differ only in
 * literal values, whitespace and comments have the same token indexes.
 *
 * <p>Not thread-safe: one per connection (or per event loop), reused statement after statement.
 */
public final class TokenBuffer {

    /** Flag: a STRING contains backslash escapes or doubled quotes (decoding must unescape). */
    public static final int FLAG_ESCAPES = 1;
    /** Flag: a literal starts with a charset introducer ({@code _utf8mb4'..'}). */
    public static final int FLAG_INTRODUCER = 1 << 1;
    /** Flag: a STRING is a national string ({@code N'..'}). */
    public static final int FLAG_NATIONAL = 1 << 2;
    /** Flag: a HEX or BIT literal is in the {@code 0x..}/{@code 0b..} form (no quotes). */
    public static final int FLAG_PREFIX_FORM = 1 << 3;
    /** Flag: a STRING was delimited by double quotes. */
    public static final int FLAG_DOUBLE_QUOTED = 1 << 4;
    /** Flag: a STRING was lexed under NO_BACKSLASH_ESCAPES (a backslash is an ordinary byte). */
    public static final int FLAG_NO_BACKSLASH_ESCAPES = 1 << 5;
    /** Flag: a SEMICOLON inside a version comment ({@code /*!40101 ...; *}{@code /}), which the comment's close follows. */
    public static final int FLAG_IN_VERSION_COMMENT = 1 << 6;

    private byte[] source = new byte[0];
    private int offset;
    private int length;
    private int size;
    private int[] types = new int[64];
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int[] keywords = new int[64];
    private int[] flags = new int[64];

    void reset(byte[] source, int offset, int length) {
        this.source = source;
        this.offset = offset;
        this.length = length;
        this.size = 0;
    }

    void add(TokenType type, int start, int end, int keyword, int flag) {
        if (size == types.length) {
            int n = size * 2;
            types = Arrays.copyOf(types, n);
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
            keywords = Arrays.copyOf(keywords, n);
            flags = Arrays.copyOf(flags, n);
        }
        types[size] = type.ordinal();
        starts[size] = start;
        ends[size] = end;
        keywords[size] = keyword;
        flags[size] = flag;
        size++;
    }

    /** The bytes the tokens point into (the caller's array, not a copy). */
    /**
     * Drops the semicolons that end the statement, with the whitespace and comments after them: a
     * server accepts and ignores them, and text the proxy adds after a statement must not follow
     * them. A statement of semicolons only, one that stopped at a lexer error, or a semicolon inside
     * a version comment (whose close comes after it) stays as it is.
     */
    void dropTrailingSemicolons() {
        int last = size - 1;
        while (last > 0 && types[last] == TokenType.SEMICOLON.ordinal() && (flags[last] & FLAG_IN_VERSION_COMMENT) == 0) {
            last--;
        }
        if (last < size - 1 && types[last] != TokenType.SEMICOLON.ordinal()) {
            length = starts[last + 1] - offset;
            size = last + 1;
        }
    }

    public byte[] source() {
        return source;
    }

    /** Where the statement starts in {@link #source()}. */
    public int offset() {
        return offset;
    }

    /** The statement's length in bytes. */
    public int length() {
        return length;
    }

    public int size() {
        return size;
    }

    /** The token's type; {@link TokenType#EOF} for any index past the last token. */
    public TokenType type(int i) {
        return i >= 0 && i < size ? TokenType.of(types[i]) : TokenType.EOF;
    }

    /** Byte offset of the token's first byte in {@link #source()}. */
    public int start(int i) {
        return starts[i];
    }

    /** Byte offset just past the token's last byte in {@link #source()}. */
    public int end(int i) {
        return ends[i];
    }

    /** The keyword of a {@link TokenType#KEYWORD} token; {@code null} for any other token or index. */
    public Keyword keyword(int i) {
        if (i < 0 || i >= size || types[i] != TokenType.KEYWORD.ordinal()) {
            return null;
        }
        return Keyword.of(keywords[i]);
    }

    /** True if token {@code i} is the keyword {@code k}. */
    public boolean isKeyword(int i, Keyword k) {
        return i >= 0 && i < size && types[i] == TokenType.KEYWORD.ordinal() && keywords[i] == k.ordinal();
    }

    /** The FLAG_* bits of a literal token. */
    public int flags(int i) {
        return flags[i] & 0xFFFF;
    }

    /**
     * For a literal token: how many bytes after {@link #start} its body begins, that is the opening
     * quote of a string, {@code X'..'} or {@code B'..'}, or the {@code 0} of {@code 0x..}/{@code 0b..}.
     * Non-zero when an introducer or an N/X/B prefix comes first.
     */
    public int bodyOffset(int i) {
        return flags[i] >>> 16;
    }

    /** Why an {@link TokenType#ERROR} token was produced. */
    public LexError error(int i) {
        return LexError.of(keywords[i]);
    }

    /** True if lexing stopped at an {@link TokenType#ERROR} token (always the last one). */
    public boolean hasError() {
        return size > 0 && types[size - 1] == TokenType.ERROR.ordinal();
    }

    /** True if token {@code i}'s bytes equal {@code upperAscii} ignoring ASCII letter case. */
    public boolean textEqualsIgnoreCase(int i, String upperAscii) {
        if (i < 0 || i >= size || ends[i] - starts[i] != upperAscii.length()) {
            return false;
        }
        int s = starts[i];
        for (int k = 0; k < upperAscii.length(); k++) {
            int b = source[s + k];
            if (b >= 'a' && b <= 'z') {
                b -= 32;
            }
            if (b != upperAscii.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The token's bytes decoded as UTF-8. Allocates: for the cold path, errors and tests. */
    public String text(int i) {
        return new String(source, starts[i], ends[i] - starts[i], StandardCharsets.UTF_8);
    }

    /** The original bytes from token {@code first}'s start to token {@code last}'s end, as UTF-8. */
    public String text(int first, int last) {
        return new String(source, starts[first], ends[last] - starts[first], StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(type(i)).append(' ').append(text(i));
        }
        return sb.append(']').toString();
    }
}
