package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Dataset;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The accounts the transfers move money between: accountsPerShard rows on every shard, ids
 * {@link HomeSpec#firstAccount}(s) onwards, each with the same opening balance. The table is
 * created on every shard directly and the rows are inserted through the proxy, so the check that
 * each shard holds exactly its own range also confirms that the proxy places ids where the
 * benchmark expects them.
 */
public record Accounts(int accountsPerShard) {
    public static final String DATABASE = "crossshard";
    public static final long OPENING_BALANCE = 1_000;
    private static final int ROWS_PER_INSERT = 1_000;

    public Accounts {
        if (accountsPerShard < 1) {
            throw new IllegalArgumentException("at least one account per shard expected: " + accountsPerShard);
        }
    }

    /** The sum of all balances, which every transfer keeps. */
    public long total(int shards) {
        return (long) shards * accountsPerShard * OPENING_BALANCE;
    }

    public void load(BenchHome home) throws SQLException {
        for (int s = 0; s < home.spec().shards(); s++) {
            try (Connection c = home.shard(s, "").getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
                st.execute("DROP TABLE IF EXISTS " + DATABASE + ".accounts");
                st.execute("CREATE TABLE " + DATABASE + ".accounts (id BIGINT NOT NULL PRIMARY KEY, "
                    + "balance BIGINT NOT NULL, moves BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB");
            }
        }
        try (Connection c = home.proxy(DATABASE).getConnection(); Statement st = c.createStatement()) {
            for (int s = 0; s < home.spec().shards(); s++) {
                long first = HomeSpec.firstAccount(s);
                for (int from = 0; from < accountsPerShard; from += ROWS_PER_INSERT) {
                    StringBuilder sql = new StringBuilder("INSERT INTO accounts (id, balance) VALUES ");
                    int to = Math.min(accountsPerShard, from + ROWS_PER_INSERT);
                    for (int i = from; i < to; i++) {
                        sql.append(i > from ? "," : "").append('(').append(first + i).append(',')
                            .append(OPENING_BALANCE).append(')');
                    }
                    st.executeUpdate(sql.toString());
                }
            }
        }
    }

    /**
     * After the runs: every shard holds exactly its own range of ids; the sum of balances is the
     * opening total, counted on the shards directly and through the proxy; and the rows' move
     * counters add up to the updates of the transactions whose COMMIT succeeded (plus at most
     * those whose COMMIT answered an error, which may have committed).
     */
    public List<Dataset.CheckResult> verify(BenchHome home, long committedUpdates, long uncertainUpdates) {
        int shards = home.spec().shards();
        List<Dataset.CheckResult> checks = new ArrayList<>();
        long rows = 0;
        long balance = 0;
        long moves = 0;
        List<String> misplaced = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            JdbcTarget shard = home.shard(s, DATABASE);
            try (Connection c = shard.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*), MIN(id), MAX(id), SUM(balance), SUM(moves) FROM accounts")) {
                rs.next();
                long count = rs.getLong(1);
                long first = HomeSpec.firstAccount(s);
                if (count != accountsPerShard || rs.getLong(2) != first || rs.getLong(3) != first + accountsPerShard - 1) {
                    misplaced.add(String.format(Locale.ROOT, "shard %d holds %d rows, ids %d..%d", s, count,
                        rs.getLong(2), rs.getLong(3)));
                }
                rows += count;
                balance += rs.getLong(4);
                moves += rs.getLong(5);
            } catch (SQLException e) {
                checks.add(new Dataset.CheckResult("accounts on shard " + s + " could not be read: " + e.getMessage(), false));
                return checks;
            }
        }
        checks.add(new Dataset.CheckResult(misplaced.isEmpty()
            ? String.format(Locale.ROOT, "accounts: each of the %d shards holds exactly its own %,d ids", shards,
                accountsPerShard)
            : "accounts misplaced: " + String.join("; ", misplaced), misplaced.isEmpty()));
        long expected = total(shards);
        String throughProxy;
        boolean proxyAgrees;
        try (Connection c = home.proxy(DATABASE).getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT SUM(balance), COUNT(*) FROM accounts")) {
            rs.next();
            long sum = rs.getLong(1);
            throughProxy = String.format(Locale.ROOT, "%,d through the proxy (%,d rows)", sum, rs.getLong(2));
            proxyAgrees = sum == expected && rs.getLong(2) == rows;
        } catch (SQLException e) {
            throughProxy = "the proxy could not sum them: " + e.getMessage();
            proxyAgrees = false;
        }
        checks.add(new Dataset.CheckResult(String.format(Locale.ROOT,
            "accounts: sum of balances %,d on the shards directly, %s; opening total %,d", balance, throughProxy,
            expected), balance == expected && proxyAgrees));
        boolean movesAgree = moves >= committedUpdates && moves <= committedUpdates + uncertainUpdates;
        checks.add(new Dataset.CheckResult(String.format(Locale.ROOT,
            "accounts: %,d row updates recorded on the shards, %,d by transactions the clients saw commit%s", moves,
            committedUpdates, uncertainUpdates == 0 ? "" : String.format(Locale.ROOT,
                " (and up to %,d by transactions whose COMMIT failed)", uncertainUpdates)), movesAgree));
        return checks;
    }
}
