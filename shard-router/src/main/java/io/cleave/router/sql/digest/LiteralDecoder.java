package io.cleave.router.sql.digest;

import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Decodes literal tokens from the statement's original bytes, MySQL's way. Works on token
 * indexes; {@link SlotValues} is the slot-numbered view the planner uses.
 */
public final class LiteralDecoder {

    private LiteralDecoder() {
    }

    /**
     * The bytes a string run denotes: tokens {@code [first, first + count)} unescaped and
     * concatenated. For HEX/BIT tokens the binary value; for numbers their text.
     */
    public static byte[] bytes(TokenBuffer tokens, int first, int count) {
        TokenType type = tokens.type(first);
        if (type == TokenType.HEX) {
            return hexBytes(tokens, first);
        }
        if (type == TokenType.BIT) {
            return bitBytes(tokens, first);
        }
        if (type != TokenType.STRING) {
            return textBytes(tokens, first);
        }
        if (count == 1 && (tokens.flags(first) & TokenBuffer.FLAG_ESCAPES) == 0) {
            int from = tokens.start(first) + tokens.bodyOffset(first) + 1;
            int to = tokens.end(first) - 1;
            byte[] out = new byte[to - from];
            System.arraycopy(tokens.source(), from, out, 0, out.length);
            return out;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(tokens.end(first + count - 1) - tokens.start(first));
        for (int t = first; t < first + count; t++) {
            unescape(tokens, t, out);
        }
        return out.toByteArray();
    }

    private static void unescape(TokenBuffer tokens, int t, ByteArrayOutputStream out) {
        byte[] src = tokens.source();
        int flags = tokens.flags(t);
        int quotePos = tokens.start(t) + tokens.bodyOffset(t);
        byte quote = src[quotePos];
        boolean backslash = (flags & TokenBuffer.FLAG_NO_BACKSLASH_ESCAPES) == 0;
        int end = tokens.end(t) - 1;
        for (int p = quotePos + 1; p < end; p++) {
            byte b = src[p];
            if (b == quote && p + 1 < end && src[p + 1] == quote) {
                out.write(b);
                p++;
            } else if (b == '\\' && backslash && p + 1 < end) {
                byte e = src[++p];
                switch (e) {
                    case '0' -> out.write(0);
                    case 'b' -> out.write('\b');
                    case 'n' -> out.write('\n');
                    case 'r' -> out.write('\r');
                    case 't' -> out.write('\t');
                    case 'Z' -> out.write(0x1A);
                    case '%', '_' -> {
                        // Kept with the backslash so LIKE patterns can match the literal character.
                        out.write('\\');
                        out.write(e);
                    }
                    default -> out.write(e);
                }
            } else {
                out.write(b);
            }
        }
    }

    private static byte[] textBytes(TokenBuffer tokens, int t) {
        int from = tokens.start(t);
        byte[] out = new byte[tokens.end(t) - from];
        System.arraycopy(tokens.source(), from, out, 0, out.length);
        return out;
    }

    private static byte[] hexBytes(TokenBuffer tokens, int t) {
        byte[] src = tokens.source();
        int from;
        int to;
        if ((tokens.flags(t) & TokenBuffer.FLAG_PREFIX_FORM) != 0) {
            from = tokens.start(t) + tokens.bodyOffset(t) + 2;
            to = tokens.end(t);
        } else {
            from = tokens.start(t) + tokens.bodyOffset(t) + 1;
            to = tokens.end(t) - 1;
        }
        int digits = to - from;
        byte[] out = new byte[(digits + 1) / 2];
        // An odd digit count is padded with a leading zero, as MySQL does for 0x.
        int nibble = (digits & 1) == 1 ? 1 : 0;
        for (int p = from; p < to; p++, nibble++) {
            int v = Math.max(0, hexValue(src[p]));
            out[nibble >> 1] |= (byte) ((nibble & 1) == 0 ? v << 4 : v);
        }
        return out;
    }

    private static byte[] bitBytes(TokenBuffer tokens, int t) {
        byte[] src = tokens.source();
        int from;
        int to;
        if ((tokens.flags(t) & TokenBuffer.FLAG_PREFIX_FORM) != 0) {
            from = tokens.start(t) + tokens.bodyOffset(t) + 2;
            to = tokens.end(t);
        } else {
            from = tokens.start(t) + tokens.bodyOffset(t) + 1;
            to = tokens.end(t) - 1;
        }
        int bits = to - from;
        byte[] out = new byte[(bits + 7) / 8];
        for (int i = 0; i < bits; i++) {
            if (src[to - 1 - i] == '1') {
                out[out.length - 1 - i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return out;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** True if the literal is an integer that fits a signed long (see {@link #longValue}). */
    public static boolean isLong(TokenBuffer tokens, int first, int count) {
        TokenType type = tokens.type(first);
        if (type == TokenType.INTEGER) {
            return parseDigits(tokens.source(), tokens.start(first), tokens.end(first)) >= 0;
        }
        try {
            longValue(tokens, first, count);
            return true;
        } catch (ArithmeticException | NumberFormatException e) {
            return false;
        }
    }

    /**
     * The literal as a long. Integers parse exactly; decimals and floats must have no fraction;
     * hex and bit values are read as unsigned big-endian; a string must hold an integer (spaces
     * around it allowed), as MySQL compares it with an integer column.
     *
     * @throws ArithmeticException   if the value does not fit a signed long or has a fraction
     * @throws NumberFormatException if the literal is not a number
     */
    public static long longValue(TokenBuffer tokens, int first, int count) {
        TokenType type = tokens.type(first);
        switch (type) {
            case INTEGER -> {
                long v = parseDigits(tokens.source(), tokens.start(first), tokens.end(first));
                if (v < 0) {
                    throw new ArithmeticException("integer out of range: " + tokens.text(first));
                }
                return v;
            }
            case HEX, BIT -> {
                byte[] b = bytes(tokens, first, 1);
                int i = 0;
                while (i < b.length - 1 && b[i] == 0) {
                    i++;
                }
                if (b.length - i > 8 || (b.length - i == 8 && b[i] < 0)) {
                    throw new ArithmeticException("binary literal out of range: " + tokens.text(first));
                }
                long v = 0;
                for (; i < b.length; i++) {
                    v = (v << 8) | (b[i] & 0xFF);
                }
                return v;
            }
            default -> {
                return decimalValue(tokens, first, count).longValueExact();
            }
        }
    }

    /** Non-negative value of ASCII digits, or -1 on overflow. */
    private static long parseDigits(byte[] src, int from, int to) {
        long v = 0;
        for (int p = from; p < to; p++) {
            int d = src[p] - '0';
            if (v > (Long.MAX_VALUE - d) / 10) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /**
     * The literal as an exact decimal: numbers as written, hex/bit as unsigned integers, strings
     * parsed as numbers (spaces around allowed).
     *
     * @throws NumberFormatException if a string does not hold a number
     */
    public static BigDecimal decimalValue(TokenBuffer tokens, int first, int count) {
        TokenType type = tokens.type(first);
        switch (type) {
            case INTEGER, DECIMAL, FLOAT -> {
                return new BigDecimal(tokens.text(first));
            }
            case HEX, BIT -> {
                return new BigDecimal(new BigInteger(1, bytes(tokens, first, 1)));
            }
            case STRING -> {
                String s = new String(bytes(tokens, first, count), StandardCharsets.ISO_8859_1).trim();
                return new BigDecimal(s);
            }
            default -> throw new NumberFormatException(type + " is not a literal");
        }
    }

    /** The literal as a double (see {@link #decimalValue}). */
    public static double doubleValue(TokenBuffer tokens, int first, int count) {
        TokenType type = tokens.type(first);
        if (type == TokenType.FLOAT || type == TokenType.DECIMAL || type == TokenType.INTEGER) {
            return Double.parseDouble(tokens.text(first));
        }
        return decimalValue(tokens, first, count).doubleValue();
    }

    /**
     * The charset named by the literal's introducer ({@code "utf8mb4"} for {@code _utf8mb4'x'},
     * {@code "utf8mb3"} for {@code N'x'}), or {@code null} when the connection's charset applies.
     */
    public static String introducer(TokenBuffer tokens, int token) {
        int flags = tokens.flags(token);
        if ((flags & TokenBuffer.FLAG_NATIONAL) != 0) {
            return "utf8mb3";
        }
        if ((flags & TokenBuffer.FLAG_INTRODUCER) == 0) {
            return null;
        }
        byte[] src = tokens.source();
        int from = tokens.start(token) + 1;
        int to = from;
        int limit = tokens.start(token) + tokens.bodyOffset(token);
        while (to < limit && src[to] != ' ' && src[to] != '\t' && src[to] != '\n' && src[to] != '\r'
                && src[to] != '\f' && src[to] != 0x0B) {
            to++;
        }
        return new String(src, from, to - from, StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
    }
}
