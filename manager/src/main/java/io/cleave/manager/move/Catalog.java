package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** What moves and imports read of a server's tables from information_schema. */
public final class Catalog {

    /** Schemas that are the server's or Cleave's own, never moved or imported. */
    public static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "sys", "performance_schema", "information_schema", "cleave");

    private Catalog() {
    }

    /** Schema and name of every base table named {@code table} (case-insensitively) outside the system schemas. */
    public static List<String[]> find(Connection c, String table) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_TYPE = 'BASE TABLE' AND LOWER(TABLE_NAME) = LOWER(?) ORDER BY TABLE_SCHEMA")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!SYSTEM_SCHEMAS.contains(rs.getString(1).toLowerCase(Locale.ROOT))) {
                        out.add(new String[] {rs.getString(1), rs.getString(2)});
                    }
                }
            }
        }
        return out;
    }

    /** The names of the triggers on the table. */
    public static List<String> triggers(Connection c, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String[] row : aboutTable(c, "SELECT TRIGGER_NAME, ACTION_TIMING FROM information_schema.TRIGGERS"
                + " WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ? ORDER BY TRIGGER_NAME", schema, table)) {
            out.add(row[0]);
        }
        return out;
    }

    /**
     * Why a move may not write the table on this shard, or null: a move copies, applies and cleans up rows with
     * ordinary statements, which fire the table's triggers. A trigger that changes the row (a BEFORE trigger setting a
     * column) makes the copy differ from the source, so its verification never passes; one that writes elsewhere (an
     * audit row) would record every moved row as a client's change. No session setting of the server keeps triggers
     * from firing for statements, so the move is refused.
     */
    public static String triggerRefusal(Connection c, String schema, String table, String shard) throws SQLException {
        List<String> names = triggers(c, schema, table);
        if (names.isEmpty()) {
            return null;
        }
        return "table " + schema + "." + table + " has trigger" + (names.size() > 1 ? "s " : " ") + String.join(", ", names)
                + " on " + shard + ": a move writes the rows it copies and removes with ordinary statements, which would"
                + " fire them (changing the copied rows, or recording the move as clients' changes); drop the triggers,"
                + " move, and create them again after the move";
    }

    public static List<String> primaryKey(Connection c, String schema, String table) throws SQLException {
        return uniqueKeys(c, schema, table).getOrDefault("PRIMARY", List.of());
    }

    /** Every unique index (the primary key as "PRIMARY") with its columns in order. */
    public static Map<String, List<String>> uniqueKeys(Connection c, String schema, String table) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String[] row : aboutTable(c, "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0 ORDER BY INDEX_NAME = 'PRIMARY' DESC,"
                + " INDEX_NAME, SEQ_IN_INDEX", schema, table)) {
            out.computeIfAbsent(row[0], k -> new ArrayList<>()).add(row[1]);
        }
        return out;
    }

    /** The table's columns in order, with their data types. */
    public static Map<String, String> columns(Connection c, String schema, String table) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String[] row : aboutTable(c, "SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION", schema, table)) {
            out.put(row[0], row[1].toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** The rows of {@code sql}, an information_schema query with the schema and the table as its parameters. */
    public static List<String[]> aboutTable(Connection c, String sql, String schema, String table) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                int width = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    String[] row = new String[width];
                    for (int i = 0; i < width; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    /** The column of {@code columns} named {@code name} case-insensitively, as the server spells it, or null. */
    public static String column(Map<String, String> columns, String name) {
        for (String c : columns.keySet()) {
            if (c.equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /** Whether the table has at least one row. */
    public static boolean hasRows(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM " + Sql.quote(schema) + "." + Sql.quote(table)
                + " LIMIT 1"); ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }

    public static String showCreateTable(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SHOW CREATE TABLE " + Sql.quote(schema) + "." + Sql.quote(table));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(2);
        }
    }

    public static String showCreateDatabase(Connection c, String schema) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SHOW CREATE DATABASE " + Sql.quote(schema));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(2);
        }
    }
}
