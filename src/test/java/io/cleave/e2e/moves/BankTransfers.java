package io.cleave.e2e.moves;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bank transfers through the proxy, as applications write them: autocommit off, debit one account,
 * credit another, COMMIT; most within one branch, some between branches of different shards, point
 * reads mixed in. Every writer records each transfer it saw acknowledged (the ledger), so a lost
 * acknowledged write is found by account, not only as a changed total; a COMMIT whose answer never
 * came (the daemon died under it) is kept apart as uncertain. Every writer changes accounts in one
 * order, so clients never deadlock each other: any error a writer sees outside an announced outage
 * was caused by something else (a move), and is recorded.
 *
 * <p>Table: {@code bank.accounts (branch INT, id INT, balance BIGINT, pad CHAR(120), PRIMARY KEY
 * (branch, id))}, {@code branches} x {@code accounts} rows of {@link #INITIAL}.
 */
public final class BankTransfers implements AutoCloseable {

    public static final long INITIAL = 1000;
    public static final String TABLE = "bank.accounts";

    /** A transfer of {@code amount} from one account to another (keys: branch * 1,000,000 + id). */
    record Transfer(long from, long to, long amount) {
    }

    /** What the shape of the load is: branches, accounts each, how branches lie on shards at the start. */
    public record Shape(int branches, int accounts, int branchesPerShard) {
        int shardOf(int branch) {
            return (branch - 1) / branchesPerShard;
        }

        /** The shards the branches lie on at the start. */
        public int shards() {
            return (branches + branchesPerShard - 1) / branchesPerShard;
        }

        public long rows() {
            return (long) branches * accounts;
        }
    }

    private final Shape shape;
    private volatile String url;
    private final String password;
    private final int socketTimeoutMillis;
    private final long seed;
    private final int[] hot;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean outage = new AtomicBoolean();
    private volatile boolean paused;
    private final AtomicLong idle = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final Map<Long, LongAdder> net = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Transfer> uncertain = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong crossShard = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong outageErrors = new AtomicLong();
    /** Every transfer a client finished (acknowledged, uncertain or failed), when, for explaining a difference. */
    private final ConcurrentLinkedQueue<String> history = new ConcurrentLinkedQueue<>();
    private final long born = System.nanoTime();
    private volatile long outageAt;

    /**
     * {@code hot}: a range of branches (first, last) half the transfers start in (the keys a test
     * moves), so that the moving keys see plenty of writes.
     */
    public BankTransfers(Shape shape, int proxyPort, long seed, int[] hot) {
        this(shape, "127.0.0.1:" + proxyPort, "", 60_000, seed, hot);
    }

    /**
     * Transfers through the proxy at {@code proxy} (host:port), logging in as root with {@code password}; a statement
     * unanswered for {@code socketTimeoutMillis} counts as a lost connection (a host cut off answers nothing).
     */
    public BankTransfers(Shape shape, String proxy, String password, int socketTimeoutMillis, long seed, int[] hot) {
        this.shape = shape;
        this.password = password;
        this.socketTimeoutMillis = socketTimeoutMillis;
        this.url = urlOf(proxy);
        this.seed = seed;
        this.hot = hot;
    }

    /** From now on writers that (re)connect go to the proxy at {@code proxy}: the clients moving to a new primary. */
    public void retarget(String proxy) {
        url = urlOf(proxy);
    }

    private String urlOf(String proxy) {
        return "jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=2000&socketTimeout=" + socketTimeoutMillis;
    }

    /** Creates the schema and rows through {@code proxy}. */
    public static void create(Connection proxy, Shape shape) throws SQLException {
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS bank");
            s.execute("CREATE TABLE " + TABLE + " (branch INT NOT NULL, id INT NOT NULL, balance BIGINT NOT NULL,"
                    + " pad CHAR(120) NOT NULL, PRIMARY KEY (branch, id))");
            StringBuilder values = new StringBuilder();
            for (int b = 1; b <= shape.branches(); b++) {
                for (int a = 1; a <= shape.accounts(); a++) {
                    values.append(values.isEmpty() ? "" : ",").append('(').append(b).append(',').append(a).append(',')
                            .append(INITIAL).append(",'branch ").append(b).append(" account ").append(a).append("')");
                    if (values.length() > 200_000) {
                        s.execute("INSERT INTO " + TABLE + " (branch, id, balance, pad) VALUES " + values);
                        values.setLength(0);
                    }
                }
            }
            if (!values.isEmpty()) {
                s.execute("INSERT INTO " + TABLE + " (branch, id, balance, pad) VALUES " + values);
            }
        }
    }

    static long key(int branch, int id) {
        return branch * 1_000_000L + id;
    }

    public void start(int writers) {
        for (int i = 0; i < writers; i++) {
            Random random = new Random(seed * 31 + i);
            Thread t = new Thread(() -> write(random), "transfers-" + i);
            t.start();
            threads.add(t);
        }
    }

    /** After {@link #close()}: {@code writers} write again (to the proxy last {@link #retarget named}), the ledger going on. */
    public void restart(int writers) {
        stop.set(false);
        outage.set(false);
        paused = false;
        threads.clear();
        start(writers);
    }

    /** From now until {@link #outageOver()}, connection failures are expected (the daemon is being killed). */
    public void outageBegins() {
        outageAt = System.nanoTime();
        outage.set(true);
    }

    public void outageOver() {
        outage.set(false);
    }

    long acknowledged() {
        return acknowledged.get();
    }

    /** Waits until {@code more} transfers were acknowledged (or fails after a minute, with the errors). */
    public void awaitAcknowledged(long more) throws InterruptedException {
        awaitMore(acknowledged, more, errors);
    }

    /** Waits until {@code acknowledged} grew by {@code more} (or fails after a minute, with {@code errors}). */
    public static void awaitMore(AtomicLong acknowledged, long more, java.util.Collection<String> errors)
            throws InterruptedException {
        long target = acknowledged.get() + more;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (acknowledged.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + acknowledged.get() + " of " + target + " transfers acknowledged in a"
                        + " minute; errors: " + errors);
            }
            Thread.sleep(20);
        }
    }

    /** Lets every writer finish its transfer and wait: the rows then hold exactly what was acknowledged. */
    public void pause() throws InterruptedException {
        paused = true;
        while (idle.get() < threads.size()) {
            Thread.sleep(5);
        }
    }

    public void resume() {
        paused = false;
    }

    /** Errors writers saw outside an outage (deadlocks, lock waits, refusals, lost rows, ...). */
    public List<String> errors() {
        return new ArrayList<>(errors);
    }

    public String summary() {
        return acknowledged.get() + " transfers acknowledged (" + crossShard.get() + " across shards), " + reads.get()
                + " point reads, " + uncertain.size() + " uncertain, " + outageErrors.get() + " connection errors in"
                + " outages, " + errors.size() + " other errors";
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        paused = false;
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * Compares {@code balances} (every account's balance as read, by key) with the ledger: each
     * account must hold its initial balance plus what acknowledged transfers moved, with the
     * uncertain transfers each either applied to both its accounts or to neither. Returns the
     * accounts that differ, empty when the rows and the ledger agree.
     */
    public Map<Long, String> differences(Map<Long, Long> balances) {
        Map<Long, Long> expected = expected();
        Map<Long, Long> off = new TreeMap<>();
        Map<Long, String> wrong = new TreeMap<>();
        for (Map.Entry<Long, Long> e : expected.entrySet()) {
            Long actual = balances.get(e.getKey());
            if (actual == null) {
                wrong.put(e.getKey(), "missing (expected " + e.getValue() + ")");
            } else if (actual.longValue() != e.getValue()) {
                off.put(e.getKey(), actual - e.getValue());
            }
        }
        for (Long k : balances.keySet()) {
            if (!expected.containsKey(k)) {
                wrong.put(k, "an account that was never opened");
            }
        }
        List<Transfer> maybe = new ArrayList<>(uncertain);
        if (maybe.size() > 20) {
            throw new IllegalStateException(maybe.size() + " uncertain transfers: too many to tell apart");
        }
        // Some of the uncertain transfers committed: find a choice of them that explains every difference.
        for (int subset = 0; subset < 1 << maybe.size(); subset++) {
            Map<Long, Long> moved = new HashMap<>();
            for (int i = 0; i < maybe.size(); i++) {
                if ((subset & 1 << i) != 0) {
                    Transfer t = maybe.get(i);
                    moved.merge(t.from(), -t.amount(), Long::sum);
                    moved.merge(t.to(), t.amount(), Long::sum);
                }
            }
            moved.values().removeIf(v -> v == 0);
            if (moved.equals(off)) {
                return wrong;
            }
        }
        off.forEach((k, d) -> wrong.put(k, "off by " + d + " from the acknowledged transfers"));
        if (!off.isEmpty()) {
            wrong.put(-1L, "uncertain: " + maybe + "; transfers of these accounts: " + historyOf(off.keySet()));
        }
        return wrong;
    }

    /** Every account's balance by the acknowledged transfers alone. */
    private Map<Long, Long> expected() {
        Map<Long, Long> out = new HashMap<>();
        for (int b = 1; b <= shape.branches(); b++) {
            for (int a = 1; a <= shape.accounts(); a++) {
                long k = key(b, a);
                LongAdder d = net.get(k);
                out.put(k, INITIAL + (d == null ? 0 : d.sum()));
            }
        }
        return out;
    }

    /** Every account's balance by key, read with {@code c}. */
    public static Map<Long, Long> balances(Connection c, String sql) throws SQLException {
        Map<Long, Long> out = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Long before = out.put(key(rs.getInt(1), rs.getInt(2)), rs.getLong(3));
                if (before != null) {
                    throw new AssertionError("account " + rs.getInt(1) + "/" + rs.getInt(2) + " read twice");
                }
            }
        }
        return out;
    }

    // ---- writers ----------------------------------------------------------------------------------

    private void write(Random random) {
        Connection c = null;
        String connectedTo = url;
        boolean wasIdle = false;
        try {
            while (!stop.get()) {
                if (paused) {
                    if (!wasIdle) {
                        idle.incrementAndGet();
                        wasIdle = true;
                    }
                    Thread.sleep(2);
                    continue;
                }
                if (wasIdle) {
                    idle.decrementAndGet();
                    wasIdle = false;
                }
                if (c != null && !connectedTo.equals(url)) {
                    close(c); // retargeted: the clients move to the new primary's proxy
                    c = null;
                }
                if (c == null) {
                    connectedTo = url;
                    c = connect(connectedTo);
                    if (c == null) {
                        continue;
                    }
                }
                if (!oneRound(c, random)) {
                    close(c);
                    c = null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (wasIdle) {
                idle.decrementAndGet();
            }
            close(c);
        }
    }

    private Connection connect(String to) throws InterruptedException {
        try {
            Connection c = DriverManager.getConnection(to, "root", password);
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            failed(e, "connecting");
            Thread.sleep(100);
            return null;
        }
    }

    /** One transfer or read; false when the connection is gone. */
    private boolean oneRound(Connection c, Random random) {
        int b1 = random.nextBoolean() ? hot[0] + random.nextInt(hot[1] - hot[0] + 1) : 1 + random.nextInt(shape.branches());
        int a1 = 1 + random.nextInt(shape.accounts());
        if (random.nextInt(10) == 0) {
            return pointRead(c, b1, a1);
        }
        int b2;
        int a2;
        boolean across = random.nextInt(10) < 3;
        if (across) {
            do {
                b2 = 1 + random.nextInt(shape.branches());
            } while (shape.shardOf(b2) == shape.shardOf(b1));
            a2 = 1 + random.nextInt(shape.accounts());
        } else {
            b2 = b1;
            do {
                a2 = 1 + random.nextInt(shape.accounts());
            } while (a2 == a1);
        }
        Transfer t = new Transfer(key(b1, a1), key(b2, a2), 1 + random.nextInt(9));
        boolean readFirst = random.nextInt(3) == 0;
        boolean committing = false;
        try {
            if (readFirst) {
                read(c, b1, a1);
            }
            // One order for all writers (so none wait for each other in a cycle), unrelated to where the
            // accounts are: the shard a transfer reaches first (the coordinator of a cross-shard commit)
            // is either one.
            if (order(t.from()) < order(t.to())) {
                change(c, t.from(), -t.amount());
                change(c, t.to(), t.amount());
            } else {
                change(c, t.to(), t.amount());
                change(c, t.from(), -t.amount());
            }
            committing = true;
            c.commit();
        } catch (SQLException e) {
            if (committing && connectionLost(e)) {
                uncertain.add(t);
            }
            note(t, (committing ? "committing: " : "before committing: ") + e.getErrorCode() + " " + e.getMessage());
            failed(e, (committing ? "committing " : "during ") + t);
            return rollback(c);
        }
        net.computeIfAbsent(t.from(), k -> new LongAdder()).add(-t.amount());
        net.computeIfAbsent(t.to(), k -> new LongAdder()).add(t.amount());
        note(t, "acknowledged");
        acknowledged.incrementAndGet();
        if (across) {
            crossShard.incrementAndGet();
        }
        return true;
    }

    private void note(Transfer t, String outcome) {
        long now = System.nanoTime();
        long o = outageAt;
        history.add(String.format(java.util.Locale.ROOT, "%.3f s%s %s: %s", (now - born) / 1e9,
                o == 0 ? "" : String.format(java.util.Locale.ROOT, " (outage +%.3f s)", (now - o) / 1e9), t, outcome));
    }

    /** The transfers that touched {@code accounts}, in the order they ended. */
    public List<String> historyOf(java.util.Set<Long> accounts) {
        List<String> out = new ArrayList<>();
        for (String h : history) {
            for (long a : accounts) {
                if (h.contains("from=" + a + ",") || h.contains("to=" + a + ",")) {
                    out.add(h);
                    break;
                }
            }
        }
        return out;
    }

    private static long order(long account) {
        return Long.reverse(account * 0x9E3779B97F4A7C15L);
    }

    private boolean pointRead(Connection c, int branch, int id) {
        try {
            read(c, branch, id);
            c.commit();
            reads.incrementAndGet();
            return true;
        } catch (SQLException e) {
            failed(e, "reading " + branch + "/" + id);
            return rollback(c);
        }
    }

    private void read(Connection c, int branch, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM accounts WHERE branch = ? AND id = ?")) {
            ps.setInt(1, branch);
            ps.setInt(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("account " + branch + "/" + id + " is missing", "CLEAV");
                }
            }
        }
    }

    private void change(Connection c, long account, long amount) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE branch = ? AND"
                + " id = ?")) {
            ps.setLong(1, amount);
            ps.setInt(2, (int) (account / 1_000_000));
            ps.setInt(3, (int) (account % 1_000_000));
            int n = ps.executeUpdate();
            if (n != 1) {
                throw new SQLException("UPDATE of account " + account + " changed " + n + " rows", "CLEAV");
            }
        }
    }

    private boolean rollback(Connection c) {
        try {
            c.rollback();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private void failed(SQLException e, String doing) {
        if (outage.get() && connectionLost(e)) {
            outageErrors.incrementAndGet();
            return;
        }
        errors.add(doing + ": " + e.getErrorCode() + " (" + e.getSQLState() + ") " + e.getMessage());
    }

    /** The connection went away under the statement (or the outcome is being settled: 2013). */
    private static boolean connectionLost(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08") || e.getErrorCode() == 2013
                || e instanceof java.sql.SQLNonTransientConnectionException
                || e instanceof java.sql.SQLTransientConnectionException
                || e.getCause() instanceof java.io.IOException;
    }

    private static void close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // gone already
            }
        }
    }
}
