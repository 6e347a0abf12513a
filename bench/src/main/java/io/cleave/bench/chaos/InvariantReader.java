package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads through the proxy, in one REPEATABLE READ transaction each, what one server guarantees
 * about data that lives together (one branch, one warehouse, so one shard at any moment): every
 * account of a branch is there and holds its opening balance plus its entries; a warehouse's
 * W_YTD is the sum of its districts' D_YTD and each district's next order id follows its last order.
 * With {@link ChaosOptions#globalReads}, also the bank's totals over every shard, which one server
 * keeps in any transaction and Cleave only with consistent reads across shards.
 */
final class InvariantReader extends WorkloadClient {
    /** The readers connect to the bank's database and name TPC-C's tables with theirs. */
    private static final String TPCC = TpccCheck.DATABASE;
    private final List<Integer> branches;
    private final int accountsPerBranch;
    private final int warehouses;
    private final long accounts;
    private final long total;
    private final boolean global;

    /** global: also read the bank's totals over every shard (see {@link ChaosOptions#globalReads}). */
    InvariantReader(int index, ChaosContext context, JdbcTarget proxy, Bank bank, int warehouses, boolean global) {
        super("reader", index, context, proxy);
        this.branches = bank.branches();
        this.accountsPerBranch = bank.accountsPerBranch();
        this.warehouses = warehouses;
        this.accounts = bank.accounts();
        this.total = bank.total();
        this.global = global;
    }

    @Override
    void opened(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    }

    @Override
    void unit() throws SQLException {
        Connection c = connection();
        try {
            int draw = random.nextInt(12);
            if (global && draw < 3) {
                totals(c);
            } else if (warehouses > 0 && draw >= 8) {
                warehouse(c, 1 + random.nextInt(warehouses));
            } else {
                branch(c, branches.get(random.nextInt(branches.size())));
            }
            c.commit();
            context.counts().invariantReads.incrementAndGet();
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException again) {
                lost();
            }
            throw e;
        }
    }

    private void branch(Connection c, int branch) throws SQLException {
        Map<Integer, Long> balances = longs(c, "SELECT id, balance FROM accounts WHERE branch = ?", branch);
        Map<Integer, Long> sums = longs(c, "SELECT id, SUM(delta) FROM entries WHERE branch = ? GROUP BY id", branch);
        if (balances.size() != accountsPerBranch) {
            violation("branch " + branch + " read in one transaction has " + balances.size() + " accounts, not "
                + accountsPerBranch);
        }
        for (Map.Entry<Integer, Long> a : balances.entrySet()) {
            long expected = Bank.OPENING_BALANCE + sums.getOrDefault(a.getKey(), 0L);
            if (a.getValue() != expected) {
                violation("account " + branch + "/" + a.getKey() + " read in one transaction holds " + a.getValue()
                    + " but its entries add up to " + expected);
                return;
            }
        }
    }

    /**
     * The bank over every shard in one REPEATABLE READ transaction (its first statement reads every
     * shard, so with consistent reads it is read at one cut): every account there, the total the
     * opening total, the entries summing to zero.
     */
    private void totals(Connection c) throws SQLException {
        try (java.sql.Statement st = c.createStatement()) {
            long[] a = pair(st, "SELECT COUNT(*), SUM(balance) FROM accounts");
            long[] e = pair(st, "SELECT COUNT(*), SUM(delta) FROM entries");
            if (a[0] != accounts || a[1] != total || e[1] != 0) {
                violation(String.format(java.util.Locale.ROOT, "the bank read in one transaction over every shard: %d"
                    + " accounts holding %d (opening total %d), %d entries summing to %d (not 0)", a[0], a[1], total,
                    e[0], e[1]));
            }
        }
    }

    private static long[] pair(java.sql.Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private void warehouse(Connection c, int w) throws SQLException {
        Map<Integer, Long> ytd = longs(c, "SELECT w_id, CAST(w_ytd * 100 AS SIGNED) FROM " + TPCC + ".warehouse WHERE w_id = ?", w);
        Map<Integer, Long> districts = longs(c, "SELECT d_w_id, CAST(SUM(d_ytd) * 100 AS SIGNED) FROM " + TPCC
            + ".district WHERE d_w_id = ? GROUP BY d_w_id", w);
        if (!ytd.equals(districts)) {
            violation("warehouse " + w + " read in one transaction: W_YTD*100 " + ytd + " but the districts' sum " + districts);
        }
        Map<Integer, Long> next = longs(c, "SELECT d_id, d_next_o_id - 1 FROM " + TPCC + ".district WHERE d_w_id = ?", w);
        Map<Integer, Long> last = longs(c, "SELECT o_d_id, MAX(o_id) FROM " + TPCC + ".orders WHERE o_w_id = ? GROUP BY o_d_id", w);
        if (!next.equals(last)) {
            violation("warehouse " + w + " read in one transaction: D_NEXT_O_ID - 1 " + next + " but MAX(O_ID) " + last);
        }
    }

    private void violation(String what) {
        context.violations().add(context.clock().millis(), what);
    }

    private static Map<Integer, Long> longs(Connection c, String sql, int key) throws SQLException {
        Map<Integer, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}
