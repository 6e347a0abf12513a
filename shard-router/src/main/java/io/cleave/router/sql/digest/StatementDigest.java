package io.cleave.router.sql.digest;

import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The normalized form of a statement, for plan caching: its key bytes, their hash, and the slot
 * list. Reused across statements ({@link #compute} replaces everything), so a warm digest
 * allocates nothing.
 *
 * <p>The key is the statement's tokens separated by single spaces, with:
 * <ul>
 *   <li>keywords in upper case (so a non-reserved keyword used as a name, such as {@code status},
 *       is folded too; the router compares table names case-insensitively anyway);</li>
 *   <li>identifiers, variables, operators and hints exactly as written (backquotes kept);</li>
 *   <li>every literal (string with its introducer, number, hex, bit) and every client {@code ?}
 *       written as {@code ?}. A run of adjacent strings ({@code 'a' 'b'}, one value in MySQL) is
 *       one slot written as one {@code ?} per string with no space between ({@code ??}), so that
 *       statements sharing a key always have the same token indexes.</li>
 * </ul>
 * Not parameterized, because their values change the plan or the result's shape: an integer
 * that is a whole ORDER BY or GROUP BY item (a column position, {@code ORDER BY 2 DESC}), and a
 * string used as a column alias ({@code AS 'x'}, {@code SELECT a 'x'}) or as a charset or collation
 * name ({@code SET NAMES 'utf8mb4'}, {@code COLLATE 'x'}). NULL, TRUE, FALSE are
 * keywords and stay. A negative number is {@code -} then a number: the minus stays in the key.
 *
 * <p>Slots are numbered from 0 in key order. Slot {@code s} covers tokens
 * {@code [slotToken(s), slotToken(s) + slotTokenCount(s))}; placeholders also have their 0-based
 * client parameter index. {@link SlotValues} decodes literal slot values from the original bytes.
 *
 * <p>Not thread-safe: one per connection (or per event loop), like the {@link TokenBuffer} it reads.
 */
public final class StatementDigest {

    private static final int LITERAL = SlotKind.LITERAL.ordinal();
    private static final int PLACEHOLDER = SlotKind.PLACEHOLDER.ordinal();
    private static final byte[] ERROR_MARK = "<error>".getBytes(StandardCharsets.US_ASCII);

    private byte[] key = new byte[256];
    private int keyLength;
    private long hash;
    private final DigestKey lookupKey = new DigestKey(key, 0, 0);

    private int slotCount;
    private int[] slotKinds = new int[16];
    private int[] slotTokens = new int[16];
    private int[] slotTokenCounts = new int[16];
    private int[] slotParams = new int[16];
    private int placeholderCount;
    private int tokenCount;
    private int[] tokenSlots = new int[64];
    private boolean[] orderListAt = new boolean[16];

    /** Computes the digest of the lexed statement, replacing the previous one. */
    public void compute(TokenBuffer tokens) {
        int n = tokens.size();
        keyLength = 0;
        slotCount = 0;
        placeholderCount = 0;
        tokenCount = n;
        if (tokenSlots.length < n) {
            tokenSlots = new int[Math.max(n, tokenSlots.length * 2)];
        }
        ensureKey(tokens.length() * 2 + 16);
        int depth = 0;
        orderListAt[0] = false;
        byte[] src = tokens.source();
        for (int i = 0; i < n; i++) {
            tokenSlots[i] = -1;
            if (i > 0) {
                key[keyLength++] = ' ';
            }
            TokenType type = tokens.type(i);
            switch (type) {
                case LPAREN -> {
                    depth++;
                    if (depth == orderListAt.length) {
                        orderListAt = Arrays.copyOf(orderListAt, depth * 2);
                    }
                    orderListAt[depth] = false;
                    key[keyLength++] = '(';
                }
                case RPAREN -> {
                    orderListAt[depth] = false;
                    if (depth > 0) {
                        depth--;
                    }
                    key[keyLength++] = ')';
                }
                case SEMICOLON -> {
                    depth = 0;
                    orderListAt[0] = false;
                    key[keyLength++] = ';';
                }
                case KEYWORD -> {
                    Keyword k = tokens.keyword(i);
                    if (k == Keyword.BY && (tokens.isKeyword(i - 1, Keyword.ORDER) || tokens.isKeyword(i - 1, Keyword.GROUP))) {
                        orderListAt[depth] = true;
                    } else if (endsOrderList(k)) {
                        orderListAt[depth] = false;
                    }
                    byte[] upper = k.upperBytes();
                    System.arraycopy(upper, 0, key, keyLength, upper.length);
                    keyLength += upper.length;
                }
                case STRING -> {
                    if (isAlias(tokens, i) || namesCharset(tokens, i)) {
                        copy(src, tokens.start(i), tokens.end(i));
                    } else {
                        int run = 1;
                        while (i + run < n && tokens.type(i + run) == TokenType.STRING
                                && (tokens.flags(i + run) & (TokenBuffer.FLAG_INTRODUCER | TokenBuffer.FLAG_NATIONAL)) == 0) {
                            run++;
                        }
                        addSlot(LITERAL, i, run, -1);
                        for (int r = 0; r < run; r++) {
                            tokenSlots[i + r] = slotCount - 1;
                            key[keyLength++] = '?';
                        }
                        i += run - 1;
                    }
                }
                case INTEGER -> {
                    if (orderListAt[depth] && isWholeOrderItem(tokens, i)) {
                        copy(src, tokens.start(i), tokens.end(i));
                    } else {
                        literalSlot(i);
                    }
                }
                case DECIMAL, FLOAT, HEX, BIT -> literalSlot(i);
                case PLACEHOLDER -> {
                    tokenSlots[i] = slotCount;
                    addSlot(PLACEHOLDER, i, 1, placeholderCount++);
                    key[keyLength++] = '?';
                }
                case ERROR -> {
                    System.arraycopy(ERROR_MARK, 0, key, keyLength, ERROR_MARK.length);
                    keyLength += ERROR_MARK.length;
                }
                default -> copy(src, tokens.start(i), tokens.end(i));
            }
        }
        hash = KeyHash.hash(key, 0, keyLength);
        lookupKey.rebind(key, keyLength, hash);
    }

    private void literalSlot(int token) {
        tokenSlots[token] = slotCount;
        addSlot(LITERAL, token, 1, -1);
        key[keyLength++] = '?';
    }

    private void addSlot(int kind, int token, int count, int param) {
        if (slotCount == slotKinds.length) {
            int size = slotCount * 2;
            slotKinds = Arrays.copyOf(slotKinds, size);
            slotTokens = Arrays.copyOf(slotTokens, size);
            slotTokenCounts = Arrays.copyOf(slotTokenCounts, size);
            slotParams = Arrays.copyOf(slotParams, size);
        }
        slotKinds[slotCount] = kind;
        slotTokens[slotCount] = token;
        slotTokenCounts[slotCount] = count;
        slotParams[slotCount] = param;
        slotCount++;
    }

    private void copy(byte[] src, int from, int to) {
        int len = to - from;
        System.arraycopy(src, from, key, keyLength, len);
        keyLength += len;
    }

    private void ensureKey(int capacity) {
        if (key.length < capacity) {
            key = new byte[Math.max(capacity, key.length * 2)];
        }
    }

    /** Keywords after which a comma no longer separates ORDER BY / GROUP BY items. */
    private static boolean endsOrderList(Keyword k) {
        return switch (k) {
            case LIMIT, HAVING, WINDOW, FOR, LOCK, UNION, EXCEPT, INTERSECT, INTO, SEPARATOR, SELECT, FROM, WHERE,
                    ON, SET, PROCEDURE, VALUES -> true;
            default -> false;
        };
    }

    /** An integer right after ORDER BY / GROUP BY or a comma in that list, and ending the item. */
    private static boolean isWholeOrderItem(TokenBuffer tokens, int i) {
        TokenType before = tokens.type(i - 1);
        if (before != TokenType.COMMA && !tokens.isKeyword(i - 1, Keyword.BY)) {
            return false;
        }
        TokenType after = tokens.type(i + 1);
        if (after == TokenType.EOF || after == TokenType.COMMA || after == TokenType.RPAREN || after == TokenType.SEMICOLON) {
            return true;
        }
        Keyword k = tokens.keyword(i + 1);
        if (k == null) {
            return false;
        }
        return switch (k) {
            case ASC, DESC -> true;
            case AND, OR, XOR, NOT, IS, IN, LIKE, BETWEEN, REGEXP, RLIKE, DIV, MOD, COLLATE -> false;
            default -> k.isReserved();
        };
    }

    /**
     * A charset or collation name written as a string ({@code SET NAMES 'utf8mb4'},
     * {@code COLLATE 'utf8mb4_bin'}): the parser reads it as a name, so it must be in the key.
     */
    private static boolean namesCharset(TokenBuffer tokens, int i) {
        Keyword k = tokens.keyword(i - 1);
        return k == Keyword.NAMES || k == Keyword.CHARSET || k == Keyword.COLLATE
                || (k == Keyword.SET && tokens.isKeyword(i - 2, Keyword.CHARACTER));
    }

    /** A string written where MySQL reads a column alias: after AS, or right after an operand. */
    private static boolean isAlias(TokenBuffer tokens, int i) {
        if (i == 0) {
            return false;
        }
        TokenType before = tokens.type(i - 1);
        switch (before) {
            case IDENTIFIER, QUOTED_IDENTIFIER, RPAREN, INTEGER, DECIMAL, FLOAT, HEX, BIT, PLACEHOLDER,
                    USER_VARIABLE, SYSTEM_VARIABLE -> {
                return true;
            }
            case KEYWORD -> {
                Keyword k = tokens.keyword(i - 1);
                return k == Keyword.AS || k == Keyword.NULL || k == Keyword.TRUE || k == Keyword.FALSE
                        || (k == Keyword.END && !tokens.isKeyword(i - 2, Keyword.XA));
            }
            default -> {
                return false;
            }
        }
    }

    /** The key bytes; valid until the next {@link #compute}. Only {@code [0, keyLength())} is the key. */
    public byte[] keyBytes() {
        return key;
    }

    public int keyLength() {
        return keyLength;
    }

    /** The 64-bit hash of the key. */
    public long hash() {
        return hash;
    }

    /** A view of the current key for cache lookups; valid until the next {@link #compute}, never to be stored. */
    public DigestKey lookupKey() {
        return lookupKey;
    }

    /** An immutable copy of the current key, to store in a cache. */
    public DigestKey toKey() {
        return DigestKey.copyOf(lookupKey);
    }

    /** The key as text (allocates). */
    public String keyString() {
        return new String(key, 0, keyLength, StandardCharsets.UTF_8);
    }

    public int slotCount() {
        return slotCount;
    }

    public SlotKind slotKind(int slot) {
        return slotKinds[checkSlot(slot)] == LITERAL ? SlotKind.LITERAL : SlotKind.PLACEHOLDER;
    }

    /** The first token of the slot. */
    public int slotToken(int slot) {
        return slotTokens[checkSlot(slot)];
    }

    /** How many tokens the slot covers: 1, or more for a run of adjacent strings. */
    public int slotTokenCount(int slot) {
        return slotTokenCounts[checkSlot(slot)];
    }

    /** The 0-based client parameter index of a placeholder slot; -1 for a literal. */
    public int parameterIndex(int slot) {
        return slotParams[checkSlot(slot)];
    }

    /** How many client {@code ?} placeholders the statement has. */
    public int placeholderCount() {
        return placeholderCount;
    }

    /** The slot that token {@code token} belongs to, or -1 if the token is kept in the key. */
    public int slotOfToken(int token) {
        return token >= 0 && token < tokenCount ? tokenSlots[token] : -1;
    }

    private int checkSlot(int slot) {
        if (slot < 0 || slot >= slotCount) {
            throw new IndexOutOfBoundsException("slot " + slot + " of " + slotCount);
        }
        return slot;
    }

    @Override
    public String toString() {
        return keyString();
    }
}
