package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * With the clients at rest, reads across shards through the proxy count and sum what the shards
 * hold: the same rows the direct reads counted on their owners, none twice (a move's ghost rows
 * left out) and none missing. A changed total through the proxy while the shards hold the right
 * one is a wrong read, not a lost write; this tells the two apart.
 */
final class ProxyTotalsCheck {
    private final DataSource proxy;

    /** proxy: the proxy on the bank's database. */
    ProxyTotalsCheck(DataSource proxy) {
        this.proxy = proxy;
    }

    CheckResult check(BankCheck.BankRows bank, KvCheck.KvRows kv) throws SQLException {
        List<String> differences = new ArrayList<>();
        List<String> figures = new ArrayList<>();
        try (Connection c = proxy.getConnection(); Statement st = c.createStatement()) {
            compare(st, "accounts", "balance", bank.balances().size(),
                bank.balances().values().stream().mapToLong(Long::longValue).sum(), figures, differences);
            long entries = 0;
            long deltas = 0;
            for (List<BankCheck.EntryRow> rows : bank.entries().values()) {
                for (BankCheck.EntryRow r : rows) {
                    entries++;
                    deltas += r.delta();
                }
            }
            compare(st, "entries", "delta", entries, deltas, figures, differences);
            for (Map.Entry<String, Map<Long, List<long[]>>> t : kv.copies().entrySet()) {
                long keys = 0;
                long sum = 0;
                for (List<long[]> copies : t.getValue().values()) {
                    if (!copies.isEmpty()) {
                        keys++;
                        sum += copies.get(0)[1];
                    }
                }
                compare(st, t.getKey(), "v", keys, sum, figures, differences);
            }
        }
        return CheckResult.of("reads through the proxy", "COUNT(*) and SUM over every shard through the proxy equal"
            + " the rows on their owners: " + String.join(", ", figures), differences);
    }

    private static void compare(Statement st, String table, String column, long count, long sum, List<String> figures,
                                List<String> differences) throws SQLException {
        // SUM of no rows is NULL, read as 0; COALESCE around it would be an expression over an aggregate,
        // which the proxy evaluates on one shard only within its bound.
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(" + column + ") FROM " + table)) {
            rs.next();
            long readCount = rs.getLong(1);
            long readSum = rs.getLong(2);
            figures.add(String.format(Locale.ROOT, "%s %,d", table, readCount));
            if (readCount != count || readSum != sum) {
                differences.add(String.format(Locale.ROOT, "%s through the proxy: %,d rows summing to %,d; on their"
                    + " owners: %,d rows summing to %,d", table, readCount, readSum, count, sum));
            }
        }
    }
}
