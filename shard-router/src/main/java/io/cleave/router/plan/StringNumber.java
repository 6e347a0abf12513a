package io.cleave.router.plan;

import java.math.BigDecimal;

/**
 * The number a string is read as where the server compares it with an integer column or stores it
 * in one: leading whitespace (space, tab, newline, vertical tab, form feed, carriage return) is
 * skipped, then the longest prefix of the form {@code [+-]digits[.digits][e[+-]digits]} is the
 * number; what follows is ignored (with a warning, or an error when strict mode stores it), and a
 * string with no digits there reads as 0. So {@code '470abc'}, {@code ' 4.7e2'} and {@code '470e'}
 * are 470, {@code '0x1D6'} and {@code 'abc'} are 0, {@code '4.7e'} is 4.7. Seen on MariaDB 10.11 and
 * 11.4; MySQL reads the same prefix.
 * <p>
 * Works on the string's bytes: every character set a client can use keeps ASCII digits and
 * whitespace as single bytes, and a multibyte character starts with a byte from 0x80 up, which
 * ends the number. Only readings the servers agree on are given: a mantissa longer than a
 * DECIMAL holds, or an exponent beyond its range, reads as null (the server rounds or overflows
 * it).
 */
final class StringNumber {

    /** Significant digits of a DECIMAL's fraction, and a bound on the exponent the readings keep exact. */
    private static final int MAX_DIGITS = 38;

    /**
     * @param value the number the string reads as
     * @param whole whether the number is the whole string (whitespace around it aside), so no
     *              server reads anything else from it
     */
    record Reading(BigDecimal value, boolean whole) {
    }

    private StringNumber() {
    }

    /** The reading of {@code bytes}, or null when the servers may read it differently (see the class comment). */
    static Reading read(byte[] bytes) {
        int p = 0;
        int end = bytes.length;
        while (p < end && space(bytes[p])) {
            p++;
        }
        int start = p;
        if (p < end && (bytes[p] == '+' || bytes[p] == '-')) {
            p++;
        }
        int digitsFrom = p;
        while (p < end && digit(bytes[p])) {
            p++;
        }
        int intDigits = p - digitsFrom;
        int fractionDigits = 0;
        if (p < end && bytes[p] == '.') {
            int dot = p++;
            while (p < end && digit(bytes[p])) {
                p++;
            }
            fractionDigits = p - dot - 1;
        }
        if (intDigits + fractionDigits == 0) {
            return new Reading(BigDecimal.ZERO, false);
        }
        int mantissaEnd = p;
        int exponent = 0;
        if (p < end && (bytes[p] == 'e' || bytes[p] == 'E')) {
            int q = p + 1;
            boolean negative = false;
            if (q < end && (bytes[q] == '+' || bytes[q] == '-')) {
                negative = bytes[q] == '-';
                q++;
            }
            int expFrom = q;
            while (q < end && digit(bytes[q]) && q - expFrom <= 3) {
                exponent = exponent * 10 + (bytes[q] - '0');
                q++;
            }
            if (q > expFrom) {
                if (q < end && digit(bytes[q]) || exponent > MAX_DIGITS) {
                    return null;
                }
                exponent = negative ? -exponent : exponent;
                p = q;
            }
        }
        if (significantDigits(bytes, digitsFrom, mantissaEnd) > MAX_DIGITS) {
            return null;
        }
        int rest = p;
        while (rest < end && space(bytes[rest])) {
            rest++;
        }
        String mantissa = new String(bytes, start, mantissaEnd - start, java.nio.charset.StandardCharsets.US_ASCII);
        if (mantissa.endsWith(".")) {
            mantissa = mantissa.substring(0, mantissa.length() - 1);
        }
        if (mantissa.startsWith(".") || mantissa.startsWith("+.") || mantissa.startsWith("-.")) {
            mantissa = mantissa.replace(".", "0.");
        }
        BigDecimal value = new BigDecimal(mantissa).scaleByPowerOfTen(exponent);
        return new Reading(value, rest == end);
    }

    /** Digits of the mantissa without its leading zeros (the dot skipped). */
    private static int significantDigits(byte[] bytes, int from, int to) {
        int p = from;
        while (p < to && (bytes[p] == '0' || bytes[p] == '.')) {
            p++;
        }
        int n = 0;
        for (; p < to; p++) {
            n += digit(bytes[p]) ? 1 : 0;
        }
        return n;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** The servers' whitespace in every ASCII-compatible character set. */
    private static boolean space(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == 0x0C || b == '\r';
    }
}
