package io.cleave.manager.standby;

import io.cleave.manager.standby.tls.ReplicaTlsState;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** Reads one shard's {@link ShardReplication}: its replica status, its GTID positions and its semi-sync counters. */
final class ReplicationProbe {

    private ReplicationProbe() {
    }

    static ShardReplication read(int shard, Connection c, HostRole role) throws SQLException {
        String io = null;
        String sql = null;
        long lag = -1;
        String error = null;
        String tls = null;
        try (Statement s = c.createStatement()) {
            if (role == HostRole.STANDBY) {
                try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                    if (rs.next()) {
                        io = rs.getString("Slave_IO_Running");
                        sql = rs.getString("Slave_SQL_Running");
                        long behind = rs.getLong("Seconds_Behind_Master");
                        lag = rs.wasNull() ? -1 : behind;
                        ReplicaTlsState state = ReplicaTlsState.of(
                                rs.getString("Master_SSL_Allowed"), rs.getString("Master_SSL_Verify_Server_Cert"));
                        tls = state.label();
                        error = firstNonEmpty(state.explain(rs.getString("Last_IO_Error")), rs.getString("Last_SQL_Error"));
                    } else {
                        io = "No";
                        sql = "No";
                        error = "no replication configured";
                    }
                }
            }
            String binlogPos;
            String slavePos;
            boolean readOnly;
            try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos, @@GLOBAL.gtid_slave_pos, @@GLOBAL.read_only")) {
                rs.next();
                binlogPos = rs.getString(1);
                slavePos = rs.getString(2);
                readOnly = rs.getBoolean(3);
            }
            Map<String, String> status = new HashMap<>();
            try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_%'")) {
                while (rs.next()) {
                    status.put(rs.getString(1).toLowerCase(java.util.Locale.ROOT), rs.getString(2));
                }
            }
            String semiSync = role == HostRole.PRIMARY ? status.get("rpl_semi_sync_master_status")
                    : status.get("rpl_semi_sync_slave_status");
            return new ShardReplication(shard, io, sql, lag, error, binlogPos, slavePos, readOnly, semiSync,
                    number(status, "rpl_semi_sync_master_clients"), number(status, "rpl_semi_sync_master_wait_sessions"),
                    number(status, "rpl_semi_sync_master_no_tx"), tls);
        }
    }

    private static long number(Map<String, String> status, String name) {
        String v = status.get(name);
        try {
            return v == null ? 0 : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String firstNonEmpty(String a, String b) {
        if (a != null && !a.isEmpty()) {
            return a;
        }
        return b == null || b.isEmpty() ? null : b;
    }
}
