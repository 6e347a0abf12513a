package io.cleave.manager.standby.layout;

import io.cleave.proxy.accounts.CleaveSchema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/** The table {@code cleave.shard_maps}: shard map versions as the state file holds them, by version. */
public final class MapRows {

    /** Versions kept below the newest: enough to see what changed, bounded. */
    static final int KEPT = 20;
    /** A server without the table, or a table not yet made on a replica: nothing replicated yet. */
    private static final int NO_SUCH_TABLE = 1146;

    /** One stored version: its number and the JSON of {@code ShardMapStore.render}. */
    record Row(long version, byte[] json) {
    }

    private MapRows() {
    }

    static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(CleaveSchema.SHARD_MAPS_DDL);
        }
    }

    /**
     * Writes {@code json} as {@code version} (replacing a row of that version, which an update that failed
     * may have left) and drops versions far below it, in one transaction.
     */
    static void write(Connection c, long version, byte[] json) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement put = c.prepareStatement("INSERT INTO cleave.shard_maps (version, map) VALUES (?, ?)"
                + " ON DUPLICATE KEY UPDATE map = VALUES(map), written = CURRENT_TIMESTAMP(6)");
             PreparedStatement prune = c.prepareStatement("DELETE FROM cleave.shard_maps WHERE version < ?")) {
            put.setLong(1, version);
            put.setString(2, new String(json, StandardCharsets.UTF_8));
            put.executeUpdate();
            prune.setLong(1, version - KEPT);
            prune.executeUpdate();
            c.commit();
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the connection is gone: the server rolls back
            }
            throw e;
        } finally {
            try {
                c.setAutoCommit(autoCommit);
            } catch (SQLException ignored) {
                // as above
            }
        }
    }

    /** The newest version the shard holds; empty when none (or no table). */
    static Optional<Row> newest(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version, map FROM cleave.shard_maps ORDER BY version DESC LIMIT 1")) {
            return rs.next() ? Optional.of(new Row(rs.getLong(1), rs.getString(2).getBytes(StandardCharsets.UTF_8)))
                    : Optional.empty();
        } catch (SQLException e) {
            if (e.getErrorCode() == NO_SUCH_TABLE) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The newest version's number, or 0. */
    public static long newestVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(version) FROM cleave.shard_maps")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            if (e.getErrorCode() == NO_SUCH_TABLE) {
                return 0;
            }
            throw e;
        }
    }
}
