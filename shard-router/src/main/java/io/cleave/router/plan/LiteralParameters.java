package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.sql.digest.SlotKind;
import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.lex.Charsets;
import io.cleave.router.sql.lex.TokenType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Slot values of a statement's own literals, decoded lazily from its bytes. Placeholder slots
 * ({@code ?} of a prepared statement) have no value here: {@link #forPlaceholders} supplies them.
 */
public class LiteralParameters implements ParameterValues {

    private SlotValues slots;
    private byte[] source;
    private Charset charset = StandardCharsets.UTF_8;
    private ParameterValues placeholders;

    private static final Charset ISO_8859_1 = StandardCharsets.ISO_8859_1;

    /**
     * Reads the literals of the statement last analyzed into {@code analysis};
     * {@code connectionCharset} null when no Java charset reads the client's text.
     */
    public LiteralParameters bind(Analysis analysis, Charset connectionCharset) {
        this.slots = analysis.slots();
        this.source = analysis.tokens().source();
        this.charset = connectionCharset;
        this.placeholders = null;
        return this;
    }

    /** Where the values of {@code ?} slots come from (a prepared statement's execute). */
    public LiteralParameters forPlaceholders(ParameterValues values) {
        this.placeholders = values;
        return this;
    }

    private boolean placeholder(int slot) {
        return slots.kind(slot) == SlotKind.PLACEHOLDER;
    }

    private ParameterValues bound(int slot) {
        if (placeholders == null) {
            throw new IllegalStateException("no value bound for placeholder slot " + slot);
        }
        return placeholders;
    }

    /** The placeholder slot's client parameter index (what an execute binds). */
    public int parameterIndex(int slot) {
        return slots.parameterIndex(slot);
    }

    @Override
    public boolean isNull(int slot) {
        return placeholder(slot) && bound(slot).isNull(slots.parameterIndex(slot));
    }

    /**
     * The literal read as the server reads it against a key column of {@code type}: numbers exactly
     * (a fraction is no integer key), a hex or bit literal in prefix form or B'..' as a number (MariaDB
     * reads X'..' and a literal with an introducer as a string), a string as the number it spells
     * ({@link Keys#ofNumericString}) or, against a string key, in its introducer's or the
     * connection's character set.
     */
    @Override
    public ShardKey key(int slot, KeyType type) {
        if (placeholder(slot)) {
            return bound(slot).key(slots.parameterIndex(slot), type);
        }
        return switch (slots.type(slot)) {
            case INTEGER -> slots.isLong(slot) ? Keys.ofLong(slots.asLong(slot), type) : null;
            case DECIMAL -> Keys.ofDecimal(slots.asBigDecimal(slot), type);
            case FLOAT -> Keys.ofDouble(slots.asDouble(slot), type);
            case HEX, BIT -> binaryKey(slot, type);
            case STRING -> stringKey(slot, type);
            default -> null;
        };
    }

    private ShardKey binaryKey(int slot, KeyType type) {
        String introducer = slots.introducer(slot);
        if (type == KeyType.INTEGER) {
            boolean number = introducer == null && (slots.prefixForm(slot) || slots.type(slot) == TokenType.BIT);
            return number ? Keys.ofUnsignedBytes(slots.asBytes(slot), type) : null;
        }
        if (introducer == null || introducer.equals("binary")) {
            return Keys.ofBinaryString(slots.asBytes(slot), type);
        }
        Charset decoder = Charsets.javaCharset(introducer);
        return decoder == null ? null : Keys.ofString(new String(slots.asBytes(slot), decoder), type);
    }

    private ShardKey stringKey(int slot, KeyType type) {
        String introducer = slots.introducer(slot);
        if (type == KeyType.INTEGER) {
            // The bytes themselves: digits and spaces are single ASCII bytes in every client character set.
            return introducer == null || Charsets.asciiCompatible(introducer)
                    ? Keys.ofNumericString(slots.asBytes(slot), type) : null;
        }
        if (introducer != null && introducer.equals("binary")) {
            return Keys.ofBinaryString(slots.asBytes(slot), type);
        }
        // Decoded as the server reads it: in the introducer's character set, else the connection's.
        Charset decoder = introducer != null ? Charsets.javaCharset(introducer) : charset;
        return decoder == null ? null : Keys.ofString(slots.asString(slot, decoder), type);
    }

    @Override
    public long longValue(int slot) {
        if (placeholder(slot)) {
            return bound(slot).longValue(slots.parameterIndex(slot));
        }
        if (slots.type(slot) != TokenType.INTEGER || !slots.isLong(slot)) {
            throw new IllegalArgumentException("not an integer: " + slots.originalText(slot));
        }
        return slots.asLong(slot);
    }

    @Override
    public void appendSql(int slot, ByteArrayOutputStream out) {
        if (placeholder(slot)) {
            bound(slot).appendSql(slots.parameterIndex(slot), out);
            return;
        }
        int start = slots.byteStart(slot);
        out.write(source, start, slots.byteEnd(slot) - start);
    }

    /** Strings and hex or bit literals from their bytes ({@link PortableLiterals}); numbers as written. */
    @Override
    public void appendPortableSql(int slot, ByteArrayOutputStream out) {
        if (placeholder(slot)) {
            bound(slot).appendPortableSql(slots.parameterIndex(slot), out);
            return;
        }
        TokenType type = slots.type(slot);
        if (type == TokenType.STRING) {
            PortableLiterals.string(slots.asBytes(slot), slots.introducer(slot), charset, out);
        } else if (type == TokenType.HEX || type == TokenType.BIT) {
            boolean number = slots.introducer(slot) == null && (slots.prefixForm(slot) || type == TokenType.BIT);
            PortableLiterals.binary(slots.asBytes(slot), number, slots.introducer(slot), out);
        } else {
            int start = slots.byteStart(slot);
            byte[] text = java.util.Arrays.copyOfRange(source, start, slots.byteEnd(slot));
            if (PortableLiterals.plain(text)) {
                out.write(text, 0, text.length);
            } else {
                PortableLiterals.string(text, null, charset, out);
            }
        }
    }

    @Override
    public String text(int slot) {
        if (placeholder(slot)) {
            return bound(slot).text(slots.parameterIndex(slot));
        }
        return slots.type(slot) == TokenType.STRING ? slots.asString(slot, charset != null ? charset : ISO_8859_1)
                : slots.originalText(slot);
    }

    @Override
    public boolean isNumeric(int slot) {
        if (placeholder(slot)) {
            return bound(slot).isNumeric(slots.parameterIndex(slot));
        }
        TokenType t = slots.type(slot);
        return t == TokenType.INTEGER || t == TokenType.DECIMAL || t == TokenType.FLOAT;
    }
}
