package io.cleave.e2e.backup;

import io.cleave.e2e.moves.BankTransfers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bank transfers through the proxy that leave a trace of each transfer in the data: debit and credit
 * of two accounts ({@code bank.accounts}) and one ledger entry per side ({@code bank.entries}, sharded
 * by branch as the accounts are, so a transfer between branches of two shards is a cross-shard
 * commit of four rows), then COMMIT. Every client records each transfer's outcome with the times it
 * began and was acknowledged, so a restored home can be held against exactly what clients were told:
 * which transfers must be in it, which cannot be, and that none is there by half.
 */
final class LedgeredTransfers implements AutoCloseable {

    static final String ENTRIES = "bank.entries";

    enum State { ACKNOWLEDGED, FAILED_BEFORE_COMMIT, UNCERTAIN }

    /** What a client saw of one transfer: {@code began} before its first statement, {@code acknowledged} after COMMIT returned. */
    record Outcome(State state, long began, long acknowledged) {
    }

    private final BankTransfers.Shape shape;
    private final int shards;
    private final String url;
    private final long seed;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final Map<Long, Outcome> outcomes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong crossShard = new AtomicLong();

    /** {@code shards}: how the shape's branches lie at the start, so that a share of transfers crosses shards. */
    LedgeredTransfers(BankTransfers.Shape shape, int shards, int proxyPort, long seed) {
        this.shape = shape;
        this.shards = shards;
        this.url = "jdbc:mysql://127.0.0.1:" + proxyPort + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=2000&socketTimeout=60000";
        this.seed = seed;
    }

    /** The accounts (as {@link BankTransfers#create}) and an empty ledger. */
    static void create(Connection proxy, BankTransfers.Shape shape) throws SQLException {
        BankTransfers.create(proxy, shape);
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE TABLE " + ENTRIES + " (branch INT NOT NULL, transfer BIGINT NOT NULL, side TINYINT NOT NULL,"
                    + " account INT NOT NULL, amount BIGINT NOT NULL, PRIMARY KEY (branch, transfer, side))");
        }
    }

    void start(int writers) {
        for (int i = 0; i < writers; i++) {
            int writer = i;
            Thread t = new Thread(() -> write(writer, new Random(seed * 31 + writer)), "ledgered-transfers-" + i);
            t.start();
            threads.add(t);
        }
    }

    /** Waits until {@code more} transfers were acknowledged (or fails after a minute, with the errors). */
    void awaitAcknowledged(long more) throws InterruptedException {
        BankTransfers.awaitMore(acknowledged, more, errors);
    }

    Map<Long, Outcome> outcomes() {
        return Map.copyOf(outcomes);
    }

    List<String> errors() {
        return new ArrayList<>(errors);
    }

    String summary() {
        return acknowledged.get() + " transfers acknowledged (" + crossShard.get() + " across shards), "
                + outcomes.values().stream().filter(o -> o.state() != State.ACKNOWLEDGED).count() + " not, "
                + errors.size() + " errors";
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
    }

    private void write(int writer, Random random) {
        long sequence = 0;
        Connection c = null;
        try {
            while (!stop.get()) {
                if (c == null) {
                    c = DriverManager.getConnection(url, "root", "");
                    c.setAutoCommit(false);
                }
                if (!transfer(c, writer * 1_000_000_000L + ++sequence, random)) {
                    c.close();
                    c = null;
                }
            }
        } catch (SQLException e) {
            errors.add("connecting: " + e.getMessage());
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // gone already
                }
            }
        }
    }

    /** One transfer; false when its connection is gone. */
    private boolean transfer(Connection c, long id, Random random) {
        int b1 = 1 + random.nextInt(shape.branches());
        int a1 = 1 + random.nextInt(shape.accounts());
        boolean across = random.nextInt(10) < 3;
        int b2;
        int a2;
        if (across) {
            do {
                b2 = 1 + random.nextInt(shape.branches());
            } while (shardOf(b2) == shardOf(b1));
            a2 = 1 + random.nextInt(shape.accounts());
        } else {
            b2 = b1;
            do {
                a2 = 1 + random.nextInt(shape.accounts());
            } while (a2 == a1);
        }
        long amount = 1 + random.nextInt(9);
        long began = System.nanoTime();
        boolean committing = false;
        try {
            // One order for all writers, so none wait for each other in a cycle.
            if (order(b1, a1) < order(b2, a2)) {
                change(c, b1, a1, -amount);
                change(c, b2, a2, amount);
            } else {
                change(c, b2, a2, amount);
                change(c, b1, a1, -amount);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO entries (branch, transfer, side, account, amount)"
                    + " VALUES (?, ?, ?, ?, ?)")) {
                entry(ps, b1, id, 0, a1, -amount);
                entry(ps, b2, id, 1, a2, amount);
            }
            committing = true;
            c.commit();
        } catch (SQLException e) {
            outcomes.put(id, new Outcome(committing ? State.UNCERTAIN : State.FAILED_BEFORE_COMMIT, began, -1));
            errors.add((committing ? "committing " : "during ") + "transfer " + id + ": " + e.getErrorCode() + " ("
                    + e.getSQLState() + ") " + e.getMessage());
            try {
                c.rollback();
                return true;
            } catch (SQLException gone) {
                return false;
            }
        }
        outcomes.put(id, new Outcome(State.ACKNOWLEDGED, began, System.nanoTime()));
        acknowledged.incrementAndGet();
        if (across) {
            crossShard.incrementAndGet();
        }
        return true;
    }

    private int shardOf(int branch) {
        return (int) ((long) (branch - 1) * shards / shape.branches());
    }

    private static long order(int branch, int account) {
        return Long.reverse((branch * 1_000_000L + account) * 0x9E3779B97F4A7C15L);
    }

    private static void change(Connection c, int branch, int account, long amount) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE branch = ? AND"
                + " id = ?")) {
            ps.setLong(1, amount);
            ps.setInt(2, branch);
            ps.setInt(3, account);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("account " + branch + "/" + account + " not changed", "CLEAV");
            }
        }
    }

    private static void entry(PreparedStatement ps, int branch, long transfer, int side, int account, long amount)
            throws SQLException {
        ps.setInt(1, branch);
        ps.setLong(2, transfer);
        ps.setInt(3, side);
        ps.setInt(4, account);
        ps.setLong(5, amount);
        ps.executeUpdate();
    }
}
