package io.cleave.proxy.evaluate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One table whose rows an evaluation gathers: its definition as a temporary table of the same
 * name (so it shadows the base table in that one session), the SELECT that reads its rows on a
 * shard with every value in a form that travels exactly ({@link ColumnCopy}), and the INSERTs
 * that write them back.
 */
public final class TableCopy {

    private final String qualified;
    private final List<ColumnCopy> columns;
    private final String temporaryDdl;

    private TableCopy(String qualified, List<ColumnCopy> columns, String temporaryDdl) {
        this.qualified = qualified;
        this.columns = List.copyOf(columns);
        this.temporaryDdl = temporaryDdl;
    }

    /** The two statements that describe the table: SHOW CREATE TABLE, then its columns in order (four columns each). */
    public static List<String> describe(String schema, String table) {
        String inSchema = schema == null ? "DATABASE()" : Sql.string(schema);
        return List.of("SHOW CREATE TABLE " + Sql.table(schema, table),
                "SELECT COLUMN_NAME, DATA_TYPE, EXTRA LIKE '%GENERATED%', 0 FROM information_schema.COLUMNS"
                        + " WHERE TABLE_SCHEMA = " + inSchema + " AND TABLE_NAME = " + Sql.string(table)
                        + " ORDER BY ORDINAL_POSITION LIMIT 100000");
    }

    /**
     * The copy of a table from its SHOW CREATE TABLE text and its columns' rows (name, data type,
     * generated). Throws {@link IllegalArgumentException} naming what cannot be copied exactly.
     */
    public static TableCopy of(String schema, String table, String createTable, List<String[]> columnRows) {
        List<ColumnCopy> columns = new ArrayList<>();
        for (String[] row : columnRows) {
            ColumnCopy.Kind kind = ColumnCopy.kindOf(row[1], "1".equals(row[2]));
            if (kind == null) {
                throw new IllegalArgumentException("column " + table + "." + row[0] + " of type " + row[1]
                        + " cannot be copied between shards exactly");
            }
            columns.add(new ColumnCopy(row[0], kind));
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no columns found for " + table);
        }
        String qualified = Sql.table(schema, table);
        String ddl = temporary(qualified, table, createTable);
        int defined = 0;
        for (String line : ddl.split("\n")) {
            defined += line.startsWith("  `") || line.startsWith("  \"") ? 1 : 0;
        }
        if (defined != columns.size()) {
            // The definition and the column list were read apart: never copy a table they disagree on.
            throw new IllegalArgumentException(table + "'s definition and its columns did not read alike");
        }
        return new TableCopy(qualified, columns, ddl);
    }

    /**
     * CREATE TEMPORARY TABLE with the base table's columns, keys and options (so types, collations
     * and the optimizer's indexes are the same), without what a temporary table cannot have:
     * foreign keys and partitions. System-versioned tables are not copied.
     */
    static String temporary(String qualified, String table, String createTable) {
        // Under ANSI_QUOTES the server quotes names with double quotes; either reads back in that session.
        String head = "CREATE TABLE " + Sql.identifier(table) + " (";
        String ansi = "CREATE TABLE \"" + table.replace("\"", "\"\"") + "\" (";
        if (createTable.startsWith(ansi)) {
            head = ansi;
        } else if (!createTable.startsWith(head)) {
            throw new IllegalArgumentException(table + " is not a plain table (" + firstWords(createTable) + ")");
        }
        String[] lines = createTable.substring(head.length()).split("\n");
        List<String> definitions = new ArrayList<>();
        String tail = null;
        for (String line : lines) {
            if (line.startsWith(")")) {
                tail = line;
                break;
            }
            String d = line.strip();
            if (d.endsWith(",")) {
                d = d.substring(0, d.length() - 1);
            }
            String upper = d.toUpperCase(Locale.ROOT);
            if (d.isEmpty() || upper.startsWith("FOREIGN KEY") || upper.startsWith("CONSTRAINT ") && upper.contains(" FOREIGN KEY ")) {
                continue;
            }
            if ((upper.contains(" ENUM(") || upper.contains(" SET(")) && (d.indexOf('?') >= 0 || d.indexOf('\uFFFD') >= 0)) {
                // A member the results' character set could not carry would be another member in the copy.
                throw new IllegalArgumentException("the members of " + table + "'s ENUM or SET column did not read back"
                        + " exactly");
            }
            definitions.add("  " + d);
        }
        if (tail == null || tail.toUpperCase(Locale.ROOT).contains("WITH SYSTEM VERSIONING")) {
            throw new IllegalArgumentException(table + " cannot be copied into a temporary table (system versioned, or"
                    + " an unexpected definition)");
        }
        // The partition clause, on the lines after the options, is left out with them.
        return "CREATE TEMPORARY TABLE " + qualified + " (\n" + String.join(",\n", definitions) + "\n" + tail;
    }

    private static String firstWords(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    public String temporaryDdl() {
        return temporaryDdl;
    }

    /**
     * The statement that creates the copy on the client's connection: through the shard account's
     * procedure (see {@code CleaveSchema}), with the session's sql_mode, as the client's account
     * may lack CREATE TEMPORARY TABLES.
     */
    public String createStatement() {
        return io.cleave.proxy.accounts.CleaveSchema.temporaryTable(Sql.string(temporaryDdl));
    }

    /** The table's name as the statement writes it (quoted). */
    public String qualified() {
        return qualified;
    }

    /**
     * The SELECT that reads the table's rows on one shard: the columns that are stored (generated
     * ones are computed again), each read exactly, at most {@code limit} rows. An explicit LIMIT
     * also keeps the session's sql_select_limit from cutting the rows short. {@code condition}
     * (or null) leaves rows out, e.g. a move's ghost rows.
     */
    public String gatherSelect(String condition, long limit) {
        StringBuilder out = new StringBuilder("SELECT ");
        boolean first = true;
        for (ColumnCopy c : columns) {
            if (c.kind() == ColumnCopy.Kind.GENERATED) {
                continue;
            }
            out.append(first ? "" : ", ").append(c.readExpression());
            first = false;
        }
        out.append(" FROM ").append(qualified);
        if (condition != null) {
            out.append(" WHERE ").append(condition);
        }
        return out.append(" LIMIT ").append(limit).toString();
    }

    /** True when reading its values needs the session in UTC while they are written back. */
    public boolean hasTimestamps() {
        return columns.stream().anyMatch(c -> c.kind() == ColumnCopy.Kind.TIMESTAMP);
    }

    /** {@code INSERT INTO t (stored columns) VALUES }. */
    public String insertHead() {
        StringBuilder out = new StringBuilder("INSERT INTO ").append(qualified).append(" (");
        boolean first = true;
        for (ColumnCopy c : columns) {
            if (c.kind() != ColumnCopy.Kind.GENERATED) {
                out.append(first ? "" : ", ").append(Sql.identifier(c.name()));
                first = false;
            }
        }
        return out.append(") VALUES ").toString();
    }

    /**
     * Appends one gathered row, as read by {@link #gatherSelect}, as a VALUES tuple. {@code values}
     * gives each read column's text (null for NULL). Throws when a value is not what was read.
     */
    public void appendRow(StringBuilder out, java.util.function.IntFunction<byte[]> values) {
        out.append('(');
        int i = 0;
        for (ColumnCopy c : columns) {
            if (c.kind() == ColumnCopy.Kind.GENERATED) {
                continue;
            }
            if (i > 0) {
                out.append(", ");
            }
            if (!c.appendLiteral(out, values.apply(i))) {
                throw new IllegalArgumentException("a value of column " + c.name() + " did not read as expected");
            }
            i++;
        }
        out.append(')');
    }
}
