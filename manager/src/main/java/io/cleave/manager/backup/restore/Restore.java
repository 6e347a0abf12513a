package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.backup.store.BackupStores;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code cleave restore}: builds a new home from a backup location at one point: a backup's own cut,
 * or (with archived binlogs) a recorded cut after it. The backup's rows are loaded into fresh
 * datadirs in parallel, routed by the restored rules (so into any shard count), secondary indexes
 * are built after, every table is checked against the backup's checksums, and the home is left
 * stopped, ready for {@code cleave up}. The home the backup came from is never touched.
 */
public final class Restore {

    /** What a restore made. */
    public record Result(Path home, Path config, String backup, String point, int shards, long rows, long millis,
                         List<TableChecksums.Check> checks) {
        public boolean verified() {
            return checks.stream().allMatch(TableChecksums.Check::ok);
        }

        public List<String> problems() {
            return checks.stream().filter(c -> !c.ok()).map(c -> c.table() + ": " + c.problem()).toList();
        }
    }

    private final BackupConfig config;
    private final Map<String, String> env;
    private final Consumer<String> say;

    /** {@code say} receives a line for each step (the CLI prints them). */
    public Restore(BackupConfig config, Map<String, String> env, Consumer<String> say) {
        this.config = config;
        this.env = env;
        this.say = say;
    }

    public Result run(RestoreRequest request) throws Exception {
        long started = System.nanoTime();
        try (BackupStore store = BackupStores.of(request.location(), config)) {
            BackupCatalog catalog = new BackupCatalog(store);
            BackupManifest manifest = request.backupId() != null ? catalog.manifest(request.backupId()) : newest(catalog);
            int shards = request.shards().orElse(manifest.shardCount());
            ShardMap restoredMap = RestoredMap.of(ShardMapStore.parse(manifest.shardMap().getBytes(StandardCharsets.UTF_8)),
                    shards);
            String restoredConfig = RestoredConfig.of(manifest.config(), shards);
            say.accept("restoring backup " + manifest.id() + " (cut at " + Instant.ofEpochMilli(manifest.cutMillis())
                    + ", " + manifest.shardCount() + " shards, " + manifest.rows() + " rows) into " + request.home()
                    + " with " + shards + " shards");
            try (NewHome home = NewHome.create(request.home(), restoredConfig, restoredMap, env)) {
                Topology topology = ConfigLoader.parse(home.configFile(), restoredConfig).sharding().topology();
                long rows = load(store, manifest, home, new RowRouter(restoredMap, topology));
                List<TableChecksums.Check> checks = TableChecksums.verify(home.links(), shards, manifest.tables(),
                        shards == manifest.shardCount());
                home.finished();
                return new Result(home.home().root(), home.configFile(), manifest.id(), "the backup's cut at "
                        + Instant.ofEpochMilli(manifest.cutMillis()), shards, rows, (System.nanoTime() - started) / 1_000_000,
                        checks);
            }
        }
    }

    private static BackupManifest newest(BackupCatalog catalog) throws IOException {
        String last = null;
        for (Map.Entry<String, Boolean> e : catalog.backups().entrySet()) {
            if (e.getValue()) {
                last = e.getKey();
            }
        }
        if (last == null) {
            throw new java.nio.file.NoSuchFileException(catalog.store().describe(), null, "it holds no complete backup");
        }
        return catalog.manifest(last);
    }

    /** Schema on every shard, then every chunk in parallel, then the deferred indexes on every shard. */
    private long load(BackupStore store, BackupManifest manifest, NewHome home, RowRouter router) throws Exception {
        int shards = home.shards();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Math.min(8, shards * 2)));
        try (TableLoader loader = new TableLoader(store, home.links())) {
            List<Future<?>> steps = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                int shard = s;
                steps.add(pool.submit(() -> {
                    try (var c = home.links().open(shard)) {
                        SchemaRestore.apply(c, manifest);
                    }
                    return null;
                }));
            }
            await(steps);
            say.accept("schema and " + manifest.accounts().size() + " account statements made on " + shards + " shards");
            steps.clear();
            long chunks = 0;
            for (BackupManifest.TableBackup t : manifest.tables()) {
                for (BackupManifest.Chunk ch : t.chunks()) {
                    chunks++;
                    steps.add(pool.submit(() -> {
                        loader.load(t, ch, router);
                        return null;
                    }));
                }
            }
            long total = chunks;
            awaitShowing(steps, () -> say.accept(String.format("loaded %,d rows, %d of %d chunks", loader.rowsLoaded.get(),
                    loader.chunksLoaded.get(), total)));
            steps.clear();
            for (int s = 0; s < shards; s++) {
                int shard = s;
                steps.add(pool.submit(() -> {
                    try (var c = home.links().open(shard)) {
                        SchemaRestore.addIndexes(c, manifest.tables());
                    }
                    return null;
                }));
            }
            await(steps);
            say.accept("secondary indexes built");
            return loader.rowsLoaded.get();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(List<Future<?>> steps) throws Exception {
        for (Future<?> f : steps) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception x ? x : e;
            }
        }
    }

    /** Waits for every step, reporting every few seconds. */
    private static void awaitShowing(List<Future<?>> steps, Runnable report) throws Exception {
        long next = System.nanoTime() + 5_000_000_000L;
        for (Future<?> f : steps) {
            while (true) {
                try {
                    f.get(500, java.util.concurrent.TimeUnit.MILLISECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException e) {
                    if (System.nanoTime() > next) {
                        report.run();
                        next = System.nanoTime() + 5_000_000_000L;
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : e;
                }
            }
        }
        report.run();
    }
}
