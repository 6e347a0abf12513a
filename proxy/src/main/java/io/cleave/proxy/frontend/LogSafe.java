package io.cleave.proxy.frontend;

/**
 * Text a client chose (a user name, a schema, SQL quoted back in a shard's error) made safe for
 * a one-line log: control characters, line and paragraph separators are escaped, so a client
 * cannot forge log lines, and the text is cut to a readable length.
 */
public final class LogSafe {

    /** Characters kept of client text in a log line. */
    static final int MAX_CHARS = 200;

    private LogSafe() {
    }

    public static String text(String s) {
        if (s == null) {
            return "null";
        }
        int end = Math.min(s.length(), MAX_CHARS);
        StringBuilder out = null;
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            String escaped = escape(c);
            if (escaped != null && out == null) {
                out = new StringBuilder(end + 16).append(s, 0, i);
            }
            if (out != null) {
                if (escaped != null) {
                    out.append(escaped);
                } else {
                    out.append(c);
                }
            }
        }
        String kept = out != null ? out.toString() : s.substring(0, end);
        return end < s.length() ? kept + "...(" + s.length() + " chars)" : kept;
    }

    private static String escape(char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            case '\\':
                return "\\\\";
            default:
                break;
        }
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
            return String.format("\\x%02x", (int) c);
        }
        if (c == '\u2028' || c == '\u2029') {
            return String.format("\\u%04x", (int) c);
        }
        return null;
    }
}
