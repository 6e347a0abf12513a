package io.cleave.manager.held;

import io.cleave.manager.backup.triggers.TriggerOrEvent;
import io.cleave.manager.backup.triggers.TriggersAndEvents;
import io.cleave.manager.move.SchemaCopier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tables of a refused database (an import a promotion cut short before its cutover: {@code refused_databases} in the
 * shard map) set aside on a shard, out of every client's reach. Refusing the database by name is not enough: a view,
 * function, procedure, trigger or event of another database reads or writes its tables without naming it in the
 * client's statement, and would read the partial copy as if it were whole (or write rows nobody imports). Held in
 * Cleave's schema (which no client may name or list), the tables are missing where those objects look, so each fails
 * at the server with its own error (1356 for a view, 1146 for a routine, trigger or event) instead of answering.
 *
 * <p>Renaming is a change of the table's name only, so the promotion that holds them waits for no row. Which tables
 * are held is kept on the shard itself ({@code cleave.held_tables}), with each table's row written before it moves,
 * so the state survives a daemon's restart (and goes with a backup of the shard). Every step is idempotent: a
 * promotion that stops half way holds the rest when it runs again.
 *
 * <p>An import may have taken a table that existed empty before it: so a held table is never dropped while its
 * database may still be used. {@code cleave import} of the database puts each back emptied ({@link #restore}: the
 * shard is as before the first import, the definition included); DROP DATABASE of it drops them ({@link #drop}).
 */
public final class HeldTables {

    private static final Logger log = LoggerFactory.getLogger(HeldTables.class);

    static final String CATALOG = "cleave.held_tables";
    static final String CATALOG_DDL = "CREATE TABLE IF NOT EXISTS " + CATALOG + " (schema_name VARCHAR(64) CHARACTER SET"
            + " utf8mb4 COLLATE utf8mb4_bin NOT NULL, table_name VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT"
            + " NULL, held_as VARCHAR(64) CHARACTER SET ascii NOT NULL, held_at TIMESTAMP(6) NOT NULL DEFAULT"
            + " CURRENT_TIMESTAMP(6), PRIMARY KEY (schema_name, table_name)) ENGINE=InnoDB";

    /**
     * The triggers of held tables, each with the session context it was made in: MariaDB keeps a trigger in its table's
     * database and will not rename a table with one out of it, so they are dropped before the rename and made again
     * when the table is put back.
     */
    static final String TRIGGERS = "cleave.held_triggers";
    static final String TRIGGERS_DDL = "CREATE TABLE IF NOT EXISTS " + TRIGGERS + " (schema_name VARCHAR(64) CHARACTER"
            + " SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, table_name VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
            + " NOT NULL, seq INT NOT NULL, trigger_name VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,"
            + " definer VARCHAR(400) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, sql_mode TEXT NOT NULL,"
            + " character_set_client VARCHAR(64) CHARACTER SET ascii NULL, collation_connection VARCHAR(64) CHARACTER"
            + " SET ascii NULL, create_statement LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,"
            + " PRIMARY KEY (schema_name, table_name, seq)) ENGINE=InnoDB";

    private HeldTables() {
    }

    /**
     * Sets aside the tables of {@code schema} named in {@code tables} that this shard has (base tables; a name it
     * lacks, or one held already, is skipped). The table's own triggers are kept in {@code cleave.held_triggers} and
     * dropped first (the server renames no table with a trigger out of its database); they come back with the table.
     * A table the server will not rename for another reason is emptied in place instead, with a warning: the one case
     * where a view of another database would still read it empty.
     *
     * @return the tables held (or emptied) by this call
     */
    public static List<String> hold(Connection shard, String schema, Collection<String> tables) throws SQLException {
        List<String> done = new ArrayList<>();
        try (Statement s = shard.createStatement()) {
            s.execute(CATALOG_DDL);
            s.execute(TRIGGERS_DDL);
            for (String table : SchemaCopier.objects(shard, schema).tables()) {
                if (!tables.contains(table.toLowerCase(java.util.Locale.ROOT))) {
                    continue;
                }
                HeldTable t = HeldTable.of(schema, table);
                try (PreparedStatement ps = shard.prepareStatement("INSERT IGNORE INTO " + CATALOG
                        + " (schema_name, table_name, held_as) VALUES (?, ?, ?)")) {
                    ps.setString(1, schema);
                    ps.setString(2, table);
                    ps.setString(3, t.heldAs());
                    ps.executeUpdate();
                }
                try {
                    keepTriggers(shard, t);
                    s.execute(t.holdSql());
                } catch (SQLException refused) {
                    makeTriggers(shard, t);
                    forget(shard, t);
                    log.warn("{} could not be set aside ({}): emptied in place; a view or routine of another database"
                            + " that reads it reads no rows until the database is imported again", t.original(),
                            refused.getMessage());
                    s.execute("TRUNCATE TABLE " + t.original());
                }
                done.add(table);
            }
        }
        return done;
    }

    /**
     * Puts every held table of {@code schema} back in its database, emptied first (its rows were a cut-short copy):
     * the shard is then as it was before the import that made or filled them. The database must exist.
     *
     * @return the tables put back
     */
    public static List<String> restore(Connection shard, String schema) throws SQLException {
        List<String> done = new ArrayList<>();
        try (Statement s = shard.createStatement()) {
            for (HeldTable t : held(shard, schema)) {
                if (exists(shard, HeldTable.SCHEMA, t.heldAs())) {
                    if (exists(shard, schema, t.table())) {
                        throw new SQLException("cannot put " + t.original() + " back, set aside when its import was cut"
                                + " short: a table of that name was made in the meantime; drop one of them (the held one"
                                + " is " + t.held() + ")");
                    }
                    s.execute("TRUNCATE TABLE " + t.held());
                    s.execute(t.restoreSql());
                    makeTriggers(shard, t);
                    done.add(t.table());
                }
                forget(shard, t);
            }
        }
        return done;
    }

    /** Drops every held table of {@code schema} (its database was dropped). @return the tables dropped */
    public static List<String> drop(Connection shard, String schema) throws SQLException {
        List<String> done = new ArrayList<>();
        try (Statement s = shard.createStatement()) {
            for (HeldTable t : held(shard, schema)) {
                s.execute("DROP TABLE IF EXISTS " + t.held());
                forget(shard, t);
                done.add(t.table());
            }
        }
        return done;
    }

    /** Every held table on this shard by its database, names sorted; empty when none is. */
    public static Map<String, List<String>> all(Connection shard) throws SQLException {
        Map<String, List<String>> out = new TreeMap<>();
        if (!exists(shard, HeldTable.SCHEMA, "held_tables")) {
            return out;
        }
        try (Statement s = shard.createStatement(); ResultSet rs = s.executeQuery("SELECT schema_name, table_name FROM "
                + CATALOG + " ORDER BY schema_name, table_name")) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
            }
        }
        return out;
    }

    private static List<HeldTable> held(Connection shard, String schema) throws SQLException {
        List<HeldTable> out = new ArrayList<>();
        if (!exists(shard, HeldTable.SCHEMA, "held_tables")) {
            return out;
        }
        try (PreparedStatement ps = shard.prepareStatement("SELECT table_name, held_as FROM " + CATALOG
                + " WHERE schema_name = ? ORDER BY table_name")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new HeldTable(schema, rs.getString(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    /**
     * Records the table's triggers (a row each, in the order they fire, before any is dropped: a hold stopped half way
     * finds them kept) and drops them.
     */
    private static void keepTriggers(Connection shard, HeldTable t) throws SQLException {
        List<TriggerOrEvent> triggers = TriggersAndEvents.triggersOf(shard, -1, t.schema(), t.table());
        if (triggers.isEmpty()) {
            return;
        }
        List<TriggerOrEvent> kept = keptTriggers(shard, t);
        int seq = kept.size();
        java.util.Set<String> keptNames = new java.util.HashSet<>();
        kept.forEach(o -> keptNames.add(o.name()));
        try (PreparedStatement ps = shard.prepareStatement("INSERT INTO " + TRIGGERS + " (schema_name, table_name, seq,"
                + " trigger_name, definer, sql_mode, character_set_client, collation_connection, create_statement)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (TriggerOrEvent o : triggers) {
                if (keptNames.contains(o.name())) {
                    continue; // kept by a hold that stopped before it dropped them
                }
                ps.setString(1, t.schema());
                ps.setString(2, t.table());
                ps.setInt(3, seq++);
                ps.setString(4, o.name());
                ps.setString(5, o.definer());
                ps.setString(6, o.sqlMode());
                ps.setString(7, o.characterSetClient());
                ps.setString(8, o.collationConnection());
                ps.setString(9, o.create());
                ps.executeUpdate();
            }
        }
        try (Statement s = shard.createStatement()) {
            for (TriggerOrEvent o : triggers) {
                s.execute("DROP TRIGGER IF EXISTS " + HeldTable.quote(o.schema()) + "." + HeldTable.quote(o.name()));
            }
        }
        log.info("{}: its triggers {} are kept aside with it", t.original(), triggers.stream().map(TriggerOrEvent::name).toList());
    }

    /** Makes the table's kept triggers again, in the order they fired, each in the context it was made in. */
    private static void makeTriggers(Connection shard, HeldTable t) throws SQLException {
        List<TriggerOrEvent> kept = keptTriggers(shard, t);
        try (Statement s = shard.createStatement()) {
            for (TriggerOrEvent o : kept) {
                if (TriggersAndEvents.triggersOf(shard, -1, t.schema(), t.table()).stream().noneMatch(
                        x -> x.name().equals(o.name()))) {
                    TriggersAndEvents.create(s, o, o.create());
                }
            }
        }
    }

    private static List<TriggerOrEvent> keptTriggers(Connection shard, HeldTable t) throws SQLException {
        List<TriggerOrEvent> out = new ArrayList<>();
        if (!exists(shard, HeldTable.SCHEMA, "held_triggers")) {
            return out; // held by a version that kept no triggers
        }
        try (PreparedStatement ps = shard.prepareStatement("SELECT trigger_name, definer, sql_mode, character_set_client,"
                + " collation_connection, create_statement FROM " + TRIGGERS + " WHERE schema_name = ? AND table_name = ?"
                + " ORDER BY seq")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TriggerOrEvent(TriggerOrEvent.Kind.TRIGGER, t.schema(), rs.getString(1), rs.getString(2),
                            List.of(), rs.getString(3), null, rs.getString(4), rs.getString(5), rs.getString(6)));
                }
            }
        }
        return out;
    }

    private static void forget(Connection shard, HeldTable t) throws SQLException {
        for (String catalog : new String[] {CATALOG, TRIGGERS}) {
            if (!exists(shard, HeldTable.SCHEMA, catalog.substring(catalog.indexOf('.') + 1))) {
                continue; // a shard held on by an older version has no trigger catalog
            }
            try (PreparedStatement ps = shard.prepareStatement("DELETE FROM " + catalog
                    + " WHERE schema_name = ? AND table_name = ?")) {
                ps.setString(1, t.schema());
                ps.setString(2, t.table());
                ps.executeUpdate();
            }
        }
    }

    private static boolean exists(Connection shard, String schema, String table) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
