package io.cleave.manager.standby;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether a freshly seeded replica can follow its primary shard: it must apply everything the primary
 * shard wrote up to now. A transaction prepared at the cut whose prepare group was not replicated first
 * (older than the binlog files read for it, see {@link PreparedAtCut}) stops the replica at its XA COMMIT
 * with "Unknown XID" (1397): the seed is then taken again at another cut.
 */
final class SeedCheck {

    /** MariaDB's XAER_NOTA: an XA COMMIT or ROLLBACK of a transaction the replica never saw prepared. */
    static final int UNKNOWN_XID = 1397;

    /** The seed's cut split a cross-shard transaction on this shard: seed again. */
    static final class TornAtCut extends Exception {
        TornAtCut(String message) {
            super(message);
        }
    }

    private SeedCheck() {
    }

    /**
     * Waits until {@code replica} applied what its primary shard holds now; throws when it cannot. {@code jdbcTls}: the
     * TLS options of the URL to the primary shard ({@link io.cleave.manager.standby.tls.ShardTls#jdbcOptions}).
     */
    static void caughtUp(Connection replica, Attachment.ShardAddress primary, ReplicationAccount account, String jdbcTls,
                         long timeoutMillis) throws SQLException, TornAtCut, InterruptedException {
        GtidPosition target;
        try (Connection p = DriverManager.getConnection("jdbc:mysql://" + primary.host() + ":" + primary.port()
                + "/?" + jdbcTls + "&allowPublicKeyRetrieval=true&connectTimeout=3000", account.user(), account.password());
             Statement s = p.createStatement(); ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
            rs.next();
            target = GtidPosition.parse(rs.getString(1));
        }
        long deadline = System.currentTimeMillis() + timeoutMillis;
        try (Statement s = replica.createStatement()) {
            while (true) {
                GtidPosition applied;
                try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_slave_pos")) {
                    rs.next();
                    applied = GtidPosition.parse(rs.getString(1));
                }
                try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                    if (!rs.next()) {
                        throw new IllegalStateException("shard " + primary.shard() + " has no replication configured");
                    }
                    int sqlErrno = rs.getInt("Last_SQL_Errno");
                    if (sqlErrno == UNKNOWN_XID) {
                        throw new TornAtCut("shard " + primary.shard() + ": " + rs.getString("Last_SQL_Error"));
                    }
                    if (sqlErrno != 0) {
                        throw new IllegalStateException("shard " + primary.shard() + "'s replica stopped: "
                                + rs.getString("Last_SQL_Error"));
                    }
                    if (applied.reached(target)) {
                        return;
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("shard " + primary.shard() + "'s replica did not reach the primary's"
                                + " position " + target.sequences() + " within " + timeoutMillis / 1000 + " s (IO thread "
                                + rs.getString("Slave_IO_Running") + ": " + rs.getString("Last_IO_Error") + ")");
                    }
                }
                Thread.sleep(50);
            }
        }
    }
}
