package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.Layout;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * sysbench's sbtest1..N tables, created and filled by {@code sysbench prepare} through the proxy
 * (so with a hashed layout the proxy splits every multi-row insert over the shards). Verified by
 * counting each table's rows through the proxy and on every shard directly: the two must agree.
 */
public record SysbenchDataset(Layout layout, SysbenchOptions options, int loaderThreads, Sysbench sysbench)
    implements Dataset {
    public static final String DATABASE = "sbtest";

    @Override
    public void load(BenchHome home) throws SQLException {
        try (Connection c = home.proxy("").getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        }
        sysbench.prepare(home.sysbenchProxy(DATABASE), options.withWorkload("oltp_read_write"), loaderThreads);
    }

    @Override
    public List<CheckResult> verify(BenchHome home) throws SQLException {
        long throughProxy = 0;
        long onShards = 0;
        for (int t = 1; t <= options.tables(); t++) {
            String count = "SELECT COUNT(*) FROM sbtest" + t;
            throughProxy += count(home.proxy(DATABASE), count);
            for (JdbcTarget shard : home.shards(DATABASE)) {
                onShards += count(shard, count);
            }
        }
        String where = home.spec().shards() + "-shard home";
        boolean agree = throughProxy == onShards && onShards >= (long) options.tables() * options.tableSize();
        List<CheckResult> results = new ArrayList<>();
        results.add(new CheckResult(where + ": " + String.format("%,d", throughProxy) + " sbtest rows counted through the proxy, "
            + String.format("%,d", onShards) + " on the shards directly" + (agree ? "" : " (MISMATCH)"), agree));
        return results;
    }

    private static long count(JdbcTarget target, String sql) throws SQLException {
        try (Connection c = target.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
