package io.cleave.manager.backup;

import io.cleave.manager.move.Catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What a backup reads of a shard's schema and accounts, as statements that make them again. */
public final class SchemaReader {

    /** Accounts that belong to the server or to Cleave itself, never backed up or restored. */
    private static final Set<String> OWN_USERS = Set.of("cleave", "root", "mariadb.sys", "mysql.sys", "mysql.session",
            "mysql.infoschema", "PUBLIC", "");
    private static final Set<String> BINARY_TYPES = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob",
            "longblob", "bit", "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring",
            "multipolygon", "geometrycollection");

    private SchemaReader() {
    }

    /** The databases outside the server's and Cleave's own. */
    static List<String> databases(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String[] row : rows(c, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY SCHEMA_NAME")) {
            if (!Catalog.SYSTEM_SCHEMAS.contains(row[0].toLowerCase(Locale.ROOT))) {
                out.add(row[0]);
            }
        }
        return out;
    }

    static List<String> tables(Connection c, String database) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String[] row : rows(c, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", database)) {
            out.add(row[0]);
        }
        return out;
    }

    /** What a backup's manifest says of the home besides its tables: the accounts, the databases' DDL, the server version. */
    record Home(List<String> accounts, List<BackupManifest.DatabaseDdl> databases, String version) {
    }

    static Home home(Connection c) throws SQLException {
        return new Home(accounts(c), ddls(c), rows(c, "SELECT VERSION()").get(0)[0]);
    }

    /** Every database's DDL (see {@link #ddl}). */
    static List<BackupManifest.DatabaseDdl> ddls(Connection c) throws SQLException {
        List<BackupManifest.DatabaseDdl> out = new java.util.ArrayList<>();
        for (String db : databases(c)) {
            out.add(ddl(c, db));
        }
        return out;
    }

    /** The database's DDL: CREATE DATABASE, then its views and routines as SHOW CREATE gives them. */
    static BackupManifest.DatabaseDdl ddl(Connection c, String database) throws SQLException {
        List<String> views = new ArrayList<>();
        for (String[] row : rows(c, "SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ?"
                + " ORDER BY TABLE_NAME", database)) {
            views.add(show(c, "SHOW CREATE VIEW " + quote(database) + "." + quote(row[0]), 2));
        }
        List<String> routines = new ArrayList<>();
        for (String[] row : rows(c, "SELECT ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES"
                + " WHERE ROUTINE_SCHEMA = ? ORDER BY ROUTINE_TYPE, ROUTINE_NAME", database)) {
            routines.add(show(c, "SHOW CREATE " + row[1] + " " + quote(database) + "." + quote(row[0]), 3));
        }
        return new BackupManifest.DatabaseDdl(database, Catalog.showCreateDatabase(c, database), views, routines);
    }

    /** The columns rows are copied by: every column but generated ones (the server computes those). */
    static List<BackupManifest.Column> columns(Connection c, String database, String table) throws SQLException {
        List<BackupManifest.Column> out = new ArrayList<>();
        for (String[] row : rows(c, "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, EXTRA FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION", database, table)) {
            String extra = row[3] == null ? "" : row[3].toUpperCase(Locale.ROOT);
            if (extra.contains("GENERATED")) {
                continue;
            }
            String type = row[1].toLowerCase(Locale.ROOT);
            out.add(new BackupManifest.Column(row[0], BINARY_TYPES.contains(type), row[2].toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    /**
     * The clients' accounts: roles, then users (SHOW CREATE USER keeps their password hashes and
     * limits), then every grant, including grants of roles, so that replaying them in order works.
     */
    static List<String> accounts(Connection c) throws SQLException {
        List<String[]> accounts;
        try {
            accounts = rows(c, "SELECT User, Host, IF(is_role = 'Y', 1, 0) FROM mysql.user ORDER BY User, Host");
        } catch (SQLException e) {
            accounts = rows(c, "SELECT User, Host, 0 FROM mysql.user ORDER BY User, Host"); // MySQL: no is_role column
        }
        List<String> roles = new ArrayList<>();
        List<String> users = new ArrayList<>();
        List<String> grants = new ArrayList<>();
        for (String[] a : accounts) {
            if (OWN_USERS.contains(a[0])) {
                continue;
            }
            boolean role = "1".equals(a[2]);
            String name = role ? quote(a[0]) : quote(a[0]) + "@" + quote(a[1]);
            if (role) {
                roles.add("CREATE ROLE " + name);
            } else {
                users.add(show(c, "SHOW CREATE USER " + name, 1));
            }
            for (String[] g : rows(c, "SHOW GRANTS FOR " + name)) {
                grants.add(g[0]);
            }
        }
        List<String> out = new ArrayList<>(roles);
        out.addAll(users);
        out.addAll(grants);
        return out;
    }

    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    private static String show(Connection c, String sql, int column) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException(sql + " returned nothing");
            }
            return rs.getString(column);
        }
    }

    public static List<String[]> rows(Connection c, String sql, String... parameters) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    String[] row = new String[n];
                    for (int i = 0; i < n; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }
}
