package io.cleave.proxy.cut;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Takes a cut over JDBC connections to the shards (the manager's: a backup reading each shard at
 * one cut), blocking the calling thread. The connections are the caller's, one per shard, with no
 * transaction open; on return each holds an open REPEATABLE READ snapshot, opened inside one
 * window of the proxy's {@link CutWindows}, and the caller ends them (COMMIT or ROLLBACK).
 */
public final class JdbcCut {

    private JdbcCut() {
    }

    /**
     * @param connections shard number to a connection to it
     * @param positions   also read each shard's binlog position at its snapshot
     * @param timeout     how long to wait for a window (a cut waits for cross-shard commits in flight)
     */
    public static Cut<Connection> take(CutWindows windows, Map<Integer, Connection> connections, boolean positions,
                                       Duration timeout) throws SQLException {
        for (Connection c : connections.values()) {
            execute(c, SnapshotStatements.READ.get(0));
        }
        CutWindows.Window window = awaitWindow(windows,
                connections.keySet().stream().mapToInt(Integer::intValue).toArray(), timeout);
        boolean consistent;
        try {
            // The branch commits decided before the window end first: the snapshots see them whole.
            CompletableFuture<Void> ready = new CompletableFuture<>();
            window.whenReady(Runnable::run, () -> ready.complete(null));
            awaitReady(ready, windows);
            for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
                execute(e.getValue(), SnapshotStatements.READ.get(1));
                window.shardOpened(e.getKey());
            }
        } finally {
            consistent = window.opened();
        }
        if (!consistent) {
            rollBackAll(connections);
            String spoiled = window.spoiled();
            windows.metrics().cutFailed(spoiled != null ? "shard_error" : "window_expired");
            throw new SQLException(spoiled != null ? spoiled : "the shards did not open their snapshots within "
                    + windows.limits().windowNanos() / 1_000_000 + " ms", "HY000", 1205);
        }
        List<ShardSnapshot<Connection>> shards = new ArrayList<>();
        for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
            shards.add(new ShardSnapshot<>(e.getKey(), e.getValue(), positions ? position(e.getValue()) : null));
        }
        return new Cut<>(shards);
    }

    private static CutWindows.Window awaitWindow(CutWindows windows, int[] shards, Duration timeout) throws SQLException {
        CompletableFuture<CutWindows.Window> granted = new CompletableFuture<>();
        windows.request(Runnable::run, shards, new CutWindows.Opening() {
            @Override
            public void open(CutWindows.Window window) {
                if (!granted.complete(window)) {
                    // Nobody waits any more (timed out): the window must not wait for this cut.
                    window.opened();
                }
            }

            @Override
            public void gaveUp(String reason) {
                granted.completeExceptionally(new SQLException(reason, "HY000", 1205));
            }
        });
        try {
            return granted.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (!granted.completeExceptionally(e)) {
                return granted.join();
            }
            windows.metrics().cutFailed("wait_expired");
            throw new SQLException("no window for a cut within " + timeout.toMillis() + " ms", "HY000", 1205);
        } catch (ExecutionException e) {
            windows.metrics().cutFailed("wait_expired");
            throw e.getCause() instanceof SQLException s ? s : new SQLException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!granted.completeExceptionally(e)) {
                granted.join().opened();
            }
            throw new SQLException("interrupted while waiting for a cut", e);
        }
    }

    private static void awaitReady(CompletableFuture<Void> ready, CutWindows windows) throws SQLException {
        try {
            ready.get(windows.limits().windowNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new SQLException("branch commits did not end within the window's limit", "HY000", 1205);
        } catch (ExecutionException e) {
            throw new SQLException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while a cut waited for branch commits", e);
        }
    }

    private static BinlogPosition position(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(SnapshotStatements.POSITION)) {
            return rs.next() ? SnapshotStatements.position(rs.getString(1), rs.getString(2), rs.getString(3)) : null;
        } catch (SQLException e) {
            // A server without binlog_snapshot_* (MySQL): the snapshot stands, without a position.
            return null;
        }
    }

    private static void rollBackAll(Map<Integer, Connection> connections) {
        for (Connection c : connections.values()) {
            try {
                execute(c, "ROLLBACK");
            } catch (SQLException ignored) {
                // The caller closes what it cannot reuse.
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
