package io.cleave.proxy.evaluate;

import java.util.Locale;

/**
 * How one column's values travel from the shards that hold them into a temporary table on another
 * shard, unchanged: each value is read as text that names it exactly and written back as a literal
 * that yields the same stored value, whatever the connection's character set or time zone.
 *
 * @param name the column's name
 * @param kind how its values are read and written
 */
public record ColumnCopy(String name, Kind kind) {

    /** Read as, written as. */
    public enum Kind {
        /** Integers, DECIMAL, YEAR: the server's text is exact. */
        NUMBER,
        /** DOUBLE prints the shortest digits that read back exactly; written with an exponent, so -0 stays a double. */
        DOUBLE,
        /** FLOAT prints six digits: read as DOUBLE, whose digits round back to the same FLOAT. */
        FLOAT,
        /** BIT: read as its unsigned number. */
        BIT,
        /** DATE, DATETIME, TIME: text in the column's own precision, independent of the time zone. */
        TEMPORAL,
        /** TIMESTAMP: seconds since the epoch, written back under UTC (no daylight-saving fold can move it). */
        TIMESTAMP,
        /** Strings, binary strings, ENUM, SET, JSON: their bytes in the column's character set, as a hex literal. */
        BYTES,
        /** MariaDB's UUID, INET4, INET6: their canonical text. */
        CANONICAL_TEXT,
        /** A generated column: the temporary table computes it again. */
        GENERATED
    }

    /** The kind for a column of {@code dataType} (information_schema.COLUMNS.DATA_TYPE), or null when it cannot travel exactly. */
    public static Kind kindOf(String dataType, boolean generated) {
        if (generated) {
            return Kind.GENERATED;
        }
        return switch (dataType.toLowerCase(Locale.ROOT)) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "year" -> Kind.NUMBER;
            case "double", "real" -> Kind.DOUBLE;
            case "float" -> Kind.FLOAT;
            case "bit" -> Kind.BIT;
            case "date", "datetime", "time" -> Kind.TEMPORAL;
            case "timestamp" -> Kind.TIMESTAMP;
            case "char", "varchar", "binary", "varbinary", "tinytext", "text", "mediumtext", "longtext", "tinyblob",
                 "blob", "mediumblob", "longblob", "enum", "set", "json" -> Kind.BYTES;
            case "uuid", "inet4", "inet6" -> Kind.CANONICAL_TEXT;
            default -> null;
        };
    }

    /** The expression that reads this column's value from {@code table} (a quoted name or alias). */
    public String readExpression() {
        String c = Sql.identifier(name);
        return switch (kind) {
            case NUMBER, DOUBLE, TEMPORAL, CANONICAL_TEXT -> c;
            case FLOAT -> "CAST(" + c + " AS DOUBLE)";
            case BIT -> "CAST(" + c + " AS UNSIGNED)";
            case TIMESTAMP -> "UNIX_TIMESTAMP(" + c + ")";
            case BYTES -> "HEX(" + c + ")";
            case GENERATED -> throw new IllegalStateException("a generated column is not read");
        };
    }

    /**
     * Appends the literal for one value as read by {@link #readExpression()} ({@code null} for SQL
     * NULL). Returns false when the text is not what this kind reads (then nothing is trusted).
     */
    public boolean appendLiteral(StringBuilder out, byte[] text) {
        if (text == null) {
            out.append("NULL");
            return true;
        }
        switch (kind) {
            case NUMBER, DOUBLE, FLOAT, BIT -> {
                if (!only(text, "0123456789.eE+-") || text.length == 0) {
                    return false;
                }
                append(out, text);
                if ((kind == Kind.DOUBLE || kind == Kind.FLOAT) && only(text, "0123456789.+-")) {
                    out.append("e0");
                }
            }
            case TEMPORAL -> {
                return quoted(out, "'", text, "0123456789-:. ");
            }
            case TIMESTAMP -> {
                if (!only(text, "0123456789.") || text.length == 0) {
                    return false;
                }
                String seconds = new String(text, java.nio.charset.StandardCharsets.US_ASCII);
                // The zero TIMESTAMP reads as 0, which FROM_UNIXTIME would turn into 1970-01-01.
                out.append(seconds.matches("0+(\\.0*)?") ? "'0000-00-00 00:00:00'" : "FROM_UNIXTIME(" + seconds + ")");
            }
            case BYTES -> {
                return quoted(out, "X'", text, "0123456789ABCDEFabcdef");
            }
            case CANONICAL_TEXT -> {
                return quoted(out, "'", text, "0123456789ABCDEFabcdef:.-");
            }
            case GENERATED -> throw new IllegalStateException("a generated column is not written");
        }
        return true;
    }

    /** {@code open}, the text, a closing quote; false (nothing appended) when the text holds other characters than {@code allowed}. */
    private static boolean quoted(StringBuilder out, String open, byte[] text, String allowed) {
        if (!only(text, allowed)) {
            return false;
        }
        out.append(open);
        append(out, text);
        out.append('\'');
        return true;
    }

    private static boolean only(byte[] text, String allowed) {
        for (byte b : text) {
            if (allowed.indexOf((char) (b & 0xff)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static void append(StringBuilder out, byte[] ascii) {
        for (byte b : ascii) {
            out.append((char) b);
        }
    }
}
