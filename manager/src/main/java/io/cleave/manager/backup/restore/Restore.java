package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupSources;
import io.cleave.manager.backup.LogicalBackup;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.PointInTimeBase;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.backup.store.BackupStores;
import io.cleave.manager.backup.store.DirectoryStore;
import io.cleave.manager.backup.triggers.TriggerOrEvent;
import io.cleave.manager.backup.triggers.TriggersAndEvents;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.ShardLinks;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

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

    /**
     * A step run on the new home's running shards once its rows are in and checked, before the home is
     * marked complete (a standby starts replication there).
     */
    public interface FinishingStep {
        void run(ShardLinks shards, BackupManifest restored) throws Exception;
    }

    private final BackupConfig config;
    private final Map<String, String> env;
    private final Consumer<String> say;
    private UnaryOperator<String> adjustConfig = UnaryOperator.identity();
    private boolean samePair;
    private FinishingStep finishing = (shards, restored) -> { };
    /** Rows the last {@link #fromBackup} loaded from its backup (before any binlog replayed). */
    private long rowsLoaded;

    /** {@code say} receives a line for each step (the CLI prints them). */
    public Restore(BackupConfig config, Map<String, String> env, Consumer<String> say) {
        this.config = config;
        this.env = env;
        this.say = say;
    }

    /** The restored home's config is {@code adjust} of the backed-up one's (a standby's own ports and server ids). */
    public Restore adjustingConfig(UnaryOperator<String> adjust) {
        this.adjustConfig = adjust;
        return this;
    }

    /**
     * The restored home joins the standby pair of the home it came from (a standby), so it keeps the config's
     * coordination section; any other restore drops it, as it is another database.
     */
    public Restore joiningThePair() {
        this.samePair = true;
        return this;
    }

    /** Runs {@code step} on a restore from a backup's own cut before the home is marked complete. */
    public Restore finishingWith(FinishingStep step) {
        this.finishing = step;
        return this;
    }

    /**
     * Restores; when it fails once the new home exists (a shard of it died, the location went away), the
     * home stays marked unfinished and the exception says so and what to do.
     */
    public Result run(RestoreRequest request) throws Exception {
        try {
            return restore(request);
        } catch (Exception e) {
            throw UnfinishedRestore.marked(request.home()) ? UnfinishedRestore.failed(request.home(), e) : e;
        }
    }

    private Result restore(RestoreRequest request) throws Exception {
        long started = System.nanoTime();
        try (BackupStore store = BackupStores.of(request.location(), config)) {
            BackupCatalog catalog = new BackupCatalog(store);
            if (request.toCut().isPresent() || request.toMillis().isPresent()) {
                return toCut(store, catalog, request, started);
            }
            BackupManifest manifest = request.backupId() != null ? catalog.manifest(request.backupId()) : newest(catalog);
            int shards = request.shards().orElse(manifest.shardCount());
            if (manifest.physical() && shards != manifest.shardCount()) {
                return physicalIntoOtherCount(store, manifest, request, shards, started);
            }
            try (NewHome home = fromBackup(store, manifest, request.home(), shards)) {
                if (manifest.physical()) {
                    atPhysicalCut(home, manifest);
                }
                List<TableChecksums.Check> checks = TableChecksums.verify(home.links(), shards, manifest.tables(),
                        shards == manifest.shardCount());
                settleTableMoveKeys(home, manifest);
                if (checks.stream().allMatch(TableChecksums.Check::ok)) {
                    finishing.run(home.links(), manifest);
                }
                settle(home, checks);
                return new Result(home.home().root(), home.configFile(), manifest.id(), "the backup's cut at "
                        + Instant.ofEpochMilli(manifest.cutMillis()), shards, rowsLoaded,
                        (System.nanoTime() - started) / 1_000_000, checks);
            }
        }
    }

    /**
     * A new home at {@code root} with {@code shards} shards holding the backup's rows, its shards running
     * (a physical backup's XA branches still prepared at its cut: the caller settles them).
     */
    private NewHome fromBackup(BackupStore store, BackupManifest manifest, Path root, int shards) throws Exception {
        if (manifest.physical() && shards != manifest.shardCount()) {
            throw new IllegalStateException("a physical backup's copies go into its own " + manifest.shardCount()
                    + " shards"); // other counts go through physicalIntoOtherCount
        }
        GlobalKeyLookups.checkFit(manifest, shards);
        ShardMap restoredMap = RestoredMap.of(ShardMapStore.parse(manifest.shardMap().getBytes(StandardCharsets.UTF_8)),
                shards);
        String restoredConfig = adjustConfig.apply(RestoredConfig.of(manifest.config(), shards, samePair));
        say.accept("restoring backup " + manifest.id() + " (cut at " + Instant.ofEpochMilli(manifest.cutMillis())
                + ", " + manifest.shardCount() + " shards, " + manifest.rows() + " rows) into " + root + " with "
                + shards + " shards");
        NewHome home = NewHome.create(root, restoredConfig, restoredMap, env);
        try {
            if (manifest.physical()) {
                new PhysicalRestore(env, say).into(home, store, manifest);
                rowsLoaded = manifest.rows();
                return home;
            }
            Topology topology = ConfigLoader.parse(home.configFile(), restoredConfig).sharding().topology();
            rowsLoaded = load(store, manifest, home, new RowRouter(restoredMap, topology), topology.defaultShard());
            return home;
        } catch (Exception | Error e) {
            home.close();
            throw e;
        }
    }

    /**
     * To a recorded cut: the newest complete backup before it restored with its own shard count, each
     * shard's archived binlog replayed from the backup's position to the cut's (after the prepare
     * groups of XA branches still prepared at the backup's position), the branches still prepared
     * at the cut settled by the restored decisions; into another shard count through a scratch home
     * and a backup of it.
     */
    private Result toCut(BackupStore store, BackupCatalog catalog, RestoreRequest request, long started) throws Exception {
        List<CutRecord> cuts = catalog.cuts();
        CutRecord target = null;
        for (CutRecord c : cuts) {
            if (request.toCut().isPresent() ? c.id() == request.toCut().getAsLong()
                    : c.millis() <= request.toMillis().getAsLong()) {
                target = c;
            }
        }
        if (target == null) {
            throw new IllegalArgumentException("no recorded cut " + (request.toCut().isPresent() ? "with id "
                    + request.toCut().getAsLong() : "at or before " + Instant.ofEpochMilli(request.toMillis().getAsLong()))
                    + " in " + store.describe() + (cuts.isEmpty() ? " (it holds none: is backup.archive_binlogs on?)"
                    : " (cuts " + cuts.get(0).id() + " at " + Instant.ofEpochMilli(cuts.get(0).millis()) + " to "
                    + cuts.get(cuts.size() - 1).id() + " at " + Instant.ofEpochMilli(cuts.get(cuts.size() - 1).millis()) + ")"));
        }
        Set<Long> routable = catalog.routableMaps();
        BackupManifest base = baseFor(catalog, cuts, target, routable);
        ShardMap baseMap = ShardMapStore.parse(base.shardMap().getBytes(StandardCharsets.UTF_8));
        ShardMap cutMap = baseMap.version() == target.mapVersion() ? null
                : ShardMapStore.parse(catalog.map(target.mapVersion()));
        int n = base.shardCount();
        int wanted = request.shards().orElse(n);
        GlobalKeyLookups.checkFit(base, wanted); // before the replay: refused at once, not after the work
        Path root = wanted == n ? request.home() : scratchBeside(request.home());
        String point = "cut " + target.id() + " at " + Instant.ofEpochMilli(target.millis());
        List<TableChecksums.Check> checks;
        try (NewHome home = fromBackup(store, base, wanted == n ? root : root.resolve("home"), n)) {
            checks = TableChecksums.verify(home.links(), n, base.tables(), true);
            replay(store, base, target, home);
            for (String line : XaSettlement.settle(home.links(), n)) {
                say.accept(line);
            }
            if (cutMap != null) {
                Topology topology = ConfigLoader.load(home.configFile()).sharding().topology();
                for (String line : CutMapRouting.dropUnroutedRows(home, cutMap, topology)) {
                    say.accept(line);
                }
                for (String line : UnfinishedTableMoves.settleKeys(home, cutMap, topology)) {
                    say.accept(line);
                }
                CutMapRouting.route(home, cutMap, topology);
                say.accept("routed by the shard map of the cut (version " + cutMap.version() + "; the backup's was "
                        + baseMap.version() + ")");
            }
            if (wanted == n) {
                settle(home, checks);
                return new Result(home.home().root(), home.configFile(), base.id(), point, n, rowsLoaded,
                        (System.nanoTime() - started) / 1_000_000, checks);
            }
            return copyInto(home, root, request.home(), wanted, base.id() + "-at-" + target.id(), base.id(), point,
                    started, List.of());
        } finally {
            if (wanted != n) {
                deleteTree(root);
            }
        }
    }

    /**
     * {@code home} (at {@code point}, with its backup's shard count) copied into {@code wanted} shards at
     * {@code into} through a logical backup of it ({@code copyId}) kept in {@code scratch}; closes
     * {@code home}. {@code earlier}: checks of {@code home} that failed, reported with the copy's.
     */
    private Result copyInto(NewHome home, Path scratch, Path into, int wanted, String copyId, String backupId,
                            String point, long started, List<TableChecksums.Check> earlier) throws Exception {
        say.accept("copying the home at " + point + " into " + wanted + " shards");
        BackupManifest copy = LogicalBackup.ofQuietHome(new BackupSources(
                home.links(), new ShardMapHolder(ShardMapStore.parse(
                        Files.readAllBytes(home.home().shardMapFile()))),
                ConfigLoader.load(home.configFile()).sharding().topology(), () -> null, home.configFile(), null),
                new DirectoryStore(scratch.resolve("copy")), copyId);
        home.close();
        try (BackupStore copies = new DirectoryStore(scratch.resolve("copy"));
             NewHome restored = fromBackup(copies, copy, into, wanted)) {
            List<TableChecksums.Check> checks = new ArrayList<>(earlier);
            checks.addAll(TableChecksums.verify(restored.links(), wanted, copy.tables(), false));
            settle(restored, checks);
            return new Result(restored.home().root(), restored.configFile(), backupId, point, wanted, rowsLoaded,
                    (System.nanoTime() - started) / 1_000_000, checks);
        }
    }

    /**
     * A physical backup into another shard count: restored at its own count in a scratch home beside
     * {@code request.home()} (checked against the cut's checksums, its prepared branches settled), then
     * copied into {@code wanted} shards through a logical backup of that home.
     */
    private Result physicalIntoOtherCount(BackupStore store, BackupManifest manifest, RestoreRequest request, int wanted,
                                          long started) throws Exception {
        int n = manifest.shardCount();
        GlobalKeyLookups.checkFit(manifest, wanted);
        Path root = scratchBeside(request.home());
        String point = "the backup's cut at " + Instant.ofEpochMilli(manifest.cutMillis());
        try (NewHome home = fromBackup(store, manifest, root.resolve("home"), n)) {
            atPhysicalCut(home, manifest);
            List<TableChecksums.Check> failed = TableChecksums.verify(home.links(), n, manifest.tables(), true).stream()
                    .filter(c -> !c.ok()).toList();
            settleTableMoveKeys(home, manifest);
            return copyInto(home, root, request.home(), wanted, manifest.id() + "-logical", manifest.id(), point, started,
                    failed);
        } finally {
            deleteTree(root);
        }
    }

    /**
     * A home restored from a physical backup made what clients saw at the cut: the XA branches prepared
     * at the cut settled by the restored decisions (the cut is never between a decision and its last
     * commit, so they hold no rows of it), and the rows of a move under way at the cut that its map does
     * not route removed (a move of keys' ghosts, a table move's copy: the files hold them, a logical
     * backup reads the rows the map routes only).
     */
    private void atPhysicalCut(NewHome home, BackupManifest manifest) throws Exception {
        for (String line : XaSettlement.settle(home.links(), home.shards())) {
            say.accept(line);
        }
        ShardMap map = ShardMapStore.parse(manifest.shardMap().getBytes(StandardCharsets.UTF_8));
        if (!map.ghosts().isEmpty() || !map.movingTables().isEmpty()) {
            Topology topology = ConfigLoader.load(home.configFile()).sharding().topology();
            for (String line : CutMapRouting.dropUnroutedRows(home, map, topology)) {
                say.accept(line);
            }
        }
    }

    /**
     * A home restored from a backup of either engine whose map has a table move under way: the catalog
     * rows of the global unique keys the move registered settled ({@link UnfinishedTableMoves}), else the
     * home would refuse writes to a table sharded at the cut as an interrupted build. After the tables
     * are checked: the backup read those rows as they were.
     */
    private void settleTableMoveKeys(NewHome home, BackupManifest manifest) throws Exception {
        ShardMap map = ShardMapStore.parse(manifest.shardMap().getBytes(StandardCharsets.UTF_8));
        if (map.movingTables().isEmpty()) {
            return;
        }
        if (samePair) {
            // A standby's seed replicates its primary, whose move deletes these rows itself: deleted here
            // first, that replicated DELETE would find no row and stop the replica. The seed refuses a cut
            // with a move under way anyway (SeedVersion.refuseMoveAtCut, in its finishing step).
            return;
        }
        Topology topology = ConfigLoader.load(home.configFile()).sharding().topology();
        for (String line : UnfinishedTableMoves.settleKeys(home, map, topology)) {
            say.accept(line);
        }
    }

    /**
     * Marks {@code home} complete when every table holds what the backup read; otherwise it stays marked
     * unfinished with the tables that differ, so that {@code cleave up} does not serve rows that are not
     * the backup's.
     */
    private static void settle(NewHome home, List<TableChecksums.Check> checks) throws IOException {
        List<String> differing = checks.stream().filter(c -> !c.ok()).map(c -> c.table() + ": " + c.problem()).toList();
        if (differing.isEmpty()) {
            home.finished();
        } else {
            UnfinishedRestore.markDiffering(home.home(), differing);
        }
    }

    /** A scratch directory beside {@code home}, open for search: when the daemon is root, its shards run as server.os_user. */
    private static Path scratchBeside(Path home) throws IOException {
        return Files.createTempDirectory(home.toAbsolutePath().getParent(), ".cleave-restore-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
    }

    /** The backup a restore to {@code target} starts from (see {@link PointInTimeBase}). */
    private static BackupManifest baseFor(BackupCatalog catalog, List<CutRecord> cuts, CutRecord target,
                                          Set<Long> routable) throws IOException {
        List<PointInTimeBase.Candidate> candidates = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : catalog.backups().entrySet()) {
            if (e.getValue()) {
                candidates.add(PointInTimeBase.Candidate.of(catalog.manifest(e.getKey())));
            }
        }
        candidates.sort(Comparator.comparingLong(PointInTimeBase.Candidate::cutMillis));
        return catalog.manifest(PointInTimeBase.choose(candidates, cuts, target, routable, catalog.unroutableMaps()));
    }

    private void replay(BackupStore store, BackupManifest base, CutRecord target, NewHome home) throws Exception {
        BinlogReplay replay = new BinlogReplay(Tools.find(home.serverBinary(), env.get("PATH"), "mariadb-binlog", "mysqlbinlog"),
                Tools.find(home.serverBinary(), env.get("PATH"), "mariadb", "mysql"), home.home().logs());
        for (BackupManifest.ShardPosition from : base.shards()) {
            BackupManifest.ShardPosition to = target.shards().get(from.shard());
            ArchivedBinlogs.Archived files = ArchivedBinlogs.upTo(store, from.shard(), to.file(), to.position(),
                    home.home().state().resolve("replay").resolve("shard-" + from.shard()));
            int first = files.indexOf(from.file());
            if (first < 0) {
                throw new IllegalStateException("shard " + from.shard() + "'s archived binlog begins after backup "
                        + base.id() + "'s position " + from.file() + ":" + from.position() + " (archiving began later):"
                        + " restore to that backup, or to a cut after a backup taken while archiving");
            }
            int last = files.indexOf(to.file());
            // A physical base holds its prepared branches as the shard had them; a logical one, none.
            List<PreparedGroups.Group> pending = base.physical() ? List.of()
                    : PreparedGroups.pendingAt(files.contents(), first, from.position());
            for (PreparedGroups.Group g : pending) {
                replay.replay(home.links().endpoint(from.shard()), List.of(files.paths().get(g.fileIndex())), g.start(), g.end());
            }
            replay.replay(home.links().endpoint(from.shard()), files.paths().subList(first, last + 1), from.position(),
                    to.position());
            say.accept("shard " + from.shard() + ": replayed its binlog from " + from.file() + ":" + from.position() + " to "
                    + to.file() + ":" + to.position() + (pending.isEmpty() ? "" : " (and " + pending.size()
                    + " XA transactions prepared before the backup)"));
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
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

    /**
     * Schema on every shard, then every chunk in parallel, then the deferred indexes and the triggers and
     * events on every shard (after the rows: a trigger must not fire on the restore's own inserts).
     */
    private long load(BackupStore store, BackupManifest manifest, NewHome home, RowRouter router, int defaultShard)
            throws Exception {
        int shards = home.shards();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, Math.min(8, shards * 2)));
        try (TableLoader loader = new TableLoader(store, home.links())) {
            List<Future<?>> steps = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                int shard = s;
                steps.add(pool.submit(() -> onShard(shard, "making the schema", () -> {
                    try (var c = home.links().open(shard)) {
                        SchemaRestore.apply(c, manifest);
                    }
                })));
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
                steps.add(pool.submit(() -> onShard(shard, "building the secondary indexes", () -> {
                    try (var c = home.links().open(shard)) {
                        SchemaRestore.addIndexes(c, manifest.tables());
                    }
                })));
            }
            await(steps);
            say.accept("secondary indexes built");
            if (!manifest.triggersAndEvents().isEmpty()) {
                makeTriggersAndEvents(home, manifest, defaultShard);
            }
            return loader.rowsLoaded.get();
        } finally {
            pool.shutdownNow();
        }
    }

    /** The backup's triggers and events on the shards they were on (see {@link TriggersAndEvents#placement}). */
    private void makeTriggersAndEvents(NewHome home, BackupManifest manifest, int defaultShard) throws Exception {
        List<String> warnings = new ArrayList<>();
        for (int s = 0; s < home.shards(); s++) {
            int shard = s;
            onShard(shard, "making the triggers and events", () -> {
                try (var c = home.links().open(shard)) {
                    warnings.addAll(TriggersAndEvents.make(c, shard, manifest.triggersAndEvents(), manifest.shardCount(),
                            home.shards(), defaultShard, samePair));
                }
            });
        }
        long triggers = manifest.triggersAndEvents().stream().filter(o -> o.kind() == TriggerOrEvent.Kind.TRIGGER).count();
        say.accept(triggers + " triggers and " + (manifest.triggersAndEvents().size() - triggers) + " events made");
        warnings.forEach(say);
    }

    private interface ShardStep {
        void run() throws Exception;
    }

    /** Runs {@code step}; its failure names the shard (a shard killed mid-restore is told apart from a bad backup). */
    private static Void onShard(int shard, String what, ShardStep step) throws Exception {
        try {
            step.run();
            return null;
        } catch (java.sql.SQLException e) {
            throw new java.sql.SQLException(what + " on shard " + shard + ": " + e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), e);
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
