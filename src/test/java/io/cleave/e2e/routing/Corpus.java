package io.cleave.e2e.routing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of the differential test, one per line of a resource file. A line is SQL,
 * optionally preceded by options in brackets, separated by semicolons:
 *
 * <pre>
 * SELECT ... ORDER BY a, id                  rows compared in order (the statement has ORDER BY)
 * SELECT ...                                 rows compared as a multiset (no ORDER BY)
 * [prefix 2] SELECT a, b, c ... ORDER BY a, b  ordered by the first 2 columns only: ties in any order
 * [fold] SELECT DISTINCT name ...            strings compared up to case and accents (which of several
 *                                            collation-equal values a group shows is not defined)
 * [unordered] ...                            a multiset even though the text has ORDER BY (in a subquery)
 * [noparam] ...                              with server prepared statements, keep literals in the text
 * [refused 1235: not co-located] ...         the proxy must refuse it with this code and message fragment
 * </pre>
 *
 * INSERT, REPLACE, UPDATE and DELETE are writes: their counts are compared, then the whole written
 * table on both sides. BEGIN, COMMIT, ROLLBACK and SET run as plain statements. Lines starting
 * with {@code #} are comments.
 */
record Corpus(List<Corpus.Entry> entries) {

    enum Kind { READ, WRITE, SESSION }

    /**
     * One statement of the corpus.
     *
     * @param prefix  for ordered reads: how many leading columns are the sort key (-1: the whole row)
     * @param refusal null unless the proxy must refuse the statement
     */
    record Entry(int line, String sql, Kind kind, boolean ordered, int prefix, boolean fold, boolean parameterize,
                 Refusal refusal, Refusal preparedRefusal) {

        Entry(int line, String sql, Kind kind, boolean ordered, int prefix, boolean fold, boolean parameterize,
              Refusal refusal) {
            this(line, sql, kind, ordered, prefix, fold, parameterize, refusal, null);
        }

        /** The refusal expected in the text run, or in the prepared-statement run. */
        Refusal refusal(boolean prepared) {
            return prepared && preparedRefusal != null ? preparedRefusal : refusal;
        }

        /** The table a write changes (after INSERT/REPLACE INTO, UPDATE, DELETE FROM). */
        String writtenTable() {
            Matcher m = WRITTEN_TABLE.matcher(sql);
            if (!m.find()) {
                throw new IllegalStateException("line " + line + ": cannot tell which table this write changes: " + sql);
            }
            return m.group(1).replace("`", "").toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return "line " + line + ": " + sql;
        }
    }

    /** How the proxy must refuse a statement. */
    record Refusal(int code, String fragment) {
    }

    private static final Pattern WRITTEN_TABLE = Pattern.compile(
            "^\\s*(?:INSERT(?:\\s+IGNORE)?(?:\\s+INTO)?|REPLACE(?:\\s+INTO)?|UPDATE|DELETE(?:\\s+\\w+)?\\s+FROM)\\s+([`\\w]+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern REFUSED = Pattern.compile("refused\\s+(\\d+)\\s*:\\s*(.+)");

    static Corpus load(String resource) throws IOException {
        try (InputStream in = Corpus.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static Corpus parse(String text) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            entries.add(entry(i + 1, line));
        }
        return new Corpus(entries);
    }

    private static Entry entry(int number, String line) {
        int prefix = -1;
        boolean fold = false;
        boolean unordered = false;
        boolean parameterize = true;
        Refusal refusal = null;
        Refusal preparedRefusal = null;
        String sql = line;
        if (line.startsWith("[")) {
            int close = line.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("line " + number + ": options without ']'");
            }
            for (String option : line.substring(1, close).split(";")) {
                String o = option.strip();
                Matcher refused = REFUSED.matcher(o);
                if (o.startsWith("prefix ")) {
                    prefix = Integer.parseInt(o.substring(7).strip());
                } else if (o.equals("fold")) {
                    fold = true;
                } else if (o.equals("unordered")) {
                    unordered = true;
                } else if (o.equals("noparam")) {
                    parameterize = false;
                } else if (o.startsWith("prepared ") && REFUSED.matcher(o.substring(9)).matches()) {
                    Matcher p = REFUSED.matcher(o.substring(9));
                    p.matches();
                    preparedRefusal = new Refusal(Integer.parseInt(p.group(1)), p.group(2).strip());
                } else if (refused.matches()) {
                    refusal = new Refusal(Integer.parseInt(refused.group(1)), refused.group(2).strip());
                } else {
                    throw new IllegalArgumentException("line " + number + ": unknown option '" + o + "'");
                }
            }
            sql = line.substring(close + 1).strip();
        }
        String first = sql.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        Kind kind = switch (first) {
            case "INSERT", "REPLACE", "UPDATE", "DELETE" -> Kind.WRITE;
            case "BEGIN", "START", "COMMIT", "ROLLBACK", "SET", "SAVEPOINT" -> Kind.SESSION;
            default -> Kind.READ;
        };
        boolean ordered = kind == Kind.READ && !unordered && (prefix > 0
                || sql.toUpperCase(Locale.ROOT).contains("ORDER BY"));
        Entry entry = new Entry(number, sql, kind, ordered, prefix, fold, parameterize, refusal, preparedRefusal);
        if (kind == Kind.WRITE && refusal == null) {
            entry.writtenTable();
        }
        return entry;
    }
}
