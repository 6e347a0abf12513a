package io.cleave.e2e.moves;

import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveService;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/** What move tests check on the shards themselves, and waiting for a move to end. */
public final class MoveChecks {

    /** Keyspace w: keys 1-1000 on shard 0, 1001- on shard 1; table t sharded on its column w. */
    public static final String TWO_RANGES = """
            sharding:
              keyspaces:
                - name: w
                  function: range
                  ranges:
                    - { from: 1, to: 1000, shard: 0 }
                    - { from: 1001, shard: 1 }
              tables:
                - { name: t, keyspace: w, column: w }
            """;

    private MoveChecks() {
    }

    /** The first column of the first row {@code sql} returns on one shard. */
    public static long count(RunningDaemon daemon, int shard, String sql) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static long proxyCount(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Each shard's last deadlock as InnoDB reports it (SHOW ENGINE INNODB STATUS), for a failure's
     * message: which statements waited for which locks names the side that took them.
     */
    public static String latestDeadlocks(RunningDaemon daemon) {
        StringBuilder out = new StringBuilder();
        for (int shard = 0; shard < daemon.shards().size(); shard++) {
            try (Connection c = daemon.connect(shard); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW ENGINE INNODB STATUS")) {
                rs.next();
                String status = rs.getString("Status");
                int from = status.indexOf("LATEST DETECTED DEADLOCK");
                int to = from < 0 ? -1 : status.indexOf("\nTRANSACTIONS\n", from);
                out.append("\nshard ").append(shard).append(": ")
                        .append(from < 0 ? "no deadlock" : status.substring(from, to < 0 ? status.length() : to));
            } catch (SQLException e) {
                out.append("\nshard ").append(shard).append(": ").append(e.getMessage());
            }
        }
        return out.toString();
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * Short TPC-C runs over {@code warehouses} through {@code proxy}, back to back until
     * {@code moved} is set, and one more after it: load before, during and after a move.
     */
    public static CompletableFuture<List<RunResult>> tpccUntil(DataSource proxy, int warehouses, AtomicBoolean moved) {
        return CompletableFuture.supplyAsync(() -> {
            List<RunResult> results = new ArrayList<>();
            try {
                boolean last = false;
                while (!last) {
                    last = moved.get();
                    results.add(TpccDriver.run(proxy, RunOptions.of(warehouses, 4, Duration.ofSeconds(4))
                            .withReportInterval(Duration.ofSeconds(1))));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return results;
        });
    }

    /** Waits until the move ends; fails with its record if it does not within {@code timeout}. */
    public static MoveRecord awaitEnd(MoveService moves, long id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        MoveRecord r = moves.get(id);
        while (!r.phase.terminal()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("move " + id + " did not end within " + timeout + ": " + r.phase + " " + r.message);
            }
            Thread.sleep(50);
            r = moves.get(id);
        }
        return r;
    }

    static MoveRecord awaitPhase(MoveService moves, long id, MovePhase phase, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        MoveRecord r = moves.get(id);
        while (r.phase.ordinal() < phase.ordinal()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("move " + id + " did not reach " + phase + " within " + timeout + ": " + r.phase);
            }
            Thread.sleep(20);
            r = moves.get(id);
        }
        return r;
    }
}
