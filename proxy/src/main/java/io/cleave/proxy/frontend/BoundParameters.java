package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.Keys;
import io.cleave.router.plan.ParameterValues;
import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The values a COM_STMT_EXECUTE binds, by parameter index, read from the packet where they lie
 * (or from long data sent before). Decoded only when routing or a rewrite needs them.
 */
final class BoundParameters implements ParameterValues {


    private final ComStmtExecute execute;
    private final ByteBuf payload;
    private final ClientStatement statement;
    private final Charset charset;
    private final boolean noBackslashEscapes;

    /** Java names of the client character sets that are not ASCII-safe, with their introducers. */
    private static final java.util.Map<String, String> NOT_ASCII_SAFE = java.util.Map.of("GBK", "_gbk", "Shift_JIS",
            "_sjis", "Big5", "_big5", "windows-31j", "_cp932", "GB18030", "_gb18030");

    private static boolean hasHighBytes(byte[] value) {
        for (byte b : value) {
            if (b < 0) {
                return true;
            }
        }
        return false;
    }

    /** {@code charset}: the client's, null when no Java charset reads it. */
    BoundParameters(ComStmtExecute execute, ByteBuf payload, ClientStatement statement, Charset charset,
                    boolean noBackslashEscapes) {
        this.execute = execute;
        this.payload = payload;
        this.statement = statement;
        this.charset = charset;
        this.noBackslashEscapes = noBackslashEscapes;
    }

    private boolean isLongData(int p) {
        return statement.longData(p) != null;
    }

    @Override
    public boolean isNull(int p) {
        return !isLongData(p) && execute.isNull(p);
    }

    private ColumnType type(int p) {
        return execute.type(p);
    }

    /**
     * The bound value read as the server reads it against a key column of {@code keyType}, whatever
     * type the client bound: a DOUBLE or DECIMAL only when it is a whole number, a string as the
     * number it spells ({@link Keys#ofNumericString}) or as a string key, binary data (a BLOB type)
     * as a {@code _binary} string.
     */
    @Override
    public ShardKey key(int p, KeyType keyType) {
        if (isNull(p)) {
            return null;
        }
        ColumnType t = type(p);
        if (t.isInteger()) {
            long v = integer(p);
            return execute.unsigned(p) && t == ColumnType.LONGLONG ? Keys.ofUnsigned(v, keyType) : Keys.ofLong(v, keyType);
        }
        if (t == ColumnType.DOUBLE || t == ColumnType.FLOAT) {
            double d = t == ColumnType.DOUBLE ? payload.getDoubleLE(execute.valueOffset(p))
                    : payload.getFloatLE(execute.valueOffset(p));
            return Keys.ofDouble(d, keyType);
        }
        if (t.isDecimal()) {
            try {
                return Keys.ofDecimal(new BigDecimal(string(p)), keyType);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        if (t == ColumnType.BLOB || t == ColumnType.LONG_BLOB || t == ColumnType.MEDIUM_BLOB
                || t == ColumnType.TINY_BLOB) {
            return keyType == KeyType.STRING ? Keys.ofBinaryString(bytes(p), keyType)
                    : Keys.ofNumericString(bytes(p), keyType);
        }
        if (t == ColumnType.VARCHAR || t == ColumnType.VAR_STRING || t == ColumnType.STRING || t == ColumnType.ENUM
                || t == ColumnType.SET || t == ColumnType.JSON) {
            if (keyType == KeyType.INTEGER) {
                // The bytes themselves: digits and spaces are single ASCII bytes in every client character set.
                return Keys.ofNumericString(bytes(p), keyType);
            }
            // Without a decoder for the client's character set a string key cannot be placed.
            return charset == null ? null : Keys.ofString(string(p), keyType);
        }
        return null;
    }

    @Override
    public long longValue(int p) {
        if (isNull(p)) {
            throw new IllegalArgumentException("NULL where an integer is needed");
        }
        ColumnType t = type(p);
        if (t.isInteger()) {
            return integer(p);
        }
        try {
            return new BigDecimal(string(p).strip()).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("not an integer: " + string(p));
        }
    }

    private long integer(int p) {
        int at = execute.valueOffset(p);
        boolean unsigned = execute.unsigned(p);
        switch (type(p)) {
            case TINY:
                return unsigned ? payload.getUnsignedByte(at) : payload.getByte(at);
            case SHORT:
            case YEAR:
                return unsigned ? payload.getUnsignedShortLE(at) : payload.getShortLE(at);
            case LONG:
            case INT24:
                return unsigned ? payload.getUnsignedIntLE(at) : payload.getIntLE(at);
            default:
                return payload.getLongLE(at);
        }
    }

    /** The value of a length-encoded parameter (or long data) as bytes. */
    private byte[] bytes(int p) {
        if (isLongData(p)) {
            ByteBuf data = statement.longData(p);
            byte[] b = new byte[data.readableBytes()];
            data.getBytes(data.readerIndex(), b);
            return b;
        }
        ByteBuf slice = payload.slice(execute.valueOffset(p), execute.valueLength(p));
        return Wire.readLenencBytes(slice);
    }

    private String string(int p) {
        return new String(bytes(p), charset != null ? charset : StandardCharsets.ISO_8859_1);
    }

    @Override
    public String text(int p) {
        if (isNull(p)) {
            return null;
        }
        ColumnType t = type(p);
        if (t.isInteger()) {
            long v = integer(p);
            return execute.unsigned(p) && t == ColumnType.LONGLONG ? Long.toUnsignedString(v) : Long.toString(v);
        }
        if (t == ColumnType.DOUBLE) {
            return Double.toString(payload.getDoubleLE(execute.valueOffset(p)));
        }
        if (t == ColumnType.FLOAT) {
            return Float.toString(payload.getFloatLE(execute.valueOffset(p)));
        }
        if (t.isTemporal()) {
            return temporal(p);
        }
        return string(p);
    }

    @Override
    public boolean isNumeric(int p) {
        ColumnType t = type(p);
        return t.isInteger() || t.isFloatingPoint() || t.isDecimal();
    }

    /** The value as a SQL literal, for statements the proxy rewrites and sends as text. */
    @Override
    public void appendSql(int p, ByteArrayOutputStream out) {
        if (isNull(p)) {
            write(out, "NULL");
            return;
        }
        ColumnType t = type(p);
        if (t.isInteger() || t.isDecimal()) {
            write(out, text(p));
        } else if (t.isFloatingPoint()) {
            double d = t == ColumnType.DOUBLE ? payload.getDoubleLE(execute.valueOffset(p))
                    : payload.getFloatLE(execute.valueOffset(p));
            write(out, Double.isFinite(d) ? Double.toString(d) : "NULL");
        } else if (t.isTemporal()) {
            write(out, "'" + temporal(p) + "'");
        } else if (t == ColumnType.BLOB || t == ColumnType.TINY_BLOB || t == ColumnType.MEDIUM_BLOB
                || t == ColumnType.LONG_BLOB || t == ColumnType.GEOMETRY || t == ColumnType.BIT) {
            hex(out, bytes(p));
        } else {
            quoted(out, bytes(p));
        }
    }

    /** As {@link #appendSql}, with strings as hex and an introducer (the other renderings read alike in every session). */
    @Override
    public void appendPortableSql(int p, ByteArrayOutputStream out) {
        ColumnType t = isNull(p) ? null : type(p);
        if (t == null || t.isInteger() || t.isDecimal() || t.isFloatingPoint() || t.isTemporal() || t == ColumnType.BLOB
                || t == ColumnType.TINY_BLOB || t == ColumnType.MEDIUM_BLOB || t == ColumnType.LONG_BLOB
                || t == ColumnType.GEOMETRY || t == ColumnType.BIT) {
            appendSql(p, out);
            return;
        }
        io.cleave.router.plan.PortableLiterals.string(bytes(p), null, charset, out);
    }

    /**
     * A string literal in the connection's character set: quotes doubled, backslashes escaped
     * unless the mode says not to. In a character set that is not ASCII-safe, a value with bytes
     * from 0x80 up goes as hex with its character set's introducer: escaping byte by byte would
     * split its characters.
     */
    private void quoted(ByteArrayOutputStream out, byte[] value) {
        String introducer = charset == null ? null : NOT_ASCII_SAFE.get(charset.name());
        if (introducer != null && hasHighBytes(value)) {
            write(out, introducer + " X'");
            for (byte b : value) {
                write(out, String.format("%02X", b & 0xff));
            }
            out.write('\'');
            return;
        }
        out.write('\'');
        for (byte b : value) {
            if (b == '\'') {
                out.write('\'');
                out.write('\'');
            } else if (b == '\\' && !noBackslashEscapes) {
                out.write('\\');
                out.write('\\');
            } else if (b == 0 && !noBackslashEscapes) {
                out.write('\\');
                out.write('0');
            } else {
                out.write(b);
            }
        }
        out.write('\'');
    }

    private static void hex(ByteArrayOutputStream out, byte[] value) {
        if (value.length == 0) {
            write(out, "''");
            return;
        }
        out.write('X');
        out.write('\'');
        io.cleave.router.plan.PortableLiterals.hexDigits(value, out);
        out.write('\'');
    }

    /** A DATE/DATETIME/TIMESTAMP/TIME parameter as the server's text form. */
    private String temporal(int p) {
        int at = execute.valueOffset(p);
        int length = payload.getUnsignedByte(at);
        if (type(p) == ColumnType.TIME) {
            if (length == 0) {
                return "00:00:00";
            }
            boolean negative = payload.getByte(at + 1) == 1;
            long days = payload.getUnsignedIntLE(at + 2);
            int hours = payload.getUnsignedByte(at + 6);
            int minutes = payload.getUnsignedByte(at + 7);
            int seconds = payload.getUnsignedByte(at + 8);
            long micros = length >= 12 ? payload.getUnsignedIntLE(at + 9) : 0;
            return String.format("%s%02d:%02d:%02d%s", negative ? "-" : "", days * 24 + hours, minutes, seconds,
                    micros > 0 ? String.format(".%06d", micros) : "");
        }
        if (length == 0) {
            return "0000-00-00 00:00:00";
        }
        int year = payload.getUnsignedShortLE(at + 1);
        int month = payload.getUnsignedByte(at + 3);
        int day = payload.getUnsignedByte(at + 4);
        int hour = length >= 7 ? payload.getUnsignedByte(at + 5) : 0;
        int minute = length >= 7 ? payload.getUnsignedByte(at + 6) : 0;
        int second = length >= 7 ? payload.getUnsignedByte(at + 7) : 0;
        long micros = length >= 11 ? payload.getUnsignedIntLE(at + 8) : 0;
        return String.format("%04d-%02d-%02d %02d:%02d:%02d%s", year, month, day, hour, minute, second,
                micros > 0 ? String.format(".%06d", micros) : "");
    }

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

}
