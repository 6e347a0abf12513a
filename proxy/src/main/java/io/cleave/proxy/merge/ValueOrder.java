package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.ColumnType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Compares text-protocol values the way the server orders them: numbers by value, temporals by
 * time, strings by their collation (through the WEIGHT_STRING the shard computed), binary strings
 * byte by byte, NULL before everything (ascending).
 */
public final class ValueOrder {

    private ValueOrder() {
    }

    /**
     * Compares column {@code column} of two rows; {@code weightColumn} (or -1) holds the value's
     * WEIGHT_STRING, which decides for collated strings.
     */
    public static int compare(ResultColumn type, int column, int weightColumn, TextRow a, TextRow b) {
        boolean aNull = a.isNull(column);
        boolean bNull = b.isNull(column);
        if (aNull || bNull) {
            return aNull == bNull ? 0 : aNull ? -1 : 1;
        }
        if (type.isEnumOrSet()) {
            throw new MergeNotSupportedException("ordering or grouping by the ENUM/SET column '" + type.name()
                    + "' across shards is not supported (its order is the member index, not the text)");
        }
        ColumnType t = type.type();
        if (type.isCollatedString()) {
            if (weightColumn >= 0 && !a.isNull(weightColumn) && !b.isNull(weightColumn)) {
                return compareBytes(a, weightColumn, b, weightColumn);
            }
            throw new MergeNotSupportedException("cannot order the string column '" + type.name()
                    + "' across shards without its collation weights");
        }
        if (t.isInteger()) {
            return compareIntegers(type.unsigned(), a, column, b, column);
        }
        if (t.isDecimal()) {
            return decimal(a, column).compareTo(decimal(b, column));
        }
        if (t.isFloatingPoint()) {
            double x = Double.parseDouble(a.string(column));
            double y = Double.parseDouble(b.string(column));
            return x == y ? 0 : Double.compare(x, y);
        }
        if (t == ColumnType.TIME) {
            return Long.compare(timeMicros(a.string(column)), timeMicros(b.string(column)));
        }
        if (t == ColumnType.JSON || t == ColumnType.GEOMETRY) {
            throw new MergeNotSupportedException("ordering or grouping by the " + t + " column '" + type.name()
                    + "' across shards is not supported");
        }
        // DATE, DATETIME, TIMESTAMP (fixed-width text within a column), BIT, binary strings.
        return compareBytes(a, column, b, column);
    }

    static int compareBytes(TextRow a, int ca, TextRow b, int cb) {
        byte[] x = a.data();
        byte[] y = b.data();
        int xs = a.start(ca);
        int ys = b.start(cb);
        int xl = a.length(ca);
        int yl = b.length(cb);
        int n = Math.min(xl, yl);
        for (int i = 0; i < n; i++) {
            int d = (x[xs + i] & 0xff) - (y[ys + i] & 0xff);
            if (d != 0) {
                return d;
            }
        }
        return Integer.compare(xl, yl);
    }

    private static int compareIntegers(boolean unsigned, TextRow a, int ca, TextRow b, int cb) {
        String x = a.string(ca);
        String y = b.string(cb);
        if (unsigned) {
            return Long.compareUnsigned(Long.parseUnsignedLong(x), Long.parseUnsignedLong(y));
        }
        return Long.compare(Long.parseLong(x), Long.parseLong(y));
    }

    static BigDecimal decimal(TextRow row, int column) {
        return new BigDecimal(row.string(column));
    }

    /** "[-]H+:MM:SS[.ffffff]" as signed microseconds. */
    static long timeMicros(String text) {
        boolean negative = text.startsWith("-");
        String s = negative ? text.substring(1) : text;
        int firstColon = s.indexOf(':');
        long hours = Long.parseLong(s.substring(0, firstColon));
        long minutes = Long.parseLong(s.substring(firstColon + 1, firstColon + 3));
        long seconds = Long.parseLong(s.substring(firstColon + 4, firstColon + 6));
        long micros = 0;
        int dot = s.indexOf('.');
        if (dot > 0) {
            String frac = (s.substring(dot + 1) + "000000").substring(0, 6);
            micros = Long.parseLong(frac);
        }
        long total = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + micros;
        return negative ? -total : total;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
