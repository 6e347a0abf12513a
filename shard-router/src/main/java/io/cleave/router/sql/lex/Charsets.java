package io.cleave.router.sql.lex;

import java.nio.charset.StandardCharsets;

/** MySQL/MariaDB character set names, to tell {@code _utf8mb4'x'} (an introducer) from a column {@code _x}. */
final class Charsets {

    private static final byte[][] NAMES = names(
            "armscii8", "ascii", "big5", "binary", "cp1250", "cp1251", "cp1256", "cp1257", "cp850", "cp852",
            "cp866", "cp932", "dec8", "eucjpms", "euckr", "filename", "gb18030", "gb2312", "gbk", "geostd8",
            "greek", "hebrew", "hp8", "keybcs2", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7",
            "macce", "macroman", "sjis", "swe7", "tis620", "ucs2", "ujis", "utf16", "utf16le", "utf32", "utf8",
            "utf8mb3", "utf8mb4");

    private Charsets() {
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
