package io.cleave.e2e.routing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one statement gave on one side: its result set (column labels, JDBC types, values as text),
 * its update count, or its error. Comparable with another side's outcome under a corpus entry's
 * rules (order, ties, folding).
 */
sealed interface Outcome permits Outcome.Rows, Outcome.Count, Outcome.Failure {

    /** A result column as JDBC reports it. */
    record Column(String label, int type, String typeName, int precision, int scale, boolean signed) {
        @Override
        public String toString() {
            return label + " " + typeName + "(" + precision + "," + scale + ")" + (signed ? "" : " unsigned");
        }
    }

    record Rows(List<Column> columns, List<List<String>> rows) implements Outcome {
    }

    record Count(long count) implements Outcome {
    }

    record Failure(int code, String sqlState, String message) implements Outcome {
    }

    /** Runs {@code sql}, which must succeed (setting up a test). */
    static void must(Connection c, String sql) {
        Outcome o = run(c, sql);
        if (o instanceof Failure f) {
            throw new AssertionError(sql + " failed: " + f.code() + " " + f.message());
        }
    }

    /**
     * How a whole table differs between the plain server and the proxy (rows as a multiset,
     * whatever sql_select_limit the sessions have), or null when it does not.
     */
    static String tableDifference(Connection ref, Connection proxy, String table) {
        String sql = "SELECT * FROM " + table + " LIMIT 18446744073709551615";
        Corpus.Entry entry = new Corpus.Entry(0, sql, Corpus.Kind.READ, false, -1, false, false, null);
        return difference(entry, run(ref, sql), run(proxy, sql));
    }

    /** Runs {@code sql} as a plain statement (text protocol). */
    /**
     * How {@code sql} through the proxy differs from the plain server's answer (in order when
     * {@code ordered}), or null when they agree; the plain server must answer with rows.
     */
    static String sameAnswer(Connection ref, Connection proxy, String sql, boolean ordered) {
        Outcome expected = run(ref, sql);
        if (!(expected instanceof Rows)) {
            return "the plain server does not answer with rows: " + expected;
        }
        Corpus.Entry entry = new Corpus.Entry(0, sql, Corpus.Kind.READ, ordered, -1, false, false, null);
        return difference(entry, expected, run(proxy, sql));
    }

    static Outcome run(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            boolean rows = s.execute(sql);
            return rows ? rows(s.getResultSet()) : new Count(s.getUpdateCount());
        } catch (SQLException e) {
            return new Failure(e.getErrorCode(), e.getSQLState(), e.getMessage());
        }
    }

    /** Runs {@code sql} as a server prepared statement with {@code values} bound to its placeholders. */
    static Outcome runPrepared(Connection c, String sql, List<Object> values) {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                s.setObject(i + 1, values.get(i));
            }
            boolean rows = s.execute();
            return rows ? rows(s.getResultSet()) : new Count(s.getUpdateCount());
        } catch (SQLException e) {
            return new Failure(e.getErrorCode(), e.getSQLState(), e.getMessage());
        }
    }

    private static Rows rows(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            columns.add(new Column(md.getColumnLabel(i), md.getColumnType(i), md.getColumnTypeName(i),
                    md.getPrecision(i), md.getScale(i), md.isSigned(i)));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                row.add(value(rs, i, columns.get(i - 1).type()));
            }
            rows.add(row);
        }
        return new Rows(columns, rows);
    }

    private static String value(ResultSet rs, int i, int type) throws SQLException {
        if (type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY || type == Types.BLOB) {
            byte[] b = rs.getBytes(i);
            return b == null ? null : "0x" + HexFormat.of().formatHex(b);
        }
        return rs.getString(i);
    }

    /**
     * Why {@code actual} (the proxy's) differs from {@code expected} (the plain server's) under
     * the entry's rules, or null when they agree.
     */
    static String difference(Corpus.Entry entry, Outcome expected, Outcome actual) {
        if (expected instanceof Failure e) {
            if (actual instanceof Failure a && a.code() == e.code()) {
                return null;
            }
            return "the server failed with " + e.code() + " (" + e.message() + ") but the proxy gave " + brief(actual);
        }
        if (expected instanceof Count e) {
            if (actual instanceof Count a && a.count() == e.count()) {
                return null;
            }
            return "the server counted " + e.count() + " but the proxy gave " + brief(actual);
        }
        Rows e = (Rows) expected;
        if (!(actual instanceof Rows a)) {
            return "the server returned " + e.rows().size() + " rows but the proxy gave " + brief(actual);
        }
        if (!sameColumns(e.columns(), a.columns())) {
            return "columns differ: server " + e.columns() + ", proxy " + a.columns();
        }
        List<List<String>> x = entry.fold() ? fold(e.rows()) : e.rows();
        List<List<String>> y = entry.fold() ? fold(a.rows()) : a.rows();
        if (x.size() != y.size()) {
            return "the server returned " + x.size() + " rows, the proxy " + y.size() + firstDifference(x, y);
        }
        if (entry.ordered()) {
            int width = entry.prefix() > 0 ? entry.prefix() : Integer.MAX_VALUE;
            for (int i = 0; i < x.size(); i++) {
                List<String> xr = x.get(i).subList(0, Math.min(width, x.get(i).size()));
                List<String> yr = y.get(i).subList(0, Math.min(width, y.get(i).size()));
                if (!xr.equals(yr)) {
                    return "row " + (i + 1) + " differs in order: server " + xr + ", proxy " + yr;
                }
            }
        }
        Map<List<String>, Integer> bag = multiset(x);
        for (List<String> row : y) {
            Integer left = bag.get(row);
            if (left == null) {
                return "the proxy returned a row the server did not: " + row + firstDifference(x, y);
            }
            if (left == 1) {
                bag.remove(row);
            } else {
                bag.put(row, left - 1);
            }
        }
        return null;
    }

    /**
     * Labels, types, scale and signedness must agree; so must precision, except for an expression
     * with a placeholder: the server derives its precision from the bound parameter's type, while
     * the shards of a merged statement get the value as a literal.
     */
    private static boolean sameColumns(List<Column> expected, List<Column> actual) {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            Column e = expected.get(i);
            Column a = actual.get(i);
            boolean precision = e.precision() == a.precision() || e.label().contains("?");
            if (!e.label().equals(a.label()) || e.type() != a.type() || !e.typeName().equals(a.typeName())
                    || e.scale() != a.scale() || e.signed() != a.signed() || !precision) {
                return false;
            }
        }
        return true;
    }

    private static String brief(Outcome o) {
        if (o instanceof Failure f) {
            return "error " + f.code() + " (" + f.message() + ")";
        }
        if (o instanceof Count c) {
            return "count " + c.count();
        }
        return ((Rows) o).rows().size() + " rows";
    }

    private static String firstDifference(List<List<String>> x, List<List<String>> y) {
        Map<List<String>, Integer> onlyX = multiset(x);
        List<List<String>> onlyY = new ArrayList<>();
        for (List<String> row : y) {
            Integer left = onlyX.get(row);
            if (left == null) {
                onlyY.add(row);
            } else if (left == 1) {
                onlyX.remove(row);
            } else {
                onlyX.put(row, left - 1);
            }
        }
        return "; only on the server: " + head(new ArrayList<>(onlyX.keySet())) + "; only through the proxy: " + head(onlyY);
    }

    private static String head(List<List<String>> rows) {
        List<List<String>> shown = new ArrayList<>();
        for (List<String> row : rows.subList(0, Math.min(5, rows.size()))) {
            List<String> r = new ArrayList<>();
            for (String v : row) {
                r.add(v == null || v.length() <= 24 ? v : v.substring(0, 21) + "...");
            }
            shown.add(r);
        }
        return shown + (rows.size() > 5 ? " and " + (rows.size() - 5) + " more" : "");
    }

    private static Map<List<String>, Integer> multiset(List<List<String>> rows) {
        Map<List<String>, Integer> bag = new LinkedHashMap<>();
        for (List<String> r : rows) {
            bag.merge(r, 1, Integer::sum);
        }
        return bag;
    }

    /**
     * Strings up to case, accents and the letters the UCA collations equate with others (ß is ss,
     * Ł is l, Æ is ae, Ø is o), and without trailing spaces: as utf8mb4_uca1400_ai_ci sees them.
     */
    private static List<List<String>> fold(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows.size());
        for (List<String> r : rows) {
            List<String> folded = new ArrayList<>(r.size());
            for (String v : r) {
                folded.add(v == null ? null : fold(v));
            }
            out.add(folded);
        }
        return out;
    }

    private static String fold(String v) {
        String s = Normalizer.normalize(v.stripTrailing(), Normalizer.Form.NFKD).replaceAll("\\p{M}", "")
                .toLowerCase(Locale.ROOT);
        return s.replace("ß", "ss").replace("ł", "l").replace("æ", "ae").replace("ø", "o").replace("œ", "oe");
    }

    static boolean sameRows(Outcome a, Outcome b) {
        return a instanceof Rows x && b instanceof Rows y && Objects.equals(multiset(x.rows()), multiset(y.rows()));
    }
}
