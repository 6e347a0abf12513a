package io.cleave.e2e.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench's oltp_write_only, in Java so a test controls and checks it: each client runs
 * transactions of an index update, a non-index update and a delete with an insert of the same id,
 * each on a random table (so transactions span tables, and shards), half of the clients with
 * server-side prepared statements. One more client counts each table's rows over all shards the
 * whole time: the count never changes (a delete and its insert commit together) and must read
 * the same at every moment. Every error any client gets is kept, and the client goes on with its
 * next transaction (a wrong count stops it); a test asserts there were none.
 *
 * <p>Clients touch their rows in one order ((table, id) ascending, or descending), so they never
 * wait for each other in a cycle: one server gives them no deadlock, and any they get comes from
 * something else (a move's own statements). Descending is the opposite of the order a move scans
 * and writes rows in.
 */
public final class SbLoad implements AutoCloseable {

    private final AtomicBoolean stop = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong transactions = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final int tables;
    private final int rows;
    private final boolean descending;

    /**
     * @param connect opens a client connection to the proxy, in the sysbench database; its argument
     *                is 1 for a client that should use server-side prepared statements
     * @param tables  sbtest1..sbtestN, each holding ids 1..rows
     */
    public SbLoad(IntFunction<Connection> connect, int clients, int tables, int rows) {
        this(connect, clients, tables, rows, false);
    }

    /** {@code descending}: each transaction touches its rows in descending (table, id) order. */
    public SbLoad(IntFunction<Connection> connect, int clients, int tables, int rows, boolean descending) {
        this.tables = tables;
        this.rows = rows;
        this.descending = descending;
        for (int i = 0; i < clients; i++) {
            int client = i;
            start("sb-writer-" + i, () -> {
                try (Connection c = connect.apply(client % 2)) {
                    write(c);
                }
            });
        }
        start("sb-counter", () -> {
            try (Connection c = connect.apply(0)) {
                count(c);
            }
        });
    }

    /** A JDBC URL's connection to the proxy of {@code port}, in database {@code db}, as root. */
    public static IntFunction<Connection> proxy(int port, String db) {
        return proxy(port, db, "root", "");
    }

    /** A JDBC URL's connection to the proxy of {@code port}, in database {@code db}, as {@code user}. */
    public static IntFunction<Connection> proxy(int port, String db, String user, String password) {
        return prepared -> {
            try {
                return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/" + db
                        + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&useServerPrepStmts=" + (prepared == 1)
                        + "&cachePrepStmts=true", user, password);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** Creates sbtest1..N (sysbench's schema) on {@code c}'s current database and fills them with ids 1..rows. */
    public static void prepare(Connection c, int tables, int rows) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (int t = 1; t <= tables; t++) {
                s.execute("CREATE TABLE sbtest" + t + " (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0,"
                        + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id),"
                        + " KEY k_" + t + " (k))");
                StringBuilder values = new StringBuilder();
                for (int id = 1; id <= rows; id++) {
                    values.append(values.isEmpty() ? "" : ",").append("(").append(id).append(",").append(id % 1000)
                            .append(",'").append(text(id, 119)).append("','").append(text(id, 59)).append("')");
                    if (id % 500 == 0 || id == rows) {
                        s.execute("INSERT INTO sbtest" + t + " (id, k, c, pad) VALUES " + values);
                        values.setLength(0);
                    }
                }
            }
        }
    }

    private static String text(long seed, int length) {
        StringBuilder b = new StringBuilder(length);
        long x = seed * 0x9E3779B97F4A7C15L;
        while (b.length() < length) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.append(Long.toUnsignedString(x & 0xfffffffffL)).append('-');
        }
        return b.substring(0, length);
    }

    private interface Body {
        void run() throws Exception;
    }

    private void start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                errors.add(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        threads.add(t);
    }

    private void write(Connection c) throws SQLException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        PreparedStatement[] index = new PreparedStatement[tables + 1];
        PreparedStatement[] nonIndex = new PreparedStatement[tables + 1];
        PreparedStatement[] delete = new PreparedStatement[tables + 1];
        PreparedStatement[] insert = new PreparedStatement[tables + 1];
        for (int t = 1; t <= tables; t++) {
            index[t] = c.prepareStatement("UPDATE sbtest" + t + " SET k = k + 1 WHERE id = ?");
            nonIndex[t] = c.prepareStatement("UPDATE sbtest" + t + " SET c = ? WHERE id = ?");
            delete[t] = c.prepareStatement("DELETE FROM sbtest" + t + " WHERE id = ?");
            insert[t] = c.prepareStatement("INSERT INTO sbtest" + t + " (id, k, c, pad) VALUES (?, ?, ?, ?)");
        }
        while (!stop.get()) {
            // Three rows of random tables, touched in (table, id) order so that clients never wait
            // for each other in a cycle (sysbench retries deadlocks; these clients take none).
            long[] ops = new long[3];
            for (int i = 0; i < ops.length; i++) {
                ops[i] = (1 + r.nextInt(tables)) * 1_000_000_000L + 1 + r.nextInt(rows);
            }
            java.util.Arrays.sort(ops);
            if (descending) {
                long first = ops[0];
                ops[0] = ops[2];
                ops[2] = first;
            }
            int kind = r.nextInt(3);
            c.setAutoCommit(false);
            try {
                int deleted = 1;
                String gone = null;
                for (int i = 0; i < ops.length; i++) {
                    int t = (int) (ops[i] / 1_000_000_000L);
                    int id = (int) (ops[i] % 1_000_000_000L);
                    int op = (kind + i) % 3;
                    if (op == 0) {
                        index[t].setInt(1, id);
                        index[t].executeUpdate();
                    } else if (op == 1) {
                        nonIndex[t].setString(1, text(r.nextLong(), 119));
                        nonIndex[t].setInt(2, id);
                        nonIndex[t].executeUpdate();
                    } else {
                        delete[t].setInt(1, id);
                        deleted = delete[t].executeUpdate();
                        gone = "sbtest" + t + " id " + id;
                        insert[t].setInt(1, id);
                        insert[t].setInt(2, r.nextInt(1000));
                        insert[t].setString(3, text(r.nextLong(), 119));
                        insert[t].setString(4, text(r.nextLong(), 59));
                        insert[t].executeUpdate();
                    }
                }
                c.commit();
                if (deleted != 1) {
                    throw new AssertionError(gone + " was not there to delete");
                }
                transactions.incrementAndGet();
            } catch (SQLException e) {
                errors.add(e);
                c.rollback();
            } catch (RuntimeException | Error e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private void count(Connection c) throws SQLException {
        while (!stop.get()) {
            for (int t = 1; t <= tables && !stop.get(); t++) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sbtest" + t)) {
                    rs.next();
                    if (rs.getLong(1) != rows) {
                        throw new AssertionError("sbtest" + t + " counted " + rs.getLong(1) + " rows over the shards, not "
                                + rows);
                    }
                }
            }
        }
    }

    public long transactions() {
        return transactions.get();
    }

    /** How many errors clients got so far. */
    public int errorCount() {
        return errors.size();
    }

    /** The errors clients got so far, one line each: code, SQLSTATE, message. */
    public List<String> errorLines() {
        List<String> out = new ArrayList<>();
        for (Throwable e : errors) {
            out.add(e instanceof SQLException s ? s.getErrorCode() + " (" + s.getSQLState() + ") " + s.getMessage()
                    : e.toString());
        }
        return out;
    }

    /** Waits until {@code more} transactions committed; fails at once when a client got an error. */
    public void awaitTransactions(long more, Duration timeout) throws InterruptedException {
        long target = transactions.get() + more;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (transactions.get() < target && errors.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertNoErrors();
        assertThat(transactions.get()).as("transactions committed within " + timeout).isGreaterThanOrEqualTo(target);
    }

    public void assertNoErrors() {
        if (!errors.isEmpty()) {
            AssertionError e = new AssertionError("clients got " + errors.size() + " error(s), the first: " + errors.peek());
            errors.forEach(e::addSuppressed);
            throw e;
        }
    }

    /** Stops the clients and checks none got an error. */
    public void stopAndCheck() throws InterruptedException {
        close();
        assertNoErrors();
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(30_000);
        }
    }
}
