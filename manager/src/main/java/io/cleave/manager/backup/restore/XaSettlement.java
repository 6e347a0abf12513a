package io.cleave.manager.backup.restore;

import io.cleave.manager.move.ShardLinks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Settles Cleave's XA branches a replay left prepared (prepared before the restore point, their
 * commit after it) as recovery would: committed when their coordinator's restored decision rows hold
 * their decision, rolled back otherwise. At a consistent cut no branch of a decided transaction is
 * still prepared, so in practice they are rolled back; the decision rows are the rule all the same.
 * An application's own prepared branch stays prepared, as on one server after a crash: only the
 * application knows its fate.
 */
final class XaSettlement {

    private static final String PREFIX = "cleave:";

    private XaSettlement() {
    }

    /** Returns one line per branch settled ("committed cleave:... on shard 1"). */
    static List<String> settle(ShardLinks links, int shards) throws SQLException {
        List<String> done = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            try {
                settle(links, shards, s, done);
            } catch (SQLException e) { // the driver's text ("Communications link failure") names no shard
                throw new SQLException("settling the XA branches on shard " + s + ": " + e.getMessage(), e.getSQLState(),
                        e.getErrorCode(), e);
            }
        }
        return done;
    }

    private static void settle(ShardLinks links, int shards, int s, List<String> done) throws SQLException {
        try (Connection c = links.open(s)) {
            List<String> prepared = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("XA RECOVER")) {
                while (rs.next()) {
                    String data = rs.getString(4);
                    int gtrid = rs.getInt(2);
                    prepared.add(data.substring(0, Math.min(gtrid, data.length())));
                }
            }
            for (String xid : prepared) {
                if (!xid.startsWith(PREFIX)) {
                    done.add("left prepared " + xid + " on shard " + s + " (the application's: XA COMMIT or"
                            + " XA ROLLBACK it)");
                    continue;
                }
                boolean commit = decided(links, shards, xid);
                try (Statement st = c.createStatement()) {
                    st.execute("SET sql_log_bin = 0");
                    st.execute((commit ? "XA COMMIT '" : "XA ROLLBACK '") + xid.replace("'", "''") + "'");
                }
                done.add((commit ? "committed " : "rolled back ") + xid + " on shard " + s);
            }
        }
    }

    private static boolean decided(ShardLinks links, int shards, String xid) throws SQLException {
        int coordinator;
        try {
            coordinator = Integer.parseInt(xid.substring(PREFIX.length(), xid.indexOf(':', PREFIX.length())));
        } catch (RuntimeException e) {
            return false;
        }
        if (coordinator < 0 || coordinator >= shards) {
            return false;
        }
        try (Connection c = links.open(coordinator);
             PreparedStatement ps = c.prepareStatement("SELECT 1 FROM cleave.decisions WHERE xid = ?")) {
            ps.setString(1, xid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
