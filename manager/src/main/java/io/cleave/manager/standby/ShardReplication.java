package io.cleave.manager.standby;

/**
 * One shard's replication as its server reports it.
 *
 * @param shard          the shard's index
 * @param ioThread       the replica's IO thread: {@code Yes}, {@code No}, {@code Connecting}; null on a primary
 * @param sqlThread      the replica's SQL thread: {@code Yes} or {@code No}; null on a primary
 * @param lagSeconds     {@code Seconds_Behind_Master}; -1 when the server cannot tell (a thread stopped) or on a primary
 * @param lastError      the replica's last IO or SQL error, null when none
 * @param gtidBinlogPos  {@code @@gtid_binlog_pos}: the GTIDs in this shard's binlog
 * @param gtidSlavePos   {@code @@gtid_slave_pos}: the GTIDs this shard applied as a replica
 * @param readOnly       {@code @@read_only}
 * @param semiSync       the semi-sync state: {@code Rpl_semi_sync_master_status} on a primary,
 *                       {@code Rpl_semi_sync_slave_status} on a replica ({@code ON} or {@code OFF})
 * @param semiSyncClients replicas acknowledging in semi-sync (on a primary)
 * @param waitingCommits sessions waiting for the replica's acknowledgement now (on a primary)
 * @param asyncCommits   commits that ended without an acknowledgement since the shard started (on a primary):
 *                       {@code Rpl_semi_sync_master_no_tx}, 0 unless semi-sync fell back
 * @param tls            the replica's connection to its primary shard: {@code verified} (TLS, the primary's certificate
 *                       verified), {@code unverified}, {@code off} (in clear); null on a primary
 */
public record ShardReplication(int shard, String ioThread, String sqlThread, long lagSeconds, String lastError,
                               String gtidBinlogPos, String gtidSlavePos, boolean readOnly, String semiSync,
                               long semiSyncClients, long waitingCommits, long asyncCommits, String tls) {

    /** Both replica threads run and the last error is clear. */
    public boolean replicating() {
        return "Yes".equals(ioThread) && "Yes".equals(sqlThread);
    }
}
