package io.cleave.router.sql.digest;

import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The values of one statement's slots, decoded lazily from its original bytes: nothing is
 * decoded until asked. Bind it to the statement's tokens and digest; reusable across statements.
 * Placeholder slots have no value here (it comes with COM_STMT_EXECUTE); ask for
 * {@link #parameterIndex}.
 */
public final class SlotValues {

    private TokenBuffer tokens;
    private StatementDigest digest;

    public SlotValues() {
    }

    public SlotValues(TokenBuffer tokens, StatementDigest digest) {
        bind(tokens, digest);
    }

    public SlotValues bind(TokenBuffer tokens, StatementDigest digest) {
        this.tokens = tokens;
        this.digest = digest;
        return this;
    }

    public int count() {
        return digest.slotCount();
    }

    public SlotKind kind(int slot) {
        return digest.slotKind(slot);
    }

    /** The client parameter index of a placeholder slot; -1 for a literal. */
    public int parameterIndex(int slot) {
        return digest.parameterIndex(slot);
    }

    /** The literal's token type (STRING, INTEGER, DECIMAL, FLOAT, HEX, BIT) or PLACEHOLDER. */
    public TokenType type(int slot) {
        return tokens.type(digest.slotToken(slot));
    }

    /** Byte offset in the statement's source where the slot's text starts (for splicing). */
    public int byteStart(int slot) {
        return tokens.start(digest.slotToken(slot));
    }

    /** Byte offset in the statement's source just past the slot's text. */
    public int byteEnd(int slot) {
        return tokens.end(digest.slotToken(slot) + digest.slotTokenCount(slot) - 1);
    }

    /** True if the literal is an integer-valued number that fits a long. */
    public boolean isLong(int slot) {
        literal(slot);
        return LiteralDecoder.isLong(tokens, digest.slotToken(slot), digest.slotTokenCount(slot));
    }

    /** See {@link LiteralDecoder#longValue}. */
    public long asLong(int slot) {
        literal(slot);
        return LiteralDecoder.longValue(tokens, digest.slotToken(slot), digest.slotTokenCount(slot));
    }

    /** See {@link LiteralDecoder#decimalValue}. */
    public BigDecimal asBigDecimal(int slot) {
        literal(slot);
        return LiteralDecoder.decimalValue(tokens, digest.slotToken(slot), digest.slotTokenCount(slot));
    }

    public double asDouble(int slot) {
        literal(slot);
        return LiteralDecoder.doubleValue(tokens, digest.slotToken(slot), digest.slotTokenCount(slot));
    }

    /** A string's unescaped bytes (adjacent strings concatenated), a hex/bit literal's binary value, a number's text. */
    public byte[] asBytes(int slot) {
        literal(slot);
        return LiteralDecoder.bytes(tokens, digest.slotToken(slot), digest.slotTokenCount(slot));
    }

    /**
     * Whether a hex or bit literal is written in its prefix form ({@code 0x1D6}, {@code 0b101}) rather
     * than quoted ({@code X'01D6'}, {@code B'101'}): MariaDB reads the quoted hex form as a string
     * even where a number is compared.
     */
    public boolean prefixForm(int slot) {
        literal(slot);
        return (tokens.flags(digest.slotToken(slot)) & TokenBuffer.FLAG_PREFIX_FORM) != 0;
    }

    /** The introducer's charset name ({@code utf8mb4}, {@code binary}, {@code utf8mb3} for N'..'), or null. */
    public String introducer(int slot) {
        literal(slot);
        return LiteralDecoder.introducer(tokens, digest.slotToken(slot));
    }

    /**
     * {@link #asBytes} decoded as text: in the introducer's charset when there is one, else in
     * {@code connectionCharset} (the session's character_set_client).
     */
    public String asString(int slot, Charset connectionCharset) {
        String intro = introducer(slot);
        Charset cs = intro == null ? connectionCharset : io.cleave.router.sql.lex.Charsets.javaCharset(intro);
        // A character set Java cannot read: the bytes one to one (callers placing keys check first).
        return new String(asBytes(slot), cs != null ? cs : StandardCharsets.ISO_8859_1);
    }

    /** {@link #asString(int, Charset)} for a utf8mb4 connection. */
    public String asString(int slot) {
        return asString(slot, StandardCharsets.UTF_8);
    }

    /** The slot's exact original text, e.g. {@code _utf8mb4'a\'b'} (for messages and debugging). */
    public String originalText(int slot) {
        int t = digest.slotToken(slot);
        return tokens.text(t, t + digest.slotTokenCount(slot) - 1);
    }

    private void literal(int slot) {
        if (digest.slotKind(slot) != SlotKind.LITERAL) {
            throw new IllegalStateException("slot " + slot + " is a placeholder; its value comes from the client");
        }
    }
}
