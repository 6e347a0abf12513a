package io.cleave.proxy.accounts;

import java.util.Locale;

/**
 * The host part of an account as a server matches and ranks it (MariaDB's compare_hostname and
 * get_sort): {@code %} and {@code _} are wildcards ({@code \} escapes one), a name matches the
 * client's host name case-insensitively and its IP address case-sensitively, and
 * {@code ip/netmask} (dotted, as MariaDB takes it) matches IPv4 addresses in that network. The
 * empty host and {@code %} match every client.
 */
final class HostPattern {

    private HostPattern() {
    }

    static boolean matches(String pattern, ClientAddress client) {
        if (pattern.isEmpty() || pattern.equals("%")) {
            return true;
        }
        int slash = pattern.indexOf('/');
        if (slash > 0 && client.ip() != null) {
            long[] network = ipv4(pattern.substring(0, slash));
            long mask = mask(pattern.substring(slash + 1));
            long[] address = ipv4(client.ip());
            if (network != null && mask >= 0 && address != null) {
                return (address[0] & mask) == network[0];
            }
        }
        return client.hostname() != null && wildMatch(client.hostname(), pattern, true)
                || client.ip() != null && wildMatch(client.ip(), pattern, false);
    }

    /**
     * How specific a host or user pattern is, as a server ranks it (higher first): 128 for a name
     * without wildcards, else the position of its first wildcard plus one (at most 127), 0 for the
     * empty string.
     */
    static int specificity(String s) {
        int chars = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                i++;
            } else if (c == '%' || c == '_') {
                return Math.min(i + 1, 127);
            }
            chars = 128;
        }
        return chars;
    }

    /** SQL LIKE matching without a character set: {@code %} any run, {@code _} one character, {@code \} escapes. */
    static boolean wildMatch(String text, String pattern, boolean ignoreCase) {
        if (ignoreCase) {
            text = text.toLowerCase(Locale.ROOT);
            pattern = pattern.toLowerCase(Locale.ROOT);
        }
        return wild(text, 0, pattern, 0);
    }

    private static boolean wild(String t, int ti, String p, int pi) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '%') {
                while (pi < p.length() && p.charAt(pi) == '%') {
                    pi++;
                }
                if (pi == p.length()) {
                    return true;
                }
                for (int k = ti; k <= t.length(); k++) {
                    if (wild(t, k, p, pi)) {
                        return true;
                    }
                }
                return false;
            }
            if (ti >= t.length()) {
                return false;
            }
            if (c == '_') {
                ti++;
                pi++;
                continue;
            }
            if (c == '\\' && pi + 1 < p.length()) {
                pi++;
                c = p.charAt(pi);
            }
            if (t.charAt(ti) != c) {
                return false;
            }
            ti++;
            pi++;
        }
        return ti == t.length();
    }

    /** The four octets of a dotted IPv4 address as one number, or null. */
    private static long[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        long value = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                return null;
            }
            value = value << 8 | octet;
        }
        return new long[] {value};
    }

    /** A dotted netmask, or -1. */
    private static long mask(String text) {
        long[] dotted = ipv4(text);
        return dotted == null ? -1 : dotted[0];
    }
}
