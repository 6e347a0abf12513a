package io.cleave.bench.cli;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.report.ResultCharts;
import io.cleave.bench.report.ResultFiles;
import io.cleave.bench.report.ResultTable;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.run.IsolationLevel;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the TPC-C mix with no think time and report tpmC, latencies and errors.")
final class RunCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Option(names = "--warehouses", description = "Warehouses loaded (default: counted in the warehouse table).")
    Integer warehouses;

    @Option(names = "--connections", defaultValue = "4", description = "Terminals, one connection each (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--duration", defaultValue = "60s", converter = DurationConverter.class,
        description = "Measurement time after warm-up, e.g. 60s, 5m (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "10s", converter = DurationConverter.class,
        description = "Warm-up not counted in the result (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--report-interval", defaultValue = "10s", converter = DurationConverter.class,
        description = "Progress line and time-series step (default: ${DEFAULT-VALUE}).")
    Duration reportInterval;

    @Option(names = "--isolation", defaultValue = "REPEATABLE_READ",
        description = "READ_COMMITTED, REPEATABLE_READ or SERIALIZABLE (default: ${DEFAULT-VALUE}).")
    IsolationLevel isolation;

    @Option(names = "--seed", defaultValue = "" + RunOptions.DEFAULT_SEED, description = "Run seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--load-seed", defaultValue = "" + LoadOptions.DEFAULT_SEED,
        description = "The --seed the data was loaded with (default: ${DEFAULT-VALUE}).")
    long loadSeed;

    @Option(names = "--max-retries", defaultValue = "10",
        description = "Retries of one transaction after deadlocks or lock wait timeouts (default: ${DEFAULT-VALUE}).")
    int maxRetries;

    @Option(names = "--label", defaultValue = "tpcc", description = "Configuration name in results and charts (default: ${DEFAULT-VALUE}).")
    String label;

    @Option(names = "--output", description = "Directory for results.json, throughput.csv and PNG charts.")
    Path output;

    @Override
    public Integer call() throws SQLException, IOException {
        JdbcTarget target = connection.target().withServerPreparedStatements();
        int w = warehouses != null ? warehouses : countWarehouses(target);
        RunOptions options = RunOptions.of(w, connections, duration).withWarmup(warmup)
            .withReportInterval(reportInterval).withIsolation(isolation).withSeeds(seed, loadSeed)
            .withMaxRetries(maxRetries).withLabel(label);
        System.out.printf("%s: %d warehouses, %d connections, %.0f s warm-up, %.0f s measured, target %s%n", label, w,
            connections, warmup.toMillis() / 1000.0, duration.toMillis() / 1000.0, target.redactedUrl());
        RunResult result = TpccDriver.run(target::getConnection, options, target.redactedUrl(),
            (sample, soFar) -> System.out.println(ResultTable.progressLine(sample, soFar)));
        System.out.print(ResultTable.render(result));
        if (output != null) {
            ResultFiles.writeJson(result, output.resolve(ResultFiles.RESULTS_JSON));
            ResultFiles.writeThroughputCsv(result, output.resolve(ResultFiles.THROUGHPUT_CSV));
            ResultCharts.write(List.of(result), output);
            System.out.println("wrote " + output.toAbsolutePath());
        }
        return 0;
    }

    private static int countWarehouses(JdbcTarget target) throws SQLException {
        try (Connection c = target.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM warehouse")) {
            rs.next();
            int count = rs.getInt(1);
            if (count == 0) {
                throw new SQLException("the warehouse table is empty: run `tpcc load` first");
            }
            return count;
        }
    }
}
