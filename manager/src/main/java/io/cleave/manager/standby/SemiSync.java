package io.cleave.manager.standby;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Semi-synchronous replication on a primary's shard, MariaDB's built-in (10.3+): a commit is answered
 * only once the replica has the transaction in its relay log, and the replica receives it only after
 * the primary's binlog is synced (AFTER_SYNC), so no client sees a commit the standby could lose.
 * The timeout is the largest the server takes (about 49 days): a replica that stops acknowledging
 * blocks the shard's commits instead of letting them fall back to asynchronous replication, which
 * would acknowledge commits the standby never got. The operator decides (turn it off, or bring the
 * standby back); {@code cleave status} shows the waiting commits.
 */
final class SemiSync {

    /** {@code rpl_semi_sync_master_timeout}'s maximum, in milliseconds. */
    static final long NEVER_FALL_BACK_MS = 4_294_967_295L;

    private SemiSync() {
    }

    /**
     * The my.cnf options of a primary's shards, so a shard that restarts comes up waiting for the standby
     * before it takes a commit: with semi-sync on, its settings; always strict GTIDs.
     */
    static java.util.Map<String, String> cnfOptions(boolean on) {
        java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        options.put("gtid_strict_mode", "ON");
        if (on) {
            options.put("rpl_semi_sync_master_enabled", "ON");
            options.put("rpl_semi_sync_master_wait_point", "AFTER_SYNC");
            options.put("rpl_semi_sync_master_timeout", String.valueOf(NEVER_FALL_BACK_MS));
            options.put("rpl_semi_sync_master_wait_no_slave", "ON");
        }
        return options;
    }

    static void enable(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET GLOBAL rpl_semi_sync_master_wait_point = 'AFTER_SYNC'");
            s.execute("SET GLOBAL rpl_semi_sync_master_timeout = " + NEVER_FALL_BACK_MS);
            s.execute("SET GLOBAL rpl_semi_sync_master_wait_no_slave = ON");
            s.execute("SET GLOBAL rpl_semi_sync_master_enabled = ON");
        }
    }

    /** How many replicas are connected to the shard as semi-sync replicas now. */
    static int replicasConnected(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_clients'")) {
            return rs.next() ? rs.getInt(2) : 0;
        }
    }

    static void disable(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
        }
    }
}
