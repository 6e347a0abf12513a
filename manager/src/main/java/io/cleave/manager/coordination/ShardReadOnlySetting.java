package io.cleave.manager.coordination;

import io.cleave.manager.move.ShardLinks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How the fence sets one shard's read_only. {@code SET GLOBAL read_only = ON} takes the global read lock, which
 * first stops every new write on the shard and then waits for the commits in progress. A commit waiting for the
 * standby's semi-sync acknowledgement is one of them, and after a failover that acknowledgement never comes (no
 * fallback to async): the statement then holds the lock until its lock wait ends, and everything that writes on
 * the shard queues behind it. So, turning it on:
 * <ul>
 * <li>not while commits wait for the standby: it would only block the shard behind them. It fails at once, saying
 *     so, and is tried again; the proxy's fence refuses writes meanwhile. The waiting commits are left waiting:
 *     releasing them (semi-sync off) would make writes no standby holds visible on a primary that lost its lease.</li>
 * <li>else with a lock wait of {@value #LOCK_WAIT_SECONDS} s, so that a commit beginning to wait between the check
 *     and the statement holds the shard up for that long, not for the server's lock_wait_timeout.</li>
 * </ul>
 * Turning it off takes no lock.
 */
public final class ShardReadOnlySetting implements ShardsReadOnly.Setting {

    static final int LOCK_WAIT_SECONDS = 1;
    /** A backstop for the client: the server gives up after its lock wait. */
    private static final int QUERY_TIMEOUT_SECONDS = 10;
    /** Past this, a statement's reply counts as lost: the connection fails and the shard is tried again. */
    static final int NETWORK_TIMEOUT_MILLIS = 15_000;
    /**
     * Sessions whose commit (or XA PREPARE) waits for the standby's acknowledgement. From the process list, not the
     * {@code Rpl_semi_sync_master_wait_sessions} status: reading the status takes the semi-sync master's lock, which
     * a binlog dump thread can hold while it writes to a standby whose link is gone, and the fence would wait there.
     * MariaDB names the stage "Waiting for semi-sync ACK from slave" (newer terminology: "replica").
     */
    public static final String WAITING_COMMITS = "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
            + " WHERE STATE LIKE 'Waiting for semi-sync ACK from %'";

    /** The statements the setting sends one shard: over JDBC, or to a scripted shard in the tests. */
    interface Statements extends AutoCloseable {
        /** The first column of the first row as a number; 0 when there is no row. */
        long number(String sql) throws SQLException;

        void execute(String sql) throws SQLException;

        @Override
        void close() throws SQLException;
    }

    /** Opens a shard's statements. */
    @FunctionalInterface
    interface Shards {
        Statements open(int shard) throws SQLException;
    }

    private final Shards shards;

    ShardReadOnlySetting(Shards shards) {
        this.shards = shards;
    }

    /** Over JDBC connections of {@code links}. */
    static ShardReadOnlySetting over(ShardLinks links) {
        return new ShardReadOnlySetting(shard -> jdbc(links.open(shard)));
    }

    @Override
    public void apply(int shard, boolean readOnly) throws SQLException {
        try (Statements s = shards.open(shard)) {
            if (readOnly) {
                long waiting = s.number(WAITING_COMMITS);
                if (waiting > 0) {
                    throw new SQLException(waiting + " commit(s) wait for the standby's acknowledgement; read_only would"
                            + " wait behind them holding the global read lock, so it waits until they are gone (the"
                            + " fenced proxy refuses meanwhile)", "HY000");
                }
            }
            s.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_SECONDS);
            s.execute("SET GLOBAL read_only = " + (readOnly ? "ON" : "OFF"));
        }
    }

    private static Statements jdbc(Connection c) throws SQLException {
        // No statement of the fence may wait for ever: the retries go on only once an attempt returns.
        try {
            c.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new Statements() {
            @Override
            public long number(String sql) throws SQLException {
                try (Statement st = c.createStatement()) {
                    st.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                    try (ResultSet rs = st.executeQuery(sql)) {
                        return rs.next() ? rs.getLong(1) : 0;
                    }
                }
            }

            @Override
            public void execute(String sql) throws SQLException {
                try (Statement st = c.createStatement()) {
                    st.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                    st.execute(sql);
                }
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }
}
