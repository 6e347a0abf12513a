package io.cleave.router.sql.lex;

import java.nio.charset.StandardCharsets;

/**
 * MySQL/MariaDB character set names: to tell {@code _utf8mb4'x'} (an introducer) from a column
 * {@code _x}, whether a client character set is ASCII-safe, and which Java decoder reads a
 * character set's bytes as the server does.
 */
public final class Charsets {

    private static final byte[][] NAMES = names(
            "armscii8", "ascii", "big5", "binary", "cp1250", "cp1251", "cp1256", "cp1257", "cp850", "cp852",
            "cp866", "cp932", "dec8", "eucjpms", "euckr", "filename", "gb18030", "gb2312", "gbk", "geostd8",
            "greek", "hebrew", "hp8", "keybcs2", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7",
            "macce", "macroman", "sjis", "swe7", "tis620", "ucs2", "ujis", "utf16", "utf16le", "utf32", "utf8",
            "utf8mb3", "utf8mb4");

    /**
     * Character sets whose multibyte characters may contain bytes below 0x80 (a quote, a backslash):
     * a lexer that reads bytes cannot tell them from syntax. ucs2, utf16 and utf32 cannot be client
     * character sets at all.
     */
    private static final java.util.Set<String> NOT_ASCII_SAFE = java.util.Set.of("big5", "cp932", "gbk", "gb18030",
            "sjis", "ucs2", "utf16", "utf16le", "utf32");

    /** Character set names and the Java decoders that give the characters the server sees. */
    private static final java.util.Map<String, String> JAVA_NAMES = java.util.Map.ofEntries(
            java.util.Map.entry("utf8mb4", "UTF-8"), java.util.Map.entry("utf8mb3", "UTF-8"),
            java.util.Map.entry("utf8", "UTF-8"),
            // MySQL's latin1 is cp1252 (0x80 is the euro sign), not ISO 8859-1.
            java.util.Map.entry("latin1", "windows-1252"), java.util.Map.entry("ascii", "US-ASCII"),
            java.util.Map.entry("binary", "ISO-8859-1"), java.util.Map.entry("latin2", "ISO-8859-2"),
            java.util.Map.entry("latin5", "ISO-8859-9"), java.util.Map.entry("latin7", "ISO-8859-13"),
            java.util.Map.entry("greek", "ISO-8859-7"), java.util.Map.entry("hebrew", "ISO-8859-8"),
            java.util.Map.entry("cp1250", "windows-1250"), java.util.Map.entry("cp1251", "windows-1251"),
            java.util.Map.entry("cp1256", "windows-1256"), java.util.Map.entry("cp1257", "windows-1257"),
            java.util.Map.entry("cp850", "IBM850"), java.util.Map.entry("cp852", "IBM852"),
            java.util.Map.entry("cp866", "IBM866"), java.util.Map.entry("koi8r", "KOI8-R"),
            java.util.Map.entry("koi8u", "KOI8-U"), java.util.Map.entry("macroman", "x-MacRoman"),
            java.util.Map.entry("macce", "x-MacCentralEurope"), java.util.Map.entry("tis620", "TIS-620"),
            java.util.Map.entry("euckr", "EUC-KR"), java.util.Map.entry("ujis", "EUC-JP"),
            java.util.Map.entry("gb2312", "GB2312"), java.util.Map.entry("gbk", "GBK"),
            java.util.Map.entry("gb18030", "GB18030"), java.util.Map.entry("big5", "Big5"),
            java.util.Map.entry("sjis", "Shift_JIS"), java.util.Map.entry("cp932", "windows-31j"),
            java.util.Map.entry("utf16", "UTF-16BE"), java.util.Map.entry("utf16le", "UTF-16LE"),
            java.util.Map.entry("utf32", "UTF-32BE"), java.util.Map.entry("ucs2", "UTF-16BE"));

    private Charsets() {
    }

    /**
     * The Java charset that decodes a MySQL character set's bytes into the characters the server
     * sees, or null when Java has none (then a string key in it cannot be placed on a shard).
     * {@code name} may carry an introducer's underscore.
     */
    public static java.nio.charset.Charset javaCharset(String name) {
        if (name == null) {
            return null;
        }
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        String decoder = JAVA_NAMES.get(lower.startsWith("_") ? lower.substring(1) : lower);
        if (decoder == null || !java.nio.charset.Charset.isSupported(decoder)) {
            return null;
        }
        return java.nio.charset.Charset.forName(decoder);
    }

    /**
     * The MySQL character set whose bytes {@code charset} decodes as the server does ({@code utf8mb4}
     * for UTF-8, {@code latin1} for windows-1252, ...), or null when none does.
     */
    public static String mysqlName(java.nio.charset.Charset charset) {
        return charset == null ? null : MYSQL_NAMES.get(charset);
    }

    /** {@link #JAVA_NAMES} the other way round; UTF-8 is utf8mb4, and ISO 8859-1 no client's (binary's only). */
    private static final java.util.Map<java.nio.charset.Charset, String> MYSQL_NAMES = mysqlNames();

    private static java.util.Map<java.nio.charset.Charset, String> mysqlNames() {
        java.util.Map<java.nio.charset.Charset, String> out = new java.util.HashMap<>();
        JAVA_NAMES.forEach((mysql, decoder) -> {
            if (!mysql.startsWith("utf8") && !mysql.equals("binary") && !mysql.equals("ucs2")
                    && java.nio.charset.Charset.isSupported(decoder)) {
                out.put(java.nio.charset.Charset.forName(decoder), mysql);
            }
        });
        out.put(StandardCharsets.UTF_8, "utf8mb4");
        return java.util.Map.copyOf(out);
    }

    /** Whether a client character set keeps every byte below 0x80 a character of its own; unknown names are not. */
    public static boolean isAsciiSafe(String charset) {
        if (charset == null) {
            return false;
        }
        String lower = charset.toLowerCase(java.util.Locale.ROOT);
        return !NOT_ASCII_SAFE.contains(lower) && isIntroducer(lower.getBytes(StandardCharsets.US_ASCII), 0,
                lower.length());
    }

    /** Character sets that write ASCII characters as other bytes than ASCII's (two or four bytes each). */
    private static final java.util.Set<String> WIDE = java.util.Set.of("ucs2", "utf16", "utf16le", "utf32", "filename");

    /**
     * Whether a character set (an introducer's) writes every ASCII character as its ASCII byte and
     * every other character with bytes from 0x80 up at its start, so digits and spaces read from its
     * bytes alone; unknown names are not.
     */
    public static boolean asciiCompatible(String charset) {
        String lower = charset.toLowerCase(java.util.Locale.ROOT);
        return !WIDE.contains(lower) && isIntroducer(lower.getBytes(StandardCharsets.US_ASCII), 0, lower.length());
    }

    private static byte[][] names(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /** True if {@code sql[start, end)} is a character set name, in any letter case. */
    static boolean isIntroducer(byte[] sql, int start, int end) {
        int length = end - start;
        for (byte[] name : NAMES) {
            if (name.length == length && equalsLower(name, sql, start)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equalsLower(byte[] lower, byte[] sql, int start) {
        for (int i = 0; i < lower.length; i++) {
            int b = sql[start + i];
            if (b >= 'A' && b <= 'Z') {
                b += 32;
            }
            if (b != lower[i]) {
                return false;
            }
        }
        return true;
    }
}
