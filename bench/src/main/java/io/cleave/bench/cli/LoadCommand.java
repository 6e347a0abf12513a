package io.cleave.bench.cli;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.LoadResult;
import io.cleave.bench.tpcc.load.TpccLoader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "load", mixinStandardHelpOptions = true,
    description = "Create the schema and load the initial database (items once, then the warehouses in parallel).")
final class LoadCommand implements Callable<Integer> {
    private static final int ER_BAD_DB = 1049;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--warehouses", defaultValue = "1", description = "Warehouses to load (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--first-warehouse", defaultValue = "1",
        description = "First warehouse id, to load a range (e.g. one shard directly) (default: ${DEFAULT-VALUE}).")
    int firstWarehouse;

    @Option(names = "--threads", description = "Loader threads (default: number of cores, at least 2).")
    Integer threads;

    @Option(names = "--drop", description = "Drop and recreate the TPC-C tables first.")
    boolean drop;

    @Option(names = "--seed", defaultValue = "" + LoadOptions.DEFAULT_SEED,
        description = "Data seed; give `run` the same value as --load-seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() throws SQLException {
        JdbcTarget target = connection.target();
        createDatabaseIfMissing(target);
        LoadOptions defaults = LoadOptions.of(warehouses);
        LoadOptions options = new LoadOptions(warehouses, firstWarehouse,
            threads == null ? defaults.threads() : threads, drop, seed);
        LoadResult result = TpccLoader.load(target, options);
        System.out.printf("loaded %,d rows in %.1f s (%.0f rows/s)%s%n", result.totalRows(), result.seconds(),
            result.totalRows() / result.seconds(), result.itemsLoaded() ? "" : "; item table already loaded");
        result.rowsByTable().forEach((table, rows) -> System.out.printf("  %-11s %,12d%n", table, rows));
        return 0;
    }

    /** Convenience for a fresh server: the URL's database is created when the server says it is unknown. */
    private static void createDatabaseIfMissing(JdbcTarget target) throws SQLException {
        try {
            target.getConnection().close();
            return;
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_BAD_DB || target.database().isEmpty()) {
                throw e;
            }
        }
        try (Connection c = target.withoutDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + target.database().replace("`", "``") + "`");
        }
    }
}
