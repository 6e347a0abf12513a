package io.cleave.manager.backup.triggers;

import io.cleave.manager.move.Catalog;

import static io.cleave.manager.backup.SchemaReader.quote;
import static io.cleave.manager.backup.SchemaReader.rows;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the triggers and events of every shard for a backup, and makes them again on a restored home.
 * They are made after the rows are in (a trigger must not fire on the restore's own inserts) and before a
 * point-in-time replay (whose CREATE or DROP of one, logged after the backup, then finds them as the shard
 * had them; its row events fire no trigger).
 */
public final class TriggersAndEvents {

    /** SHOW CREATE EVENT's header: the status before DO. */
    private static final Pattern ENABLED = Pattern.compile("(ON COMPLETION (?:NOT )?PRESERVE )ENABLE\\b");

    private TriggersAndEvents() {
    }

    /**
     * Every shard's triggers (in the order they fire) and events, outside the system schemas; one entry per
     * definition with the shards that hold it.
     */
    public static List<TriggerOrEvent> read(Map<Integer, Connection> shards) throws SQLException {
        List<TriggerOrEvent> out = new ArrayList<>();
        for (Map.Entry<Integer, Connection> e : shards.entrySet()) {
            for (TriggerOrEvent found : readShard(e.getValue(), e.getKey())) {
                int same = -1;
                for (int i = 0; i < out.size() && same < 0; i++) {
                    if (out.get(i).sameDefinition(found)) {
                        same = i;
                    }
                }
                if (same >= 0) {
                    out.set(same, out.get(same).alsoOn(e.getKey()));
                } else {
                    out.add(found);
                }
            }
        }
        return out;
    }

    private static List<TriggerOrEvent> readShard(Connection c, int shard) throws SQLException {
        List<TriggerOrEvent> out = new ArrayList<>();
        for (String[] t : rows(c, "SELECT TRIGGER_SCHEMA, TRIGGER_NAME, DEFINER FROM information_schema.TRIGGERS"
                + " ORDER BY TRIGGER_SCHEMA, EVENT_OBJECT_TABLE, ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER")) {
            if (Catalog.SYSTEM_SCHEMAS.contains(t[0].toLowerCase(Locale.ROOT))) {
                continue;
            }
            out.add(trigger(c, shard, t));
        }
        for (String[] v : rows(c, "SELECT EVENT_SCHEMA, EVENT_NAME, DEFINER FROM information_schema.EVENTS"
                + " ORDER BY EVENT_SCHEMA, EVENT_NAME")) {
            if (Catalog.SYSTEM_SCHEMAS.contains(v[0].toLowerCase(Locale.ROOT))) {
                continue;
            }
            // Event, sql_mode, time_zone, Create Event, character_set_client, collation_connection, Database Collation
            String[] s = rows(c, "SHOW CREATE EVENT " + quote(v[0]) + "." + quote(v[1])).get(0);
            out.add(new TriggerOrEvent(TriggerOrEvent.Kind.EVENT, v[0], v[1], v[2], List.of(shard), s[1], s[2],
                    s[4], s[5], s[3]));
        }
        return out;
    }

    /**
     * The shards of a home of {@code shards} shards that get {@code o}, backed up from a home of
     * {@code backedUpShards}: every shard when it was on every shard (a trigger), else the same shard
     * numbers, a number the home does not have becoming its default shard.
     */
    public static List<Integer> placement(TriggerOrEvent o, int backedUpShards, int shards, int defaultShard) {
        List<Integer> out = new ArrayList<>();
        boolean everywhere = backedUpShards > 0 && o.shards().stream().distinct().count() == backedUpShards;
        for (int s = 0; s < shards; s++) {
            if (everywhere || o.shards().contains(s)) {
                out.add(s);
            }
        }
        if (o.shards().stream().anyMatch(s -> s >= shards) && !out.contains(defaultShard)) {
            out.add(defaultShard);
        }
        return out;
    }

    /** A character set's or collation's name, as the server spells them. */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_]+");

    /**
     * Makes {@code objects} on one shard (those {@link #placement} gives it), outside the binlog, each in the
     * session context it was created in. A standby's replica gets its events as replication would make them
     * ({@code DISABLE ON SLAVE}: they must not fire on a replica). Returns a line for each object whose
     * definer is no account of the home (it would fail with 1449 when fired).
     */
    public static List<String> make(Connection c, int shard, List<TriggerOrEvent> objects, int backedUpShards,
                                    int shards, int defaultShard, boolean replica) throws SQLException {
        List<String> warnings = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
            for (TriggerOrEvent o : objects) {
                if (!placement(o, backedUpShards, shards, defaultShard).contains(shard)) {
                    continue;
                }
                String create = o.create();
                if (replica && o.kind() == TriggerOrEvent.Kind.EVENT) {
                    create = ENABLED.matcher(create).replaceFirst("$1DISABLE ON SLAVE");
                }
                create(s, o, create);
                String missing = missingDefiner(c, o.definer());
                if (missing != null) {
                    warnings.add(o.kind().name().toLowerCase(Locale.ROOT) + " " + o.qualifiedName() + " on shard " + shard
                            + ": its definer " + missing + " is no account here (the backup holds none by that name):"
                            + " it fails with error 1449 when it fires until that account is made");
                }
            }
        }
        return warnings;
    }

    /**
     * Runs {@code create} (the definition of {@code o}, perhaps changed) in {@code o}'s database and the session
     * context it was created in, then puts the session's character sets, sql_mode and time zone back.
     */
    public static void create(Statement s, TriggerOrEvent o, String create) throws SQLException {
        s.execute("USE " + quote(o.schema()));
        s.execute("SET NAMES utf8mb4");
        if (o.characterSetClient() != null && NAME.matcher(o.characterSetClient()).matches()
                && sendsAlike(o.characterSetClient(), create)) {
            // The driver sends UTF-8: another client set is told to the server only when the text's bytes are the same in it.
            s.execute("SET character_set_client = " + o.characterSetClient());
        }
        // The names come from a manifest or a catalog table and go into SET unquoted: only a plain name is sent.
        if (o.collationConnection() != null && NAME.matcher(o.collationConnection()).matches()) {
            s.execute("SET collation_connection = " + o.collationConnection());
        }
        s.execute("SET SESSION sql_mode = '" + o.sqlMode().replace("'", "''") + "'");
        if (o.timeZone() != null) {
            s.execute("SET time_zone = '" + o.timeZone().replace("'", "''") + "'");
        }
        try {
            s.execute(create);
        } catch (SQLException e) {
            throw new SQLException("making " + o.kind().name().toLowerCase(Locale.ROOT) + " " + o.qualifiedName()
                    + ": " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        } finally {
            s.execute("SET NAMES utf8mb4");
            s.execute("SET SESSION sql_mode = DEFAULT");
            s.execute("SET time_zone = DEFAULT");
        }
    }

    /**
     * The triggers of one table in the order they fire, each with the context SHOW CREATE TRIGGER gives
     * ({@code shard}: where it was read).
     */
    public static List<TriggerOrEvent> triggersOf(Connection c, int shard, String schema, String table) throws SQLException {
        List<TriggerOrEvent> out = new ArrayList<>();
        for (String[] t : rows(c, "SELECT TRIGGER_SCHEMA, TRIGGER_NAME, DEFINER FROM information_schema.TRIGGERS"
                + " WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ?"
                + " ORDER BY ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER", schema, table)) {
            out.add(trigger(c, shard, t));
        }
        return out;
    }

    /** {@code t}: TRIGGER_SCHEMA, TRIGGER_NAME, DEFINER. */
    private static TriggerOrEvent trigger(Connection c, int shard, String[] t) throws SQLException {
        // Trigger, sql_mode, SQL Original Statement, character_set_client, collation_connection, Database Collation
        String[] s = rows(c, "SHOW CREATE TRIGGER " + quote(t[0]) + "." + quote(t[1])).get(0);
        return new TriggerOrEvent(TriggerOrEvent.Kind.TRIGGER, t[0], t[1], t[2], List.of(shard), s[1], null, s[3], s[4], s[2]);
    }

    /** {@code 'user'@'host'} when the definer (as information_schema gives it, user@host) is no account or role of the shard. */
    static String missingDefiner(Connection c, String definer) throws SQLException {
        if (definer == null || definer.isEmpty()) {
            return null;
        }
        int at = definer.lastIndexOf('@');
        String user = at < 0 ? definer : definer.substring(0, at);
        String host = at < 0 ? "" : definer.substring(at + 1);
        List<String[]> found = at < 0
                ? rows(c, "SELECT 1 FROM mysql.user WHERE User = ? AND Host = ''", user)
                : rows(c, "SELECT 1 FROM mysql.user WHERE User = ? AND Host = ?", user, host);
        return found.isEmpty() ? "'" + user + "'@'" + host + "'" : null;
    }

    /** Whether {@code text} sent as UTF-8 reads the same in {@code charset}: a UTF-8 set, or ASCII text. */
    static boolean sendsAlike(String charset, String text) {
        String cs = charset.toLowerCase(Locale.ROOT);
        return cs.startsWith("utf8") || text.chars().allMatch(ch -> ch < 0x80);
    }
}
