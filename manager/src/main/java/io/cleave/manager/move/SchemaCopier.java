package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Creates a database on a shard as another server has it: the database with its character set,
 * its tables with their indexes, then views and routines (an import's source to every shard, shard
 * 0 to the shards a scale adds). Idempotent (a resumed import or scale runs it again). Definers are
 * left out: the objects belong to the account Cleave uses there.
 */
public final class SchemaCopier {

    private static final Pattern DEFINER = Pattern.compile("\\s+DEFINER\\s*=\\s*(`[^`]*`|'[^']*'|\\S+?)@(`[^`]*`|'[^']*'|\\S+)",
            Pattern.CASE_INSENSITIVE);

    private SchemaCopier() {
    }

    /** What a database holds besides rows: its base tables, views and routines ("PROCEDURE name", "FUNCTION name"). */
    public record Objects(List<String> tables, List<String> views, List<String> routines) {
    }

    public static Objects objects(Connection c, String db) throws SQLException {
        List<String> tables = new ArrayList<>();
        List<String> views = new ArrayList<>();
        List<String> routines = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    (rs.getString(2).equals("VIEW") ? views : tables).add(rs.getString(1));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT ROUTINE_TYPE, ROUTINE_NAME FROM information_schema.ROUTINES"
                + " WHERE ROUTINE_SCHEMA = ? ORDER BY ROUTINE_NAME")) {
            ps.setString(1, db);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    routines.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return new Objects(tables, views, routines);
    }

    /** The databases of {@code c} outside the server's and Cleave's own. */
    public static List<String> databases(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SCHEMA_NAME FROM"
                + " information_schema.SCHEMATA ORDER BY SCHEMA_NAME")) {
            while (rs.next()) {
                if (!Catalog.SYSTEM_SCHEMAS.contains(rs.getString(1).toLowerCase(Locale.ROOT))) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** Creates database {@code db} and the given objects of it on {@code target} as {@code source} has them. */
    public static void copy(Connection source, Connection target, String db, Collection<String> tables,
                            Collection<String> views, Collection<String> routines) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute(Catalog.showCreateDatabase(source, db).replaceFirst("(?i)^CREATE DATABASE ", "CREATE DATABASE IF NOT EXISTS "));
            s.execute("USE " + Sql.quote(db));
            for (String table : tables) {
                s.execute(Catalog.showCreateTable(source, db, table).replaceFirst("(?i)^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS "));
            }
            for (String view : views) {
                String create = show(source, "SHOW CREATE VIEW " + Sql.quote(db) + "." + Sql.quote(view), 2);
                s.execute(withoutDefiner(create).replaceFirst("(?i)^CREATE ", "CREATE OR REPLACE "));
            }
            for (String routine : routines) {
                String kind = routine.substring(0, routine.indexOf(' ')).toUpperCase(Locale.ROOT);
                String name = routine.substring(routine.indexOf(' ') + 1);
                String create = show(source, "SHOW CREATE " + kind + " " + Sql.quote(db) + "." + Sql.quote(name), 3);
                if (create == null) {
                    throw new SQLException("the account may not read the body of " + routine.toLowerCase(Locale.ROOT)
                            + " (SHOW CREATE " + kind + " gave none): grant it SELECT on mysql.proc or SHOW_ROUTINE");
                }
                s.execute("DROP " + kind + " IF EXISTS " + Sql.quote(name));
                s.execute(withoutDefiner(create));
            }
        }
    }

    static String withoutDefiner(String create) {
        return DEFINER.matcher(create).replaceFirst("");
    }

    private static String show(Connection c, String sql, int column) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(column) : null;
        }
    }
}
