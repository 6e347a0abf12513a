package io.cleave.bench.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cleave.bench.tpcc.check.Condition;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.check.Violation;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The harness against a real server, through its in-process API. Runs only when -Dtpcc.it.server
 * names one (e.g. jdbc:mysql://127.0.0.1:3399/?sslMode=DISABLED&user=root); databases tpcc_it_a and
 * tpcc_it_b are (re)created there and stand for two shards.
 */
class TpccAgainstServerIT {
    private static final String SERVER = System.getProperty("tpcc.it.server", "");

    @Test
    void loadRunAndCheckOneWarehouseThenBreakIt() throws Exception {
        assumeTrue(!SERVER.isEmpty(), "set -Dtpcc.it.server to run against a server");
        DataSource a = database("tpcc_it_a");
        TpccLoader.load(a, LoadOptions.of(1).withDropSchema(true));

        RunResult result = TpccDriver.run(a, RunOptions.of(1, 2, Duration.ofSeconds(4))
            .withWarmup(Duration.ofSeconds(1)).withReportInterval(Duration.ofSeconds(1)));

        assertThat(result.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        assertThat(result.tpmC()).isPositive();
        assertThat(result.errors()).isEmpty();
        assertThat(result.series()).hasSize(5);
        assertThat(ConsistencyCheck.check(List.of(a), 1)).isEmpty();

        try (Connection c = a.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1");
            s.executeUpdate("DELETE FROM new_orders WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = 2500");
        }
        List<Violation> violations = ConsistencyCheck.check(List.of(a), 2);
        assertThat(violations).extracting(Violation::condition).containsExactlyInAnyOrder(
            Condition.W_YTD_EQUALS_SUM_D_YTD, Condition.NEW_ORDERS_CONTIGUOUS, Condition.WAREHOUSE_PLACEMENT);
        assertThat(violations).filteredOn(v -> v.condition() == Condition.NEW_ORDERS_CONTIGUOUS)
            .extracting(Violation::district).containsExactly(3);
    }

    @Test
    void twoShardsEachWithTheirWarehouse() throws Exception {
        assumeTrue(!SERVER.isEmpty(), "set -Dtpcc.it.server to run against a server");
        DataSource a = database("tpcc_it_a");
        DataSource b = database("tpcc_it_b");
        TpccLoader.load(a, new LoadOptions(1, 1, 3, true, LoadOptions.DEFAULT_SEED));
        TpccLoader.load(b, new LoadOptions(1, 2, 3, true, LoadOptions.DEFAULT_SEED));

        assertThat(ConsistencyCheck.check(List.of(a, b), 2)).isEmpty();
        List<Violation> doubled = ConsistencyCheck.check(List.of(a, b, a), 2);
        assertThat(doubled).extracting(Violation::condition).containsOnly(Condition.WAREHOUSE_PLACEMENT);
    }

    private static DataSource database(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + name);
        }
        String url = SERVER.replaceFirst("/\\?", "/" + name + "?") + "&useServerPrepStmts=true&cachePrepStmts=true";
        return new UrlDataSource(url);
    }

    private record UrlDataSource(String url) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
