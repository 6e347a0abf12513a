package io.cleave.manager.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes written the way my.cnf writes them: {@code 512M}, {@code 4G}, or plain bytes. */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMGT]?)B?", Pattern.CASE_INSENSITIVE);

    private ByteSize() {
    }

    /** @throws IllegalArgumentException with a message saying what would be valid */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text
                    + "' is not a size: expected a whole number with an optional K, M, G or T suffix, e.g. 512M or 4G");
        }
        long value = Long.parseLong(m.group(1));
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        if (value > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        return value << shift;
    }

    /** The shortest exact form: 256M rather than 268435456. */
    public static String format(long bytes) {
        String[] units = {"T", "G", "M", "K"};
        int[] shifts = {40, 30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << shifts[i];
            if (bytes >= unit && bytes % unit == 0) {
                return (bytes / unit) + units[i];
            }
        }
        return Long.toString(bytes);
    }
}
