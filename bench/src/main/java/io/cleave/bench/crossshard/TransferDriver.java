package io.cleave.bench.crossshard;

import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Client threads running k-shard transfers through the proxy for a given time, each on its own
 * connection: BEGIN; one UPDATE per account (a server-side prepared statement); COMMIT. A failed
 * transaction is counted by error code and not retried (the proxy rolls a failed distributed
 * transaction back on every shard; ROLLBACK is sent anyway); a lost connection is reopened.
 */
public final class TransferDriver {
    static final String UPDATE = "UPDATE accounts SET balance = balance + ?, moves = moves + 1 WHERE id = ?";

    private final JdbcTarget target;
    private final int shards;
    private final int accountsPerShard;
    private final int threads;

    /** target: the proxy on the accounts' database. */
    public TransferDriver(JdbcTarget target, int shards, int accountsPerShard, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one client thread expected: " + threads);
        }
        this.target = target.withServerPreparedStatements();
        this.shards = shards;
        this.accountsPerShard = accountsPerShard;
        this.threads = threads;
    }

    /** Runs every thread for the given time; seed makes the accounts and amounts drawn repeatable. */
    public TransferResult run(int k, Duration time, long seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "transfer-client");
            t.setDaemon(true);
            return t;
        });
        try {
            long started = System.nanoTime();
            long deadline = started + time.toNanos();
            List<Future<TransferStats>> clients = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                SplittableRandom random = new SplittableRandom(seed * 1_000_003L + i);
                clients.add(pool.submit(() -> client(k, deadline, random)));
            }
            TransferStats all = new TransferStats();
            for (Future<TransferStats> client : clients) {
                all.add(client.get());
            }
            return all.result(k, (System.nanoTime() - started) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private TransferStats client(int k, long deadline, SplittableRandom random) throws SQLException {
        TransferStats stats = new TransferStats();
        Session session = new Session();
        try {
            while (System.nanoTime() < deadline) {
                Transfer t = Transfer.draw(random, k, shards, accountsPerShard);
                boolean inCommit = false;
                try {
                    long begin = System.nanoTime();
                    session.statement.execute("BEGIN");
                    for (int i = 0; i < t.k(); i++) {
                        session.update.setLong(1, t.deltas().get(i));
                        session.update.setLong(2, t.accounts().get(i));
                        if (session.update.executeUpdate() != 1) {
                            throw new IllegalStateException("account " + t.accounts().get(i) + " is missing");
                        }
                    }
                    long commit = System.nanoTime();
                    inCommit = true;
                    session.statement.execute("COMMIT");
                    long end = System.nanoTime();
                    stats.committed(t, end - begin, end - commit);
                } catch (SQLException e) {
                    stats.failed(t, Integer.toString(e.getErrorCode()), inCommit);
                    session = session.afterError(e);
                }
            }
        } finally {
            session.close();
        }
        return stats;
    }

    /** One client connection with its statements. */
    private final class Session implements AutoCloseable {
        final Connection connection;
        final Statement statement;
        final PreparedStatement update;

        Session() throws SQLException {
            connection = target.getConnection();
            statement = connection.createStatement();
            update = connection.prepareStatement(UPDATE);
        }

        /** This session after a failed transaction: rolled back, or a new one when the connection is gone. */
        Session afterError(SQLException e) throws SQLException {
            boolean lost = e.getSQLState() != null && e.getSQLState().startsWith("08");
            if (!lost) {
                try {
                    statement.execute("ROLLBACK");
                    return this;
                } catch (SQLException again) {
                    // Fall through: a connection that cannot roll back is replaced.
                }
            }
            close();
            return new Session();
        }

        @Override
        public void close() {
            try {
                connection.close();
            } catch (SQLException e) {
                // Closing a broken connection: nothing to do.
            }
        }
    }
}
