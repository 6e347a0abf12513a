package io.cleave.manager.imports;

import io.cleave.router.importing.DatabaseReferences;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The views, routines, triggers and events of other databases on the shards that name the database to import. Until
 * the cutover the proxy routes the database's tables to the source, but such an object runs on a shard and would read
 * (or write) the shard's partial copy: a wrong answer, or a write the cutover overwrites. So an import does not start
 * while one exists. The database's own objects are the import's to check ({@link ImportPlan}).
 */
final class ForeignReaders {

    private static final String OTHERS = " NOT IN ('mysql', 'sys', 'performance_schema', 'information_schema', 'cleave')";

    /** What to read: the object's kind (or a column giving it), schema, name and definition, per catalog table. */
    private static final List<String> QUERIES = List.of(
            "SELECT 'view', TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA <> ?"
                    + " AND TABLE_SCHEMA" + OTHERS,
            "SELECT ROUTINE_TYPE, ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_DEFINITION FROM information_schema.ROUTINES WHERE"
                    + " ROUTINE_SCHEMA <> ? AND ROUTINE_SCHEMA" + OTHERS,
            "SELECT 'trigger', TRIGGER_SCHEMA, TRIGGER_NAME, ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE"
                    + " TRIGGER_SCHEMA <> ? AND TRIGGER_SCHEMA" + OTHERS,
            "SELECT 'event', EVENT_SCHEMA, EVENT_NAME, EVENT_DEFINITION FROM information_schema.EVENTS WHERE"
                    + " EVENT_SCHEMA <> ? AND EVENT_SCHEMA" + OTHERS);

    private ForeignReaders() {
    }

    /** Each object as "view reports.items_seen", once however many shards hold it, in the order found. */
    static List<String> of(List<Connection> shards, String database) throws SQLException {
        DatabaseReferences references = DatabaseReferences.of(database);
        Set<String> found = new LinkedHashSet<>();
        for (Connection shard : shards) {
            for (String query : QUERIES) {
                try (PreparedStatement ps = shard.prepareStatement(query)) {
                    ps.setString(1, database);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            String definition = rs.getString(4);
                            // A definition the shard account may not read could name it: counted as one that does.
                            if (definition == null || definition.isEmpty() || references.namedIn(definition)) {
                                found.add(rs.getString(1).toLowerCase(Locale.ROOT) + " " + rs.getString(2) + "."
                                        + rs.getString(3));
                            }
                        }
                    }
                }
            }
        }
        return new ArrayList<>(found);
    }

    /** Why the import of {@code database} from {@code source} cannot start, naming {@code readers}. */
    static String refusal(String source, String database, List<String> readers) {
        return "cannot import " + source + ", nothing was changed: " + String.join(", ", readers) + " of another database"
                + " on the shards " + (readers.size() == 1 ? "names " : "name ") + database + "; until the import's"
                + " cutover the rows of " + database + " are on the source, and " + (readers.size() == 1 ? "it" : "they")
                + " would run on a shard and read its partial copy instead. Drop " + (readers.size() == 1 ? "it" : "them")
                + ", import, and create " + (readers.size() == 1 ? "it" : "them") + " again after the cutover";
    }
}
