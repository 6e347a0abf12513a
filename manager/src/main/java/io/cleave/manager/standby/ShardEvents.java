package io.cleave.manager.standby;

import io.cleave.manager.backup.triggers.TriggerOrEvent;
import io.cleave.manager.backup.triggers.TriggersAndEvents;
import io.cleave.manager.move.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A shard's events as its role changes. An event must not fire on a replica (it would write there, or fail on
 * read_only): replication, and a standby's seed, make each event of the primary {@code DISABLE ON SLAVE}
 * (SLAVESIDE_DISABLED), so a promoted shard would run none of them. A promotion therefore enables them again, and a
 * shard that becomes a replica (an old primary after a switchover or a rejoin) disables its own, outside its binlog so
 * its GTIDs stay the new primary's.
 * <p>
 * ALTER EVENT makes whoever runs it the event's definer and keeps the session's sql_mode and time zone: each is
 * altered with its own definer, in the context it was made in.
 */
public final class ShardEvents {

    private static final Logger log = LoggerFactory.getLogger(ShardEvents.class);

    private ShardEvents() {
    }

    /**
     * On a promoted shard: every SLAVESIDE_DISABLED event is enabled (binlogged: the next standby gets it). One that
     * cannot be is logged and does not stop the promotion.
     */
    public static void enableOnPromotion(int shard, Connection c) {
        try {
            List<String> enabled = alter(c, "SLAVESIDE_DISABLED", "ENABLE");
            if (!enabled.isEmpty()) {
                log.info("shard {}: events enabled on the new primary: {}", shard, enabled);
            }
        } catch (SQLException e) {
            log.warn("shard {}: its events stay disabled on the new primary ({}): enable them with ALTER EVENT ... ENABLE",
                    shard, e.getMessage());
        }
    }

    /**
     * On a shard that becomes a replica: every enabled event becomes DISABLE ON SLAVE, outside the binlog. One that
     * cannot be is logged and does not stop the shard replicating (read_only makes it fail should it fire).
     */
    public static void disableOnReplica(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            try {
                List<String> disabled = alter(c, "ENABLED", "DISABLE ON SLAVE");
                if (!disabled.isEmpty()) {
                    log.info("events disabled on the shard that replicates now: {}", disabled);
                }
            } finally {
                s.execute("SET SESSION sql_log_bin = 1");
            }
        } catch (SQLException e) {
            log.warn("events stay enabled on a shard that replicates now ({}): they fail on read_only if the event"
                    + " scheduler runs", e.getMessage());
        }
    }

    private static List<String> alter(Connection c, String status, String to) throws SQLException {
        List<TriggerOrEvent> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT EVENT_SCHEMA, EVENT_NAME, DEFINER, SQL_MODE, TIME_ZONE,"
                + " CHARACTER_SET_CLIENT, COLLATION_CONNECTION FROM information_schema.EVENTS WHERE STATUS = ?"
                + " ORDER BY EVENT_SCHEMA, EVENT_NAME")) {
            ps.setString(1, status);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!Catalog.SYSTEM_SCHEMAS.contains(rs.getString(1).toLowerCase(Locale.ROOT))) {
                        events.add(new TriggerOrEvent(TriggerOrEvent.Kind.EVENT, rs.getString(1), rs.getString(2),
                                rs.getString(3), List.of(), rs.getString(4), rs.getString(5), rs.getString(6),
                                rs.getString(7), ""));
                    }
                }
            }
        }
        List<String> done = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (TriggerOrEvent e : events) {
                TriggersAndEvents.create(s, e, "ALTER DEFINER = " + definer(e.definer()) + " EVENT " + quote(e.schema())
                        + "." + quote(e.name()) + " " + to);
                done.add(e.qualifiedName());
            }
        }
        return done;
    }

    /** {@code user@host} as information_schema spells it, as a DEFINER clause. */
    static String definer(String definer) {
        int at = definer.lastIndexOf('@');
        String user = at < 0 ? definer : definer.substring(0, at);
        String host = at < 0 ? "%" : definer.substring(at + 1);
        return literal(user) + "@" + literal(host);
    }

    private static String literal(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
