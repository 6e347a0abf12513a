package io.cleave.manager.backup;

import io.cleave.manager.backup.physical.BackupTool;
import io.cleave.manager.backup.physical.StreamParts;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.Sql;
import io.cleave.router.shardmap.ShardMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One physical backup: each shard's files copied by the server's own mariadb-backup ({@code --backup
 * --stream=mbstream}), the shards in parallel, stored in compressed parts; then a cut taken once every
 * copy has ended, in whose snapshots every table's rows are counted and checksummed (nothing is read
 * out: the snapshots stay open for the checksums only, bounded by {@code backup.max_snapshot_s} as the
 * logical engine's, none while files are copied); then each
 * shard's binlog from the file in use when its copy began up to the cut's position. A restore
 * prepares each copy and replays that binlog from the copy's own position to the cut's, so a
 * physical backup holds the same cut a logical one would.
 */
final class PhysicalBackup {

    private static final Logger log = LoggerFactory.getLogger(PhysicalBackup.class);

    private final BackupSources sources;
    private final BackupStore store;
    private final BackupProgress progress;
    private final BackupTool tool;
    private final Duration maxSnapshot;
    private final BackupHooks hooks;
    private final Path scratchRoot;

    /** {@code scratchRoot}: where each copy is staged (in the home: a killed daemon's leftovers are found again). */
    PhysicalBackup(BackupSources sources, BackupStore store, BackupProgress progress, BackupTool tool,
                   Duration maxSnapshot, BackupHooks hooks, Path scratchRoot) {
        this.sources = sources;
        this.store = store;
        this.progress = progress;
        this.tool = tool;
        this.maxSnapshot = maxSnapshot;
        this.hooks = hooks;
        this.scratchRoot = scratchRoot;
    }

    /** What a shard's copy left: the binlog file in use before it began, and its stream's parts. */
    private record Copied(String firstBinlog, List<BackupManifest.Chunk> stream) {
    }

    BackupManifest run() throws Exception {
        progress.engine(BackupManifest.PHYSICAL);
        store.open();
        store.put(BackupKeys.started(progress.id), BackupJson.write(Map.of("id", progress.id, "started",
                progress.started.toString(), "engine", BackupManifest.PHYSICAL)));
        BackupCut.refuseDuringImport(sources.maps().current());
        int shards = sources.maps().current().shardCount();
        Map<Integer, Connection> connections = new LinkedHashMap<>();
        Map<Integer, Connection> monitors = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(shards, LogicalBackup.named("backup-copy"));
        Path scratch = Files.createTempDirectory(Files.createDirectories(scratchRoot), progress.id + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            BackupCut.connect(sources, shards, connections, monitors);
            SchemaReader.Home described = SchemaReader.home(monitors.get(0));

            progress.phase(BackupPhase.COPYING);
            List<Future<Copied>> copying = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                int shard = s;
                copying.add(pool.submit(() -> copy(shard, monitors.get(shard), scratch.resolve("shard-" + shard))));
            }
            List<Copied> copies = new ArrayList<>();
            for (Future<Copied> f : copying) {
                copies.add(LogicalBackup.resultOf(f));
            }

            // After every copy: each copy's own position is before it, so replaying the binlog reaches it.
            progress.phase(BackupPhase.CUTTING);
            BackupCut taken = BackupCut.take(sources, connections, monitors);
            progress.snapshotsOpened();
            if (taken.map().shardCount() != shards) {
                throw new IllegalStateException("the shard count changed from " + shards + " to "
                        + taken.map().shardCount() + " while the shards were copied (a scale): back up again");
            }
            List<BackupManifest.TableBackup> tables = checksums(pool, taken, monitors);
            BackupCut.endSnapshots(connections);
            progress.snapshotsClosed();
            Connection defaultShard = monitors.get(sources.configured().defaultShard());
            List<BackupManifest.SequenceBackup> sequences = Sequences.read(defaultShard, SchemaReader.databases(defaultShard));

            progress.phase(BackupPhase.FINISHING);
            List<BackupManifest.ShardPosition> positions = taken.positions();
            List<BackupManifest.PhysicalCopy> stored = new ArrayList<>();
            long bytes = 0;
            for (int s = 0; s < shards; s++) {
                List<BackupManifest.BinlogFile> binlogs = binlogs(s, monitors.get(s), copies.get(s).firstBinlog(),
                        positions.get(s));
                stored.add(new BackupManifest.PhysicalCopy(s, copies.get(s).stream(), binlogs));
                for (BackupManifest.Chunk c : copies.get(s).stream()) {
                    bytes += c.bytes();
                }
            }
            long rows = tables.stream().mapToLong(BackupManifest.TableBackup::rows).sum();
            ShardMap map = taken.map();
            BackupManifest manifest = new BackupManifest(BackupManifest.FORMAT, progress.id, BackupManifest.PHYSICAL,
                    progress.started.toString(), Instant.now().toString(), taken.millis(), positions, shards,
                    described.version(), new String(ShardMapStore.render(map, sources.configured())),
                    Files.readString(sources.configFile()), described.accounts(), described.databases(), tables, rows,
                    bytes, progress.storedBytes(), progress.snapshotMillis(), sequences,
                    stored, List.of()); // the copies hold the triggers and events
            store.put(BackupKeys.manifest(progress.id), BackupJson.write(manifest));
            progress.phase(BackupPhase.DONE);
            log.info("physical backup {} done: {} shards, {} bytes copied, {} stored in {}, snapshots open {} ms (checksums)",
                    progress.id, shards, bytes, progress.storedBytes(), store.describe(), progress.snapshotMillis());
            return manifest;
        } finally {
            pool.shutdownNow();
            for (Connection c : connections.values()) {
                closeQuietly(c);
            }
            for (Connection c : monitors.values()) {
                closeQuietly(c);
            }
            pool.awaitTermination(30, TimeUnit.SECONDS);
            deleteTree(scratch);
        }
    }

    /** Copies one shard with mariadb-backup, its stream stored in parts as it comes. */
    private Copied copy(int shard, Connection monitor, Path dir) throws Exception {
        String firstBinlog = binlogInUse(monitor);
        Files.createDirectories(dir);
        ShardEndpoint endpoint = sources.links().endpoint(shard);
        // The account's secret goes in a file only this process reads, not on a command line others see.
        Path options = dir.resolve("client.cnf");
        Files.writeString(options, "[mariadb-backup]\nuser=" + endpoint.user() + "\npassword=" + endpoint.secret()
                + "\nsocket=" + endpoint.socket() + "\n");
        Files.setPosixFilePermissions(options, PosixFilePermissions.fromString("rw-------"));
        Path target = Files.createDirectories(dir.resolve("target"));
        Path errors = dir.resolve("mariadb-backup.log");
        Process p = new ProcessBuilder(tool.backup().toString(), "--defaults-file=" + options, "--backup",
                "--stream=mbstream", "--target-dir=" + target, "--tmpdir=" + target)
                .directory(dir.toFile())
                .redirectError(errors.toFile())
                .start();
        List<BackupManifest.Chunk> parts;
        try (InputStream out = p.getInputStream()) {
            parts = StreamParts.store(new CountingStream(out, progress), Long.MAX_VALUE, store,
                    BackupKeys.copyStream(progress.id, shard), shard, progress::chunkStored);
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
        if (!p.waitFor(1, TimeUnit.HOURS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("mariadb-backup of shard " + shard + " failed: " + tail(errors));
        }
        return new Copied(firstBinlog, parts);
    }

    /** Every table's rows counted and checksummed in the cut's snapshots, on the shards its plan reads. */
    private List<BackupManifest.TableBackup> checksums(ExecutorService pool, BackupCut taken,
                                                       Map<Integer, Connection> monitors) throws Exception {
        Map<String, long[]> totals = new LinkedHashMap<>();
        for (TablePlan p : taken.plans()) {
            totals.put(p.name(), new long[2]);
        }
        if (taken.plans().stream().anyMatch(p -> !p.ghosts().isEmpty())) {
            // Installed by other sessions: creating a function would end the cut's snapshots.
            for (Connection monitor : monitors.values()) {
                try (Statement s = monitor.createStatement()) {
                    Sql.installBucketFunction(s);
                }
            }
        }
        List<Future<?>> reads = new ArrayList<>();
        for (var snapshot : taken.cut().shards()) {
            int shard = snapshot.shard();
            Connection c = snapshot.connection();
            reads.add(pool.submit(() -> {
                for (TablePlan p : taken.plans()) {
                    if (!LogicalBackup.contains(p.sourceShards(), shard)) {
                        continue;
                    }
                    hooks.inSnapshot(shard);
                    String sql = "SELECT " + Sql.checksum(p.columns().stream().map(BackupManifest.Column::name).toList())
                            + " FROM " + Sql.quote(p.schema()) + "." + Sql.quote(p.table()) + notGhosts(p, shard);
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        rs.next();
                        long[] sum = totals.get(p.name());
                        synchronized (sum) {
                            sum[0] += rs.getLong(1);
                            sum[1] ^= rs.getLong(2);
                        }
                    }
                }
                return null;
            }));
        }
        LogicalBackup.awaitReads(reads, monitors, progress, maxSnapshot, "raise the limit (the physical engine keeps"
                + " them open while it counts and checksums every table)");
        List<BackupManifest.TableBackup> tables = new ArrayList<>();
        for (TablePlan p : taken.plans()) {
            long[] sum = totals.get(p.name());
            tables.add(new BackupManifest.TableBackup(p.schema(), p.table(), p.rule(), p.keyspace(), p.column(), p.home(),
                    p.create(), p.columns(), p.primaryKey(), sum[0], sum[1], List.of()));
        }
        return tables;
    }

    /**
     * A WHERE clause leaving out the rows a move has copied to {@code shard} but the cut's map does not
     * route there yet, or left there after its flip (the map's ghosts): the copy holds them, clients do
     * not see them, and a restore removes them, as the logical engine leaves them out.
     */
    private String notGhosts(TablePlan p, int shard) {
        List<String> out = new ArrayList<>();
        for (var g : p.ghosts()) {
            if (g.shard() == shard) {
                int buckets = sources.configured().keyspace(p.keyspace()).function().bucketCount();
                out.add("(" + Sql.moving(p.column(), g.keys(), buckets) + ") IS NOT TRUE");
            }
        }
        return out.isEmpty() ? "" : " WHERE " + String.join(" AND ", out);
    }

    /**
     * {@code shard}'s binlog files from {@code first} to the cut's file, the cut's file up to the cut's
     * position, read from the shard's disk as the archiver reads them.
     */
    private List<BackupManifest.BinlogFile> binlogs(int shard, Connection monitor, String first,
                                                    BackupManifest.ShardPosition cut) throws SQLException, IOException {
        String basename = SchemaReader.rows(monitor, "SELECT @@log_bin_basename").get(0)[0];
        Path dir = Path.of(basename).getParent();
        List<BackupManifest.BinlogFile> out = new ArrayList<>();
        for (String[] row : SchemaReader.rows(monitor, "SHOW BINARY LOGS")) {
            String file = row[0];
            if (file.compareTo(first) < 0 || file.compareTo(cut.file()) > 0) {
                continue;
            }
            long size = file.equals(cut.file()) ? cut.position() : Long.parseLong(row[1]);
            try (InputStream in = Files.newInputStream(dir.resolve(file))) {
                out.add(new BackupManifest.BinlogFile(file, StreamParts.store(in, size, store,
                        BackupKeys.copyBinlog(progress.id, shard, file), shard, progress::chunkStored)));
            }
        }
        if (out.isEmpty() || !out.get(out.size() - 1).name().equals(cut.file())) {
            throw new IllegalStateException("shard " + shard + "'s binlog from " + first + " to the cut's " + cut.file()
                    + " is no longer on its disk (purged meanwhile?): try again");
        }
        return out;
    }

    private static String binlogInUse(Connection c) throws SQLException {
        List<String[]> rows = SchemaReader.rows(c, "SHOW MASTER STATUS");
        if (rows.isEmpty()) {
            throw new IllegalStateException("a shard writes no binlog: the physical engine rolls its copies forward"
                    + " with it");
        }
        return rows.get(0)[0];
    }

    /** mariadb-backup's errors first (its log is mostly progress), then the log's last lines. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            List<String> errors = lines.stream().filter(l -> l.contains("ERROR") || l.contains("Error:"))
                    // "[00] " is its thread, then a time: the same error repeated once a second is said once
                    .map(l -> l.replaceFirst("^\\[\\d+\\]\\s*", "").replaceFirst("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s*", "")
                            .strip())
                    .distinct().toList();
            String last = String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
            return errors.isEmpty() ? last : String.join("; ", errors) + "\n(the end of its log:\n" + last + ")";
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing to do
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Counts the bytes a copy streams, for the progress. */
    private static final class CountingStream extends java.io.FilterInputStream {
        private final BackupProgress progress;

        CountingStream(InputStream in, BackupProgress progress) {
            super(in);
            this.progress = progress;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                progress.copied(n);
            }
            return n;
        }
    }
}
