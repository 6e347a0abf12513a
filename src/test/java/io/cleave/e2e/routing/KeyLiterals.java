package io.cleave.e2e.routing;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

/**
 * Sharding-key literals in the forms a server reads in the key column's context, for the
 * generated differential test: against an integer key, hex and bit literals (a number in prefix
 * form and as B'..', a string as X'..' or with an introducer), quoted numbers with spaces, signs,
 * fractions, exponents and trailing text, decimals and doubles, signs, {@code _binary} and other
 * introducers, COLLATE, digits and spaces outside ASCII (which read as 0); against a string key, case, trailing spaces, hex and binary strings,
 * introducers and collations. Some of them read as another key than the one they were made from
 * ({@code 'abc'} and {@code X'01D6'} as 0, {@code '12.5'} as no integer at all): the proxy must
 * find what one server finds either way.
 */
final class KeyLiterals {

    private KeyLiterals() {
    }

    /** A literal an integer key column is compared with, made from {@code k} (a key that has rows). */
    static String integer(Random r, int k) {
        String digits = Integer.toString(k);
        String hex = Integer.toHexString(k).toUpperCase(java.util.Locale.ROOT);
        String evenHex = hex.length() % 2 == 1 ? "0" + hex : hex;
        return switch (r.nextInt(32)) {
            case 0 -> "0x" + hex;
            case 1 -> "X'" + evenHex + "'";
            case 2 -> "x'" + HexFormat.of().formatHex(digits.getBytes(StandardCharsets.US_ASCII)) + "'";
            case 3 -> "b'" + Integer.toBinaryString(k) + "'";
            case 4 -> "0b" + Integer.toBinaryString(k);
            case 5 -> "'" + digits + "'";
            case 6 -> "' " + digits + "'";
            case 7 -> "'\\t" + digits + " '";
            case 8 -> "'" + digits + "abc'";
            case 9 -> "'" + scientific(k) + "'";
            case 10 -> "'" + digits + ".0'";
            case 11 -> "'" + digits + ".5'";
            case 12 -> digits + ".0";
            case 13 -> digits + ".5";
            case 14 -> scientific(k);
            case 15 -> digits + "0e-1";
            case 16 -> "+" + digits;
            case 17 -> "-0";
            case 18 -> "_binary'" + digits + "'";
            case 19 -> "_binary 0x" + evenHex;
            case 20 -> "'" + digits + "' COLLATE utf8mb4_bin";
            case 21 -> "N'" + digits + "'";
            case 22 -> "'abc'";
            case 23 -> "'0x" + hex + "'";
            case 24 -> "'+" + digits + "e0'";
            case 25 -> "'" + digits + "e'";
            case 26 -> "_latin1'" + digits + "'";
            case 27 -> "'- " + digits + "'";
            case 28 -> "''";
            case 29 -> "'" + arabicIndic(digits) + "'";
            case 30 -> "'\u2003" + digits + "'";
            default -> "0" + digits;
        };
    }

    /** Digits no server reads as a number (Java's BigDecimal does), so the string reads as 0. */
    private static String arabicIndic(String digits) {
        StringBuilder out = new StringBuilder();
        for (char c : digits.toCharArray()) {
            out.append((char) ('\u0660' + (c - '0')));
        }
        return out.toString();
    }

    /** {@code k} written with an exponent: 47 as 4.7e1, 5 as 5e0. */
    private static String scientific(int k) {
        String digits = Integer.toString(k);
        return digits.length() == 1 ? digits + "e0" : digits.charAt(0) + "." + digits.substring(1) + "e" + (digits.length() - 1);
    }

    /** A literal a string key column is compared with, made from {@code value} (ASCII or not). */
    static String string(Random r, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        String hex = HexFormat.of().withUpperCase().formatHex(utf8);
        return switch (r.nextInt(16)) {
            case 0 -> "'" + value.toUpperCase(java.util.Locale.ROOT) + "'";
            case 1 -> "'" + value + "  '";
            case 2 -> "0x" + hex;
            case 3 -> "X'" + hex + "'";
            case 4 -> "_binary'" + value + "'";
            case 5 -> "_utf8mb4 X'" + hex + "'";
            case 6 -> "'" + value + "' COLLATE utf8mb4_bin";
            case 7 -> "'" + value + "' COLLATE utf8mb4_unicode_ci";
            case 8 -> "'" + value + "' COLLATE utf8mb4_german2_ci";
            case 9 -> "N'" + value + "'";
            case 10 -> "_utf8mb4'" + value + "' COLLATE utf8mb4_general_ci";
            case 11 -> "b'" + bits(utf8) + "'";
            case 12 -> "12";
            case 13 -> "'12.0'";
            default -> "'" + value + "'";
        };
    }

    private static String bits(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            String s = Integer.toBinaryString(b & 0xFF);
            out.append("0".repeat(8 - s.length())).append(s);
        }
        return out.toString();
    }
}
