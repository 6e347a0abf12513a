package io.cleave.proxy.session;

import java.util.HashMap;
import java.util.Map;

/**
 * The collation ids a handshake can carry (one byte) for the character sets clients actually
 * use, shared by MySQL 8 and MariaDB. An id outside this table falls back to utf8mb4 with the
 * server's default collation.
 */
public final class Collations {

    private static final Map<Integer, Charset> BY_ID = new HashMap<>();

    static {
        add(1, "big5", "big5_chinese_ci");
        add(8, "latin1", "latin1_swedish_ci");
        add(11, "ascii", "ascii_general_ci");
        add(13, "sjis", "sjis_japanese_ci");
        add(28, "gbk", "gbk_chinese_ci");
        add(33, "utf8mb3", "utf8mb3_general_ci");
        add(45, "utf8mb4", "utf8mb4_general_ci");
        add(46, "utf8mb4", "utf8mb4_bin");
        add(47, "latin1", "latin1_bin");
        add(48, "latin1", "latin1_general_ci");
        add(63, "binary", "binary");
        add(65, "ascii", "ascii_bin");
        add(83, "utf8mb3", "utf8mb3_bin");
        add(192, "utf8mb3", "utf8mb3_unicode_ci");
        add(224, "utf8mb4", "utf8mb4_unicode_ci");
        add(246, "utf8mb4", "utf8mb4_unicode_520_ci");
        add(255, "utf8mb4", "utf8mb4_0900_ai_ci");
    }

    private Collations() {
    }

    private static void add(int id, String charset, String collation) {
        BY_ID.put(id, new Charset(charset, collation));
    }

    /** The charset for a handshake collation id, or null when unknown. */
    public static Charset byId(int id) {
        return BY_ID.get(id);
    }
}
