package io.cleave.manager.standby;

import io.cleave.manager.standby.tls.ReplicaLink;
import io.cleave.proxy.accounts.CleaveSchema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Makes one freshly restored shard a replica of its primary shard, from the GTID position of the
 * cut its rows were restored at. XA transactions prepared and not committed at the cut are not in the
 * restored rows (their prepare lies before the cut's GTID): their prepare groups are replicated first,
 * by binlog file and position. Its own binlog (the restore's) is reset so the shard holds no
 * transaction of its own (strict GTID mode would refuse the primary's events after it), replication
 * resumes after the cut's GTIDs, semi-sync acknowledges every event, read-only keeps clients'
 * writes away. The settings last across restarts through the standby's config. The replica reaches its
 * primary as {@link ReplicaLink} says: over TLS verifying the primary's certificate, or in clear where the pair's
 * shards run without TLS (then it must not ask for it: MariaDB 11.3+ would by default). The replication account
 * made here (for a later switch of roles) logs in as {@code requirement} says (TLS only where this home's shards offer it).
 */
final class ReplicaSetup {

    private ReplicaSetup() {
    }

    static void start(Connection shard, Attachment.ShardAddress primary, ReplicationAccount account, String cutGtid,
                      List<PendingPrepare> prepared, ReplicaLink link, String requirement)
            throws SQLException, InterruptedException {
        if (cutGtid == null) {
            throw new IllegalStateException("the backup holds no GTID position for shard " + primary.shard()
                    + ": a standby needs MariaDB shards with their binlog on");
        }
        account.ensure(shard, requirement);
        cleaveProcedures(shard);
        try (Statement s = shard.createStatement()) {
            s.execute("STOP SLAVE");
            s.execute("RESET SLAVE ALL");
            netTimeout(s);
            holdNothingOfItsOwn(s);
            // A physical seed copies the primary's events as they are there, enabled (a logical one makes them so).
            ShardEvents.disableOnReplica(shard);
            for (PendingPrepare p : prepared) {
                applyPrepareGroup(s, primary, account, p, link);
            }
            replicateFrom(s, primary, account, cutGtid, link);
        }
    }

    /**
     * Makes a new, empty shard (initialized from the template, nothing written to it) the replica of a primary
     * shard a scale added, from that shard's first transaction: the primary writes nothing to it before this
     * replica is connected (see {@link PrimarySide#awaitStandbyReplica}), so everything it ever logged is
     * replicated, Cleave's own schema included. Done once: a shard that already has a replica configured
     * (a restarted standby daemon starting it again) is left replicating from where it is.
     *
     * @return whether it was set up now
     */
    static boolean startFromScratch(Connection shard, Attachment.ShardAddress primary, ReplicationAccount account,
                                    ReplicaLink link, String requirement) throws SQLException {
        try (Statement s = shard.createStatement()) {
            try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                if (rs.next()) {
                    return false;
                }
            }
            account.ensure(shard, requirement);
            holdNothingOfItsOwn(s);
            replicateFrom(s, primary, account, "", link);
        }
        return true;
    }

    /**
     * Points a running replica's TLS at {@code link} when it differs (replication TLS turned on or off for the pair,
     * or the replica set up by hand): the replica stops, takes the link's TLS options and starts again from its GTID
     * position. Nothing is done to a replica already connecting as the link says.
     *
     * @return whether the replica was changed
     */
    static boolean relink(Connection shard, ReplicaLink link) throws SQLException {
        try (Statement s = shard.createStatement()) {
            try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    return false;
                }
                boolean encrypted = "Yes".equals(rs.getString("Master_SSL_Allowed"));
                boolean verified = "Yes".equals(rs.getString("Master_SSL_Verify_Server_Cert"));
                String caFile = rs.getString("Master_SSL_CA_File");
                boolean asLinked = link.ca().map(ca -> encrypted && verified
                        && ca.toAbsolutePath().toString().equals(caFile)).orElse(!encrypted);
                if (asLinked) {
                    return false;
                }
            }
            s.execute("STOP SLAVE");
            s.execute("CHANGE MASTER TO " + link.changeMasterOptions());
            s.execute("START SLAVE");
        }
        return true;
    }

    /** No transaction of its own in its binlog (strict GTIDs would refuse the primary's after it), no client writes. */
    private static void holdNothingOfItsOwn(Statement s) throws SQLException {
        s.execute("RESET MASTER");
        s.execute("SET GLOBAL gtid_strict_mode = ON");
        s.execute("SET GLOBAL read_only = ON");
    }

    /**
     * Makes a shard that was a primary a replica of the other home's shard, which took over at
     * {@code gtid}: the shard's own binlog ends there too (it was read-only since, and the other
     * shard applied exactly that), so it replicates from there on, acknowledging in semi-sync. It
     * keeps its binlog: the other home may switch back to it later, from the same positions.
     */
    static void follow(Connection shard, Attachment.ShardAddress primary, ReplicationAccount account, String gtid,
                       ReplicaLink link) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET GLOBAL read_only = ON");
            s.execute("SET GLOBAL gtid_strict_mode = ON");
            s.execute("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
            s.execute("STOP SLAVE");
            ShardEvents.disableOnReplica(shard);
            replicateFrom(s, primary, account, gtid, link);
        }
    }

    private static void replicateFrom(Statement s, Attachment.ShardAddress primary, ReplicationAccount account,
                                      String gtid, ReplicaLink link) throws SQLException {
        s.execute("RESET SLAVE ALL");
        netTimeout(s);
        s.execute("SET GLOBAL gtid_slave_pos = '" + gtid(gtid) + "'");
        s.execute("SET GLOBAL rpl_semi_sync_slave_enabled = ON");
        s.execute("CHANGE MASTER TO " + source(primary, account, link) + ", MASTER_USE_GTID = slave_pos");
        s.execute("START SLAVE");
    }

    /**
     * Cleave's own procedures and their grants as the primary's shards have them, made outside the binlog:
     * a backup holds tables, not them, and the primary's proxy grants EXECUTE on them again at every start
     * (replicated), which a replica without them would stop at. Nothing else of the proxy's setup is
     * made here: its tables and rows (the lookup secret's too) come from the primary.
     */
    static void cleaveProcedures(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            try {
                for (CleaveSchema.Step step : CleaveSchema.setup("standby", "", true)) {
                    String sql = step.sql();
                    if (!sql.startsWith("CREATE DATABASE") && !sql.startsWith("CREATE OR REPLACE DEFINER")
                            && !sql.startsWith("GRANT ")) {
                        continue;
                    }
                    try {
                        s.execute(sql);
                    } catch (SQLException e) {
                        if (!step.optional()) {
                            throw e;
                        }
                        // Grants to PUBLIC need MariaDB 10.11: the primary's failed the same way and logged nothing.
                    }
                }
            } finally {
                s.execute("SET SESSION sql_log_bin = 1");
            }
        }
    }

    /**
     * Replicates one prepare group from the primary shard's binlog by file and position, stopping at its
     * end: the transaction is then prepared here as it was there at the cut, and the XA COMMIT replicated
     * from the cut finds it.
     */
    private static void applyPrepareGroup(Statement s, Attachment.ShardAddress primary, ReplicationAccount account,
                                          PendingPrepare p, ReplicaLink link) throws SQLException, InterruptedException {
        s.execute("RESET SLAVE ALL");
        s.execute("CHANGE MASTER TO " + source(primary, account, link) + ", MASTER_USE_GTID = no, MASTER_LOG_FILE = '"
                + file(p.file()) + "', MASTER_LOG_POS = " + p.start());
        s.execute("START SLAVE UNTIL MASTER_LOG_FILE = '" + file(p.file()) + "', MASTER_LOG_POS = " + p.end());
        long deadline = System.currentTimeMillis() + 60_000;
        while (true) {
            try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                rs.next();
                if (rs.getInt("Last_SQL_Errno") != 0 || rs.getInt("Last_IO_Errno") != 0) {
                    throw new SQLException("shard " + primary.shard() + ": replicating XA transaction " + p.xid()
                            + " prepared at the cut failed: " + firstNonEmpty(rs.getString("Last_SQL_Error"),
                            rs.getString("Last_IO_Error")));
                }
                if ("No".equals(rs.getString("Slave_SQL_Running"))) {
                    break;
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new SQLException("shard " + primary.shard() + ": XA transaction " + p.xid() + " prepared at the cut"
                        + " was not replicated within a minute");
            }
            Thread.sleep(20);
        }
        s.execute("STOP SLAVE");
    }

    /** Before CHANGE MASTER: its heartbeat period is taken from it ({@link StandbyConfig#NET_TIMEOUT_SECONDS}). */
    static void netTimeout(Statement s) throws SQLException {
        s.execute("SET GLOBAL slave_net_timeout = " + StandbyConfig.NET_TIMEOUT_SECONDS);
    }

    /** The primary shard's address, login and TLS options of {@code CHANGE MASTER TO}. */
    static String source(Attachment.ShardAddress primary, ReplicationAccount account, ReplicaLink link) {
        return "MASTER_HOST = '" + host(primary.host()) + "', MASTER_PORT = " + primary.port() + ", MASTER_USER = '"
                + account.user() + "', MASTER_PASSWORD = '" + account.password() + "', MASTER_CONNECT_RETRY = 1, "
                + link.changeMasterOptions();
    }

    private static String file(String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("'" + name + "' is not a binlog file name");
        }
        return name;
    }

    private static String firstNonEmpty(String a, String b) {
        return a != null && !a.isEmpty() ? a : b;
    }

    /** A GTID list as servers print it: domain-server-sequence, comma separated; nothing else may be quoted in. */
    static String gtid(String text) {
        if (!text.matches("[0-9]+-[0-9]+-[0-9]+(,[0-9]+-[0-9]+-[0-9]+)*|")) {
            throw new IllegalArgumentException("'" + text + "' is not a GTID position");
        }
        return text;
    }

    private static String host(String host) {
        if (!host.matches("[A-Za-z0-9.:_-]+")) {
            throw new IllegalArgumentException("'" + host + "' is not a host name or address");
        }
        return host;
    }
}
