package io.cleave.router.plan;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Values written as SQL text that every session reads alike, whatever its sql_mode
 * (NO_BACKSLASH_ESCAPES, ANSI_QUOTES) and character set: strings as hex with a character set
 * introducer ({@code _utf8mb4 X'C3A9'}), numbers as plain digits. A statement assembled from them
 * can be parsed again elsewhere (in a stored procedure, under another mode) and mean the same, and
 * no value can end a literal early there.
 */
public final class PortableLiterals {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private PortableLiterals() {
    }

    /**
     * A string value: {@code bytes} in {@code introducer}'s character set when it has one, else in
     * the connection's ({@code connection}; the same bytes under that character set's introducer, so
     * a binary column gets them as the client's own literal gives them). A connection character set
     * no introducer names is read by Java and written as utf8mb4 (the same characters); none at all
     * (null), as binary.
     */
    public static void string(byte[] bytes, String introducer, Charset connection, ByteArrayOutputStream out) {
        String name = io.cleave.router.sql.lex.Charsets.mysqlName(connection);
        if (introducer != null) {
            hex(charsetName(introducer), bytes, out);
        } else if (name != null) {
            hex(name, bytes, out);
        } else if (connection == null) {
            hex("binary", bytes, out);
        } else {
            hex("utf8mb4", new String(bytes, connection).getBytes(StandardCharsets.UTF_8), out);
        }
    }

    /** A hex or bit literal's bytes: {@code 0x..} where the server reads a number, else a string of {@code introducer}. */
    public static void binary(byte[] bytes, boolean number, String introducer, ByteArrayOutputStream out) {
        if (number && bytes.length > 0) {
            out.write('0');
            out.write('x');
            hexDigits(bytes, out);
            return;
        }
        hex(introducer != null ? charsetName(introducer) : "binary", bytes, out);
    }

    /**
     * Whether {@code text} (a number's or a word's spelling) holds only {@code [A-Za-z0-9_.+-]} and
     * spaces, and no {@code --}: nothing in it can quote, escape or comment in any session.
     */
    public static boolean plain(byte[] text) {
        for (int i = 0; i < text.length; i++) {
            byte b = text[i];
            boolean ok = b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '.'
                    || b == '+' || b == ' ' || b == '-' && (i == 0 || text[i - 1] != '-');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** An introducer's character set name as the lexer found it (letters and digits), without its underscore. */
    private static String charsetName(String introducer) {
        String name = introducer.toLowerCase(java.util.Locale.ROOT);
        name = name.startsWith("_") ? name.substring(1) : name;
        return name.matches("[a-z0-9]+") ? name : "binary";
    }

    private static void hex(String charset, byte[] bytes, ByteArrayOutputStream out) {
        out.write('_');
        byte[] name = charset.getBytes(StandardCharsets.US_ASCII);
        out.write(name, 0, name.length);
        out.write(' ');
        out.write('X');
        out.write('\'');
        hexDigits(bytes, out);
        out.write('\'');
    }

    /** {@code bytes} as hex digits, two per byte. */
    public static void hexDigits(byte[] bytes, ByteArrayOutputStream out) {
        for (byte b : bytes) {
            out.write(HEX[(b >> 4) & 0xf]);
            out.write(HEX[b & 0xf]);
        }
    }
}
