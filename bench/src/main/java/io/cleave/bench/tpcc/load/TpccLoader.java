package io.cleave.bench.tpcc.load;

import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.schema.TpccSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the schema and loads the initial database: the item table once (skipped when it already
 * has rows, so shards or warehouse ranges can be loaded one after another), then every warehouse
 * in parallel parts on a fixed number of threads, each with its own connection.
 */
public final class TpccLoader {
    private static final Logger log = LoggerFactory.getLogger(TpccLoader.class);

    private TpccLoader() {
    }

    public static LoadResult load(DataSource dataSource, LoadOptions options) throws SQLException {
        long started = System.nanoTime();
        boolean loadItems;
        try (Connection connection = dataSource.getConnection()) {
            if (options.dropSchema()) {
                TpccSchema.drop(connection);
            }
            TpccSchema.create(connection);
            loadItems = isEmpty(connection, "item");
        }
        NURandConstants constants = NURandConstants.forLoad(options.seed());
        List<Task> tasks = new ArrayList<>();
        if (loadItems) {
            tasks.add(new Task("items", c -> Map.of("item", ItemLoader.load(c, new TpccRandom(options.seed())))));
        }
        for (int w = options.firstWarehouse(); w <= options.lastWarehouse(); w++) {
            int warehouse = w;
            for (WarehouseLoader.Part part : WarehouseLoader.Part.values()) {
                tasks.add(new Task("warehouse " + w + " " + part.name().toLowerCase(),
                    c -> part.load(c, warehouse, options.seed(), constants)));
            }
        }
        log.info("loading warehouses {}..{}{} on {} threads (C_LAST load constant {})", options.firstWarehouse(),
            options.lastWarehouse(), loadItems ? " and items" : "", options.threads(), constants.cLast());
        Map<String, Long> rows = runAll(dataSource, tasks, options.threads());
        double seconds = (System.nanoTime() - started) / 1e9;
        return new LoadResult(rows, loadItems, seconds);
    }

    private static Map<String, Long> runAll(DataSource dataSource, List<Task> tasks, int threads)
        throws SQLException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, tasks.size()), runnable -> {
            Thread thread = new Thread(runnable, "tpcc-loader");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Map<String, Long>>> futures = new ArrayList<>();
            for (Task task : tasks) {
                futures.add(pool.submit(() -> task.run(dataSource)));
            }
            Map<String, Long> rows = new TreeMap<>();
            for (Future<Map<String, Long>> future : futures) {
                future.get().forEach((table, count) -> rows.merge(table, count, Long::sum));
            }
            return rows;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException) {
                throw (SQLException) e.getCause();
            }
            throw new IllegalStateException("load failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("load interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean isEmpty(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT 1 FROM " + table + " LIMIT 1")) {
            return !rs.next();
        }
    }

    @FunctionalInterface
    private interface TableWork {
        Map<String, Long> load(Connection connection) throws SQLException;
    }

    private record Task(String name, TableWork work) {
        Map<String, Long> run(DataSource dataSource) throws SQLException {
            long started = System.nanoTime();
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                Map<String, Long> rows = work.load(connection);
                connection.commit();
                log.info("loaded {} in {} s", name, String.format("%.1f", (System.nanoTime() - started) / 1e9));
                return rows;
            }
        }
    }
}
