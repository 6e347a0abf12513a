package io.cleave.manager.standby;

import io.cleave.proxy.accounts.CleaveSchema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes one freshly restored shard a replica of its primary shard, from the GTID position of the
 * cut its rows were restored at: its own binlog (the restore's) is reset so the shard holds no
 * transaction of its own (strict GTID mode would refuse the primary's events after it), replication
 * resumes after the cut's GTIDs, semi-sync acknowledges every event, read-only keeps clients'
 * writes away. The settings last across restarts through the standby's config. Shards run without
 * TLS (they listen on loopback), so the replica does not ask for it (MariaDB 11.3+ would by default).
 */
final class ReplicaSetup {

    private ReplicaSetup() {
    }

    static void start(Connection shard, Attachment.ShardAddress primary, ReplicationAccount account, String cutGtid)
            throws SQLException {
        if (cutGtid == null) {
            throw new IllegalStateException("the backup holds no GTID position for shard " + primary.shard()
                    + ": a standby needs MariaDB shards with their binlog on");
        }
        account.ensure(shard);
        cleaveProcedures(shard);
        try (Statement s = shard.createStatement()) {
            s.execute("STOP SLAVE");
            s.execute("RESET SLAVE ALL");
            s.execute("RESET MASTER");
            s.execute("SET GLOBAL gtid_slave_pos = '" + gtid(cutGtid) + "'");
            s.execute("SET GLOBAL gtid_strict_mode = ON");
            s.execute("SET GLOBAL read_only = ON");
            s.execute("SET GLOBAL rpl_semi_sync_slave_enabled = ON");
            s.execute("CHANGE MASTER TO MASTER_HOST = '" + host(primary.host()) + "', MASTER_PORT = " + primary.port()
                    + ", MASTER_USER = '" + account.user() + "', MASTER_PASSWORD = '" + account.password()
                    + "', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1, MASTER_SSL = 0");
            s.execute("START SLAVE");
        }
    }

    /**
     * Cleave's own procedures and their grants as the primary's shards have them, made outside the binlog:
     * a backup holds tables, not them, and the primary's proxy grants EXECUTE on them again at every start
     * (replicated), which a replica without them would stop at. Nothing else of the proxy's setup is
     * made here: its rows come from the primary.
     */
    static void cleaveProcedures(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            try {
                for (CleaveSchema.Step step : CleaveSchema.setup("standby", true)) {
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
