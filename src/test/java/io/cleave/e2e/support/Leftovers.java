package io.cleave.e2e.support;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What client connections left behind: on each shard, open InnoDB transactions (with what their
 * thread runs) and prepared XA branches; in the proxy, backend connections still counted in use.
 * Tests wait for "nothing" after clients went away, and fail naming what is left.
 */
public final class Leftovers {

    private Leftovers() {
    }

    /** Open transactions and prepared branches per shard (shards with none are absent). */
    public static Map<Integer, List<String>> openOnShards(RunningDaemon daemon) throws SQLException {
        Map<Integer, List<String>> left = new LinkedHashMap<>();
        for (int shard = 0; shard < daemon.shards().size(); shard++) {
            try (Connection s = daemon.connect(shard)) {
                // innodb_trx alone, its own trx_query for the running statement: joining
                // information_schema.processlist (a LONGTEXT column, so an Aria temporary table)
                // crashed MariaDB 11.4.5 now and then while it dropped that table (signal 11 in
                // ha_maria::drop_table), failing whichever test happened to ask.
                List<String> open = new ArrayList<>(QueryRows.of(s, "SELECT CONCAT('trx ', trx_id, ' ', trx_state, ' thread ',"
                        + " trx_mysql_thread_id, ' running: ', COALESCE(trx_query, '-')) FROM information_schema.innodb_trx"));
                for (String xid : QueryRows.of(s, "XA RECOVER")) {
                    open.add("prepared " + xid);
                }
                if (!open.isEmpty()) {
                    left.put(shard, open);
                }
            }
        }
        return left;
    }

    /** The proxy's backend connections in use per shard (from /metrics), where not zero. */
    public static Map<Integer, Double> inUse(RunningDaemon daemon) throws IOException, InterruptedException {
        Map<Integer, Double> out = new LinkedHashMap<>();
        for (int shard = 0; shard < daemon.shards().size(); shard++) {
            double n = daemon.metric("cleave_proxy_backend_connections{shard=\"" + shard + "\",state=\"in_use\"}");
            if (n != 0) {
                out.put(shard, n);
            }
        }
        return out;
    }

    /**
     * Waits until no shard has an open transaction or a prepared branch. Polls every 200 ms:
     * InnoDB refreshes innodb_trx from a cache only after 0.1 s without reads, so faster polling
     * could keep reading a stale view.
     */
    public static void awaitNothingOpen(RunningDaemon daemon, Duration timeout) throws Exception {
        await(daemon, timeout, false);
    }

    /** Like {@link #awaitNothingOpen}, and the proxy holds no backend connection either. */
    public static void awaitNothingHeld(RunningDaemon daemon, Duration timeout) throws Exception {
        await(daemon, timeout, true);
    }

    private static void await(RunningDaemon daemon, Duration timeout, boolean pools) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<Integer, List<String>> open = openOnShards(daemon);
            Map<Integer, Double> inUse = pools ? inUse(daemon) : Map.of();
            if (open.isEmpty() && inUse.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still open after " + timeout + ": on shards " + open
                        + (pools ? "; backend connections in use per shard " + inUse : ""));
            }
            Thread.sleep(200);
        }
    }
}
