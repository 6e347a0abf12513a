package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A moving table's columns as the source has them: names in order, which hold bytes (copied as
 * bytes, not text), and where the sharding column and the primary key sit in a binlog row.
 */
final class TableShape {

    private static final Set<String> BINARY = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob",
            "bit", "geometry", "point", "linestring", "polygon");

    final TableProgress table;
    final List<String> columns;
    final boolean[] binary;
    /** Where the sharding column sits in a row, or -1 when the move needs none (whole tables). */
    final int keyColumn;
    final int[] primaryKey;
    /** The condition selecting the table's moving rows on the source (set by the move). */
    String moving;
    /** Where the moving rows go (set by the move). */
    Placement placement;

    private TableShape(TableProgress table, List<String> columns, boolean[] binary) {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.binary = binary;
        this.keyColumn = table.column == null ? -1 : indexOf(table.column);
        this.primaryKey = new int[table.primaryKey.size()];
        for (int i = 0; i < primaryKey.length; i++) {
            primaryKey[i] = indexOf(table.primaryKey.get(i));
        }
    }

    static TableShape read(Connection c, TableProgress table) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<Boolean> binary = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table.schema);
            ps.setString(2, table.table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                    binary.add(BINARY.contains(rs.getString(2).toLowerCase(Locale.ROOT)));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new SQLException("table " + table + " is gone from the source");
        }
        boolean[] b = new boolean[binary.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = binary.get(i);
        }
        return new TableShape(table, columns, b);
    }

    private int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new IllegalStateException("table " + table + " has no column " + column);
    }

    String columnList() {
        StringBuilder b = new StringBuilder();
        for (String c : columns) {
            b.append(b.isEmpty() ? "" : ", ").append(Sql.quote(c));
        }
        return b.toString();
    }

    /** Reads the current row's values: text, or bytes for binary columns (nothing is converted on the way). */
    Object[] row(ResultSet rs) throws SQLException {
        Object[] v = new Object[columns.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = binary[i] ? rs.getBytes(i + 1) : rs.getString(i + 1);
        }
        return v;
    }

    /**
     * Rows read by {@link #row}, by the target shard each goes to (rows staying on the source are
     * left out); every target must be one of {@code targets}, the shards the move writes to.
     */
    java.util.Map<Integer, List<Object[]>> byTarget(List<Object[]> rows, java.util.Set<Integer> targets) {
        java.util.Map<Integer, List<Object[]>> out = new java.util.TreeMap<>();
        for (Object[] row : rows) {
            for (int t : placement.targetsOf(keyColumn < 0 ? null : row[keyColumn])) {
                if (!targets.contains(t)) {
                    throw new IllegalStateException("a row of " + table + " belongs on shard " + t + ", which this move"
                            + " does not write to (the shard map changed under it)");
                }
                out.computeIfAbsent(t, x -> new ArrayList<>()).add(row);
            }
        }
        return out;
    }

    /** The primary-key values of a row read by {@link #row}. */
    List<Object> key(Object[] row) {
        List<Object> k = new ArrayList<>(primaryKey.length);
        for (int i : primaryKey) {
            k.add(row[i]);
        }
        return k;
    }

    /** Writes rows on the target, replacing any row with the same primary key. */
    long replace(Connection target, List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder("REPLACE INTO ").append(table.qualified()).append(" (")
                .append(columnList()).append(") VALUES (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        sql.append(')');
        long bytes = 0;
        try (PreparedStatement ps = target.prepareStatement(sql.toString())) {
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    bind(ps, i + 1, row[i]);
                    bytes += row[i] instanceof byte[] b ? b.length : row[i] == null ? 1 : row[i].toString().length();
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return bytes;
    }

    static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, java.sql.Types.NULL);
        } else if (value instanceof byte[] b) {
            ps.setBytes(index, b);
        } else if (value instanceof Long l) {
            ps.setLong(index, l);
        } else {
            ps.setString(index, value.toString());
        }
    }

    @Override
    public String toString() {
        return table.toString();
    }
}
