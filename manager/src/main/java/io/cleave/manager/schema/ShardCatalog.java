package io.cleave.manager.schema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/**
 * One shard's schema objects as its catalog (information_schema) describes them, each under a key
 * ({@code table shop.orders}, {@code procedure shop.p}) with what must be the same on every shard:
 * a table's type, columns and indexes, a view's and a routine's definition, a trigger's table,
 * timing and body. Sequences count by existence (only the default shard's counts), events not at all
 * (they live on the default shard only), nor the system schemas and the proxy's own.
 */
public final class ShardCatalog {

    static final String USER_SCHEMAS = " NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema', 'cleave')";

    private ShardCatalog() {
    }

    /** Every object's key and description. */
    public static Map<String, String> read(Connection c) throws SQLException {
        Map<String, String> objects = new TreeMap<>();
        try (Statement s = c.createStatement()) {
            each(s, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME" + USER_SCHEMAS,
                    r -> objects.put("schema " + r.getString(1), ""));
            each(s, "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA"
                    + USER_SCHEMAS, r -> objects.put(tableKey(r.getString(3), r.getString(1), r.getString(2)),
                    r.getString(3)));
            each(s, "SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE, c.IS_NULLABLE, c.COLUMN_DEFAULT,"
                    + " c.EXTRA, t.TABLE_TYPE FROM information_schema.COLUMNS c JOIN information_schema.TABLES t"
                    + " ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME WHERE c.TABLE_SCHEMA"
                    + USER_SCHEMAS + " AND t.TABLE_TYPE <> 'SEQUENCE' ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME,"
                    + " c.ORDINAL_POSITION",
                    r -> objects.merge(tableKey(r.getString(8), r.getString(1), r.getString(2)), "; column "
                            + r.getString(3) + " " + r.getString(4) + ("YES".equals(r.getString(5)) ? "" : " NOT NULL")
                            + (r.getString(6) == null ? "" : " DEFAULT " + r.getString(6))
                            + (r.getString(7) == null || r.getString(7).isEmpty() ? "" : " " + r.getString(7)),
                            String::concat));
            each(s, "SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME FROM information_schema.STATISTICS"
                    + " WHERE TABLE_SCHEMA" + USER_SCHEMAS + " ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
                    r -> objects.merge("table " + r.getString(1) + "." + r.getString(2), "; index " + r.getString(3)
                            + ("0".equals(r.getString(4)) ? " unique" : "") + " (" + r.getString(5) + ")", String::concat));
            each(s, "SELECT ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_TYPE, ROUTINE_DEFINITION FROM information_schema.ROUTINES"
                    + " WHERE ROUTINE_SCHEMA" + USER_SCHEMAS, r -> objects.put(r.getString(3).toLowerCase(java.util.Locale.ROOT)
                    + " " + r.getString(1) + "." + r.getString(2), String.valueOf(r.getString(4))));
            each(s, "SELECT TRIGGER_SCHEMA, TRIGGER_NAME, EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION,"
                    + " ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA" + USER_SCHEMAS,
                    r -> objects.put("trigger " + r.getString(1) + "." + r.getString(2), r.getString(4) + " "
                            + r.getString(5) + " ON " + r.getString(3) + ": " + r.getString(6)));
        }
        return objects;
    }

    /** {@code table s.t}, {@code view s.v} or {@code sequence s.q}. */
    private static String tableKey(String type, String schema, String name) {
        String kind = "VIEW".equals(type) || "SYSTEM VIEW".equals(type) ? "view" : "SEQUENCE".equals(type) ? "sequence"
                : "table";
        return kind + " " + schema + "." + name;
    }

    private interface RowAction {
        void row(ResultSet r) throws SQLException;
    }

    private static void each(Statement s, String sql, RowAction action) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                action.row(r);
            }
        }
    }
}
