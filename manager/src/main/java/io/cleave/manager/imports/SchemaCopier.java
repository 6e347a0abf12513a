package io.cleave.manager.imports;

import io.cleave.manager.move.Catalog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Creates an imported database on a local shard as the source has it: the database with its
 * character set, every table with its indexes, then views and routines. Idempotent (a resumed
 * import runs it again). Definers are left out: the objects belong to the account Cleave uses there.
 */
final class SchemaCopier {

    private static final Pattern DEFINER = Pattern.compile("\\s+DEFINER\\s*=\\s*(`[^`]*`|'[^']*'|\\S+?)@(`[^`]*`|'[^']*'|\\S+)",
            Pattern.CASE_INSENSITIVE);

    private SchemaCopier() {
    }

    static void copy(Connection source, Connection shard, String db, ImportRecord plan) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute(Catalog.showCreateDatabase(source, db).replaceFirst("(?i)^CREATE DATABASE ", "CREATE DATABASE IF NOT EXISTS "));
            s.execute("USE `" + db.replace("`", "``") + "`");
            for (String table : plan.tables.keySet()) {
                s.execute(Catalog.showCreateTable(source, db, table).replaceFirst("(?i)^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS "));
            }
            for (String view : plan.views.keySet()) {
                String create = show(source, "SHOW CREATE VIEW " + q(db) + "." + q(view), 2);
                s.execute(withoutDefiner(create).replaceFirst("(?i)^CREATE ", "CREATE OR REPLACE "));
            }
            for (String routine : plan.routines) {
                String kind = routine.substring(0, routine.indexOf(' ')).toUpperCase(Locale.ROOT);
                String name = routine.substring(routine.indexOf(' ') + 1);
                String create = show(source, "SHOW CREATE " + kind + " " + q(db) + "." + q(name), 3);
                if (create == null) {
                    throw new SQLException("the source's account may not read the body of " + routine.toLowerCase(Locale.ROOT)
                            + " (SHOW CREATE " + kind + " gave none): grant it SELECT on mysql.proc or SHOW_ROUTINE");
                }
                s.execute("DROP " + kind + " IF EXISTS " + q(name));
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

    private static String q(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** Every local shard gets the schema. */
    static void copyToAll(Connection source, List<Connection> shards, String db, ImportRecord plan) throws SQLException {
        for (Connection shard : shards) {
            copy(source, shard, db, plan);
        }
    }
}
