package io.cleave.manager.standby;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Makes a standby's shards primaries when the primary host is gone (or fenced by the operator): each
 * replica stops receiving, applies everything its relay log holds (with semi-sync AFTER_SYNC that is
 * every commit the primary acknowledged), forgets its primary and becomes writable, with no semi-sync
 * of its own (it has no standby yet); then the epoch is bumped and the role becomes PRIMARY.
 * <p>
 * XA branches left prepared are not settled here: the daemon then starts its proxy, whose recovery
 * settles every prepared branch by its coordinator's replicated decision rows before it takes a client.
 * A decision row is written before any branch's XA COMMIT, so a branch committed on one shard has its
 * decision on the coordinator, and none is half applied.
 * <p>
 * Nothing here fences the old primary: the operator must make sure it is gone.
 */
public final class Promotion {

    private static final Logger log = LoggerFactory.getLogger(Promotion.class);
    private static final String PREFIX = "cleave:";
    /** How long a replica's stop may wait before the promotion logs what the shard is doing. */
    private static final int SLOW_STOP_SECONDS = 5;

    private final CleaveHome home;
    private final ShardLinks links;
    private final long drainMillis;

    public Promotion(CleaveHome home, ShardLinks links, long drainMillis) {
        this.home = home;
        this.links = links;
        this.drainMillis = drainMillis;
    }

    /** Why this home cannot be promoted, or null when it can. */
    public String refusal() {
        StandbyState state = StandbyState.of(home).orElse(null);
        if (state == null) {
            return "this home has no standby pair: there is nothing to promote";
        }
        return state.role() == HostRole.STANDBY ? null : "this home is already the primary (epoch " + state.epoch() + ")";
    }

    /**
     * Promotes every shard in {@code shards} and records the new role and epoch. A shard whose replica has
     * stopped on an error is not promoted and the whole promotion fails: it lacks transactions the primary
     * acknowledged. Running it again after a failure goes on where it stopped (a shard already promoted has no
     * replica configuration left).
     */
    public List<ShardPromotion> promote(List<Integer> shards) throws SQLException, InterruptedException {
        return promote(shards, true);
    }

    /**
     * Promotes every shard in {@code shards} whose replica has already applied everything its primary
     * wrote (a switchover waited for each one's GTID position while the primary was read-only): no relay
     * log is drained, the replica only stops.
     */
    public List<ShardPromotion> promoteCaughtUp(List<Integer> shards) throws SQLException, InterruptedException {
        return promote(shards, false);
    }

    private List<ShardPromotion> promote(List<Integer> shards, boolean drainRelayLog)
            throws SQLException, InterruptedException {
        String refused = refusal();
        if (refused != null) {
            throw new IllegalStateException(refused);
        }
        Map<Integer, Long> ioStopMillis = stopReceiving(shards, drainRelayLog);
        List<ShardPromotion> out = new ArrayList<>();
        for (int shard : shards) {
            try (Connection c = links.open(shard)) {
                out.add(promoteShard(shard, c, drainRelayLog, ioStopMillis.get(shard)));
            }
        }
        return becomePrimary(out);
    }

    /**
     * Stops every shard's IO thread at once; how long each took. A semi-sync replica's IO thread, as it stops, opens
     * a connection to its primary to kill its dump thread there, waiting up to rpl_semi_sync_slave_kill_conn_timeout
     * (5 s by default): with the primary's host cut off that was 5 s per shard, one shard after another. In a
     * failover ({@code primaryGone}) that wait is cut to 1 s (the primary is lost or fenced: its dump thread does
     * not matter), and put back after; a switchover's primary answers at once.
     */
    private Map<Integer, Long> stopReceiving(List<Integer> shards, boolean primaryGone)
            throws SQLException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, shards.size()), r -> {
            Thread t = new Thread(r, "promotion-stop-io");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<Integer, Future<Long>> stops = new TreeMap<>();
            for (int shard : shards) {
                stops.put(shard, pool.submit(() -> {
                    try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                        long started = System.nanoTime();
                        if (!primaryGone) {
                            s.execute("STOP SLAVE IO_THREAD");
                            return (System.nanoTime() - started) / 1_000_000;
                        }
                        String timeout = single(s, "SELECT @@GLOBAL.rpl_semi_sync_slave_kill_conn_timeout");
                        s.execute("SET GLOBAL rpl_semi_sync_slave_kill_conn_timeout = 1");
                        try {
                            s.execute("STOP SLAVE IO_THREAD");
                        } finally {
                            s.execute("SET GLOBAL rpl_semi_sync_slave_kill_conn_timeout = " + Integer.parseInt(timeout));
                        }
                        return (System.nanoTime() - started) / 1_000_000;
                    }
                }));
            }
            Map<Integer, Long> millis = new TreeMap<>();
            for (Map.Entry<Integer, Future<Long>> e : stops.entrySet()) {
                try {
                    millis.put(e.getKey(), awaitStop(e.getKey(), e.getValue()));
                } catch (ExecutionException failed) {
                    if (failed.getCause() instanceof SQLException sql) {
                        throw sql;
                    }
                    throw new IllegalStateException("shard " + e.getKey() + ": " + failed.getCause(), failed.getCause());
                }
            }
            return millis;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The stop's milliseconds. A stop normally takes well under a second; one that waits longer is logged every
     * {@link #SLOW_STOP_SECONDS} s with what the shard's replication threads and the stop itself are doing (from
     * the process list), so a slow failover names where its time went.
     */
    private long awaitStop(int shard, Future<Long> stop) throws ExecutionException, InterruptedException {
        long began = System.nanoTime();
        while (true) {
            try {
                return stop.get(SLOW_STOP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException slow) {
                log.warn("shard {}: STOP SLAVE IO_THREAD waits for {} s; the shard's replication threads: {}", shard,
                        (System.nanoTime() - began) / 1_000_000_000L, replicationThreads(shard));
            }
        }
    }

    private String replicationThreads(int shard) {
        try (Connection c = links.open(shard); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT ID, USER, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST"
                     + " WHERE USER = 'system user' OR INFO LIKE 'STOP SLAVE%' OR COMMAND LIKE 'Slave%'")) {
            List<String> rows = new ArrayList<>();
            while (r.next()) {
                rows.add(r.getLong(1) + " " + r.getString(2) + " " + r.getString(3) + " " + r.getLong(4) + "s '"
                        + r.getString(5) + "' " + r.getString(6));
            }
            return rows.toString();
        } catch (SQLException e) {
            return "not read: " + e.getMessage();
        }
    }

    private List<ShardPromotion> becomePrimary(List<ShardPromotion> out) {
        StandbyState state = StandbyState.of(home).orElseThrow();
        StandbyState.file(home).save(new StandbyState(HostRole.PRIMARY, state.epoch() + 1, null, false));
        log.info("promoted to primary at epoch {}: {}", state.epoch() + 1, out);
        return out;
    }

    /** Promotes one shard whose IO thread {@link #stopReceiving stopped} (in {@code ioStopMillis}). */
    private ShardPromotion promoteShard(int shard, Connection c, boolean drainRelayLog, long ioStopMillis)
            throws SQLException, InterruptedException {
        try (Statement s = c.createStatement()) {
            long ioStopped = System.nanoTime();
            if (drainRelayLog) {
                drain(shard, s);
            }
            long drained = System.nanoTime();
            s.execute("STOP SLAVE");
            // Where a promotion's time goes: a stop waits when a thread is blocked (the network, an unfinished group).
            log.info("shard {}: IO thread stopped in {} ms, relay log applied in {} ms, replica stopped in {} ms", shard,
                    ioStopMillis, (drained - ioStopped) / 1_000_000, (System.nanoTime() - drained) / 1_000_000);
            String gtid = single(s, "SELECT @@gtid_slave_pos");
            s.execute("RESET SLAVE ALL");
            s.execute("SET GLOBAL rpl_semi_sync_slave_enabled = OFF");
            s.execute("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
            s.execute("SET GLOBAL read_only = OFF");
            ShardEvents.enableOnPromotion(shard, c);
            return new ShardPromotion(shard, gtid, prepared(s));
        }
    }

    /**
     * Waits until the SQL thread applied every event the IO thread received; fails on a replica error. Done
     * when the SQL thread waits at the relay log's end and has executed up to what was read; or, when the
     * relay log ends inside a transaction (the primary died before sending its end, so never acknowledged
     * it), when it waited there at the same position on two reads in a row: the state alone could still
     * be the one from before the last events arrived.
     */
    private void drain(int shard, Statement s) throws SQLException, InterruptedException {
        long deadline = System.currentTimeMillis() + drainMillis;
        String waitedAt = null;
        while (true) {
            try (ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) {
                    return; // promoted by an earlier run
                }
                if (rs.getInt("Last_SQL_Errno") != 0) {
                    throw new IllegalStateException("shard " + shard + "'s replica stopped on an error, so it lacks"
                            + " transactions of the primary: " + rs.getString("Last_SQL_Error"));
                }
                if (!"Yes".equals(rs.getString("Slave_SQL_Running"))) {
                    s.execute("START SLAVE SQL_THREAD");
                } else if (String.valueOf(rs.getString("Slave_SQL_Running_State")).contains("read all relay log")) {
                    String executed = rs.getString("Relay_Master_Log_File") + ":" + rs.getLong("Exec_Master_Log_Pos");
                    if (executed.equals(rs.getString("Master_Log_File") + ":" + rs.getLong("Read_Master_Log_Pos"))
                            || executed.equals(waitedAt)) {
                        return;
                    }
                    waitedAt = executed;
                } else {
                    waitedAt = null;
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("shard " + shard + "'s replica did not apply its relay log within "
                        + drainMillis / 1000 + " s: run 'cleave promote' again");
            }
            Thread.sleep(10);
        }
    }

    /** Cleave's XA branches prepared on the shard. */
    static int prepared(Statement s) throws SQLException {
        int n = 0;
        try (ResultSet rs = s.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                String data = rs.getString(4);
                if (data != null && data.startsWith(PREFIX)) {
                    n++;
                }
            }
        }
        return n;
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
