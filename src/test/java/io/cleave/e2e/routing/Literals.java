package io.cleave.e2e.routing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a statement's literals into placeholders with their values, so that the server
 * prepared-statement run binds values at execute time (the proxy resolves shards from bound
 * values, not from the text). Literals that are not values stay in the text: ORDER BY / GROUP BY
 * positions, type lengths as in {@code DECIMAL(10,2)}, and prefixed literals ({@code X'0A'},
 * {@code _utf8mb4'x'}, {@code 0x0A}, {@code 0b1010}); a {@code _binary'x'} string is bound as bytes.
 * Strings are bound as strings and numbers as what they are written as (an integer, a DECIMAL, a
 * double with an exponent), whatever the column they are compared with.
 */
final class Literals {

    /** A statement with placeholders and the values to bind, in order. */
    record Parameterized(String sql, List<Object> values) {
    }

    private static final Set<String> TYPES = Set.of("DECIMAL", "CHAR", "VARCHAR", "BINARY", "VARBINARY", "DATETIME",
            "TIME", "TIMESTAMP", "NUMERIC", "FLOAT", "DOUBLE");
    private static final Set<String> ENDS_BY_LIST = Set.of("LIMIT", "HAVING", "FROM", "WHERE", "UNION", "FOR", "LOCK",
            "WINDOW", "INTO", "SELECT");

    private Literals() {
    }

    static Parameterized parameterize(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Object> values = new ArrayList<>();
        boolean inByList = false;
        int typeParens = 0;
        String lastWord = "";
        char lastSymbol = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = stringEnd(sql, i);
                boolean prefixed = lastSymbol == 'w' && (lastWord.equals("X") || lastWord.equals("B")
                        || lastWord.equals("N") || lastWord.startsWith("_")) && i > 0 && sql.charAt(i - 1) != ' ';
                if (prefixed && lastWord.equals("_BINARY") && !inByList) {
                    // A binary string goes as bytes (bound as a BLOB).
                    out.setLength(out.length() - lastWord.length());
                    out.append('?');
                    values.add(unquote(sql.substring(i, end)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } else if (prefixed || inByList) {
                    out.append(sql, i, end);
                } else {
                    out.append('?');
                    values.add(unquote(sql.substring(i, end)));
                }
                i = end;
                lastSymbol = 's';
                continue;
            }
            if (c == '`') {
                int end = sql.indexOf('`', i + 1) + 1;
                out.append(sql, i, end);
                i = end;
                lastSymbol = 'w';
                lastWord = "";
                continue;
            }
            if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int end = numberEnd(sql, i);
                String number = sql.substring(i, end);
                boolean keep = inByList || typeParens > 0 || number.startsWith("0x") || number.startsWith("0b");
                if (keep) {
                    out.append(number);
                } else {
                    out.append('?');
                    values.add(number(number));
                }
                i = end;
                lastSymbol = 'n';
                continue;
            }
            if (Character.isLetter(c) || c == '_' || c == '@') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '@' || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end).toUpperCase(Locale.ROOT);
                out.append(sql, i, end);
                if (word.equals("BY")) {
                    inByList = true;
                } else if (ENDS_BY_LIST.contains(word)) {
                    inByList = false;
                }
                lastWord = word;
                lastSymbol = 'w';
                i = end;
                continue;
            }
            if (c == '(' && lastSymbol == 'w' && TYPES.contains(lastWord)) {
                typeParens++;
            } else if (c == ')' && typeParens > 0) {
                typeParens--;
            } else if (c == ')' && inByList) {
                // The end of a subquery's ORDER/GROUP BY list.
                inByList = false;
            }
            out.append(c);
            if (!Character.isWhitespace(c)) {
                lastSymbol = c;
            }
            i++;
        }
        return new Parameterized(out.toString(), values);
    }

    private static int stringEnd(String sql, int start) {
        char quote = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("unterminated string in " + sql);
    }

    private static String unquote(String literal) {
        char quote = literal.charAt(0);
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < literal.length() - 1; i++) {
            char c = literal.charAt(i);
            if (c == '\\' && i + 1 < literal.length() - 1) {
                char next = literal.charAt(++i);
                sb.append(switch (next) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case '0' -> '\0';
                    default -> next;
                });
            } else if (c == quote) {
                sb.append(c);
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static int numberEnd(String sql, int start) {
        int i = start;
        if (sql.startsWith("0x", i) || sql.startsWith("0b", i)) {
            int radix = sql.charAt(i + 1) == 'x' ? 16 : 2;
            i += 2;
            while (i < sql.length() && Character.digit(sql.charAt(i), radix) >= 0) {
                i++;
            }
            return i;
        }
        while (i < sql.length() && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
            i++;
        }
        if (i < sql.length() && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            i++;
            if (i < sql.length() && (sql.charAt(i) == '-' || sql.charAt(i) == '+')) {
                i++;
            }
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    private static Object number(String text) {
        if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException tooBig) {
                return new BigDecimal(text);
            }
        }
        if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
            return Double.parseDouble(text);
        }
        return new BigDecimal(text);
    }
}
