package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.Layout;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.check.Violation;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * TPC-C warehouses 1..W spread over the shards in contiguous ranges (config/tpcc.yaml's shape),
 * loaded on each shard directly, items on every shard. Verified with consistency conditions 1-4
 * read from every shard directly, which also catches a warehouse on two shards or on none.
 */
public record TpccDataset(int warehouses, int loaderThreads) implements Dataset {
    public static final String DATABASE = "tpcc";

    @Override
    public Layout layout() {
        return Layout.TPCC;
    }

    @Override
    public void load(BenchHome home) throws Exception {
        for (int s = 0; s < home.spec().shards(); s++) {
            try (Connection c = home.shard(s, "").getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            }
            int first = home.spec().firstWarehouse(s);
            int count = home.spec().lastWarehouse(s) - first + 1;
            TpccLoader.load(home.shard(s, DATABASE),
                new LoadOptions(count, first, loaderThreads, true, LoadOptions.DEFAULT_SEED));
        }
    }

    @Override
    public List<CheckResult> verify(BenchHome home) throws Exception {
        List<DataSource> shards = new ArrayList<>();
        for (JdbcTarget t : home.shards(DATABASE)) {
            shards.add(t);
        }
        List<Violation> violations = ConsistencyCheck.check(shards, warehouses);
        String where = home.spec().shards() + "-shard home";
        if (violations.isEmpty()) {
            return List.of(new CheckResult(where + ": TPC-C consistency conditions 1-4 hold on all " + warehouses
                + " warehouses, each on exactly one shard", true));
        }
        List<CheckResult> failed = new ArrayList<>();
        failed.add(new CheckResult(where + ": " + violations.size() + " TPC-C consistency violations", false));
        violations.stream().limit(10).forEach(v -> failed.add(new CheckResult("  " + v, false)));
        return failed;
    }
}
