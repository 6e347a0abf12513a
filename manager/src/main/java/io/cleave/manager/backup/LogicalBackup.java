package io.cleave.manager.backup;

import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.backup.triggers.TriggerOrEvent;
import io.cleave.manager.backup.triggers.TriggersAndEvents;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.proxy.cut.Cut;
import io.cleave.router.shardmap.ShardMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One logical backup: every shard's rows read at one cut, table by table in primary-key chunks (the
 * shards in parallel, each in its own snapshot), compressed and stored by a pool of writers while
 * the readers go on, then the manifest. Works with every server Cleave runs.
 *
 * <p>The snapshots hold back InnoDB's purge on every shard for as long as they are open (the
 * history list grows with every change clients make meanwhile): progress shows the longest history
 * list, and a backup whose snapshots stay open past {@code maxSnapshot} is stopped with a message.
 */
public final class LogicalBackup {

    private static final Logger log = LoggerFactory.getLogger(LogicalBackup.class);

    private final BackupSources sources;
    private final BackupStore store;
    private final BackupProgress progress;
    private final ChunkLimits limits;
    private final Duration maxSnapshot;
    private final BackupHooks hooks;

    LogicalBackup(BackupSources sources, BackupStore store, BackupProgress progress, ChunkLimits limits,
                  Duration maxSnapshot, BackupHooks hooks) {
        this.sources = sources;
        this.store = store;
        this.progress = progress;
        this.limits = limits;
        this.maxSnapshot = maxSnapshot;
        this.hooks = hooks;
    }

    /**
     * A backup of a home no client writes to (a restore's scratch home on its way into another shard
     * count): snapshots without a window, chunks of the default size, no limit on how long they stay open.
     */
    public static BackupManifest ofQuietHome(BackupSources sources, BackupStore store, String id) throws Exception {
        return new LogicalBackup(sources, store, new BackupProgress(id, store.describe()), ChunkLimits.DEFAULT,
                Duration.ofDays(7), BackupHooks.NONE).run();
    }

    BackupManifest run() throws Exception {
        store.open();
        store.put(BackupKeys.started(progress.id), BackupJson.write(Map.of("id", progress.id, "started",
                progress.started.toString(), "engine", BackupManifest.LOGICAL)));
        ShardMap map = sources.maps().current();
        BackupCut.refuseDuringImport(map);
        int shards = map.shardCount();
        Map<Integer, Connection> connections = new LinkedHashMap<>();
        Map<Integer, Connection> monitors = new LinkedHashMap<>();
        ExecutorService readers = Executors.newFixedThreadPool(shards, named("backup-read"));
        int writerCount = Math.max(2, Runtime.getRuntime().availableProcessors());
        ExecutorService writers = Executors.newFixedThreadPool(writerCount, named("backup-write"));
        try {
            BackupCut.connect(sources, shards, connections, monitors);
            SchemaReader.Home described = SchemaReader.home(monitors.get(0));

            progress.phase(BackupPhase.CUTTING);
            BackupCut taken = BackupCut.take(sources, connections, monitors);
            Cut<Connection> cut = taken.cut();
            List<TablePlan> plans = taken.plans();
            map = taken.map();
            long cutMillis = taken.millis();
            // Read after the cut, outside its snapshots (a sequence is not versioned): never behind the cut.
            Connection defaultShard = monitors.get(sources.configured().defaultShard());
            List<BackupManifest.SequenceBackup> sequences = Sequences.read(defaultShard, SchemaReader.databases(defaultShard));
            // Each shard's own: a trigger is on every shard, an event on the default shard (as the proxy makes them).
            List<TriggerOrEvent> triggersAndEvents = TriggersAndEvents.read(monitors);
            progress.snapshotsOpened();
            progress.tables(plans.size(), estimate(monitors, plans));
            progress.phase(BackupPhase.COPYING);

            Map<String, long[]> totals = new LinkedHashMap<>();
            Map<String, List<BackupManifest.Chunk>> chunks = new LinkedHashMap<>();
            for (TablePlan p : plans) {
                totals.put(p.name(), new long[2]);
                chunks.put(p.name(), new ArrayList<>());
            }
            Semaphore inFlight = new Semaphore(writerCount * 2);
            List<Future<?>> stored = java.util.Collections.synchronizedList(new ArrayList<>());
            TableReader.ChunkSink sink = (t, shard, sequence, chunk) -> {
                inFlight.acquire();
                stored.add(writers.submit(() -> {
                    try {
                        byte[] bytes = chunk.finish();
                        String key = BackupKeys.chunk(progress.id, t.schema(), t.table(), shard, sequence);
                        store.put(key, bytes);
                        progress.chunkStored(bytes.length);
                        List<BackupManifest.Chunk> list = chunks.get(t.name());
                        synchronized (list) {
                            list.add(new BackupManifest.Chunk(key, shard, chunk.rows(), chunk.size(), bytes.length,
                                    ChunkCodec.sha256(bytes)));
                        }
                        return null;
                    } finally {
                        inFlight.release();
                    }
                }));
            };
            TableReader reader = new TableReader(limits, progress);
            Map<String, AtomicInteger> shardsLeft = new LinkedHashMap<>();
            for (TablePlan p : plans) {
                shardsLeft.put(p.name(), new AtomicInteger(p.sourceShards().length));
            }
            List<Future<?>> reads = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                int shard = s;
                List<TablePlan> mine = plans.stream().filter(p -> contains(p.sourceShards(), shard)).toList();
                Connection c = cut.on(shard).connection();
                reads.add(readers.submit(() -> {
                    for (TablePlan p : mine) {
                        hooks.inSnapshot(shard);
                        TableReader.Totals t;
                        try {
                            t = reader.read(c, p, shard, sink);
                        } catch (java.sql.SQLException e) {
                            // Say where: the driver's text ("Communications link failure") names no shard.
                            throw new java.sql.SQLException("reading " + p.name() + " on shard " + shard + ": "
                                    + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                        }
                        long[] sum = totals.get(p.name());
                        synchronized (sum) {
                            sum[0] += t.rows();
                            sum[1] ^= t.checksum();
                        }
                        if (shardsLeft.get(p.name()).decrementAndGet() == 0) {
                            progress.tableDone();
                        }
                    }
                    return null;
                }));
            }
            awaitReads(reads, monitors, progress, maxSnapshot, "raise the limit, or use the physical engine"
                    + " (mariadb-backup), which keeps them open only to checksum the tables");
            BackupCut.endSnapshots(connections);
            progress.snapshotsClosed();
            for (Future<?> f : new ArrayList<>(stored)) {
                f.get();
            }

            progress.phase(BackupPhase.FINISHING);
            List<BackupManifest.TableBackup> tables = new ArrayList<>();
            long rows = 0;
            long bytes = 0;
            for (TablePlan p : plans) {
                long[] sum = totals.get(p.name());
                List<BackupManifest.Chunk> list = new ArrayList<>(chunks.get(p.name()));
                list.sort(java.util.Comparator.comparing(BackupManifest.Chunk::key));
                for (BackupManifest.Chunk ch : list) {
                    bytes += ch.bytes();
                }
                rows += sum[0];
                tables.add(new BackupManifest.TableBackup(p.schema(), p.table(), p.rule(), p.keyspace(), p.column(),
                        p.home(), p.create(), p.columns(), p.primaryKey(), sum[0], sum[1], list));
            }
            List<BackupManifest.ShardPosition> positions = taken.positions();
            BackupManifest manifest = new BackupManifest(BackupManifest.FORMAT, progress.id, BackupManifest.LOGICAL,
                    progress.started.toString(), Instant.now().toString(), cutMillis, positions, shards,
                    described.version(), new String(ShardMapStore.render(map, sources.configured())),
                    Files.readString(sources.configFile()), described.accounts(), described.databases(), tables, rows,
                    bytes, progress.storedBytes(), progress.snapshotMillis(), sequences,
                    List.of(), triggersAndEvents);
            store.put(BackupKeys.manifest(progress.id), BackupJson.write(manifest));
            progress.phase(BackupPhase.DONE);
            log.info("backup {} done: {} rows of {} tables, {} bytes stored in {}, snapshots open {} ms", progress.id,
                    rows, tables.size(), progress.storedBytes(), store.describe(), progress.snapshotMillis());
            return manifest;
        } finally {
            readers.shutdownNow();
            writers.shutdownNow();
            for (Connection c : connections.values()) {
                closeQuietly(c); // ends a read still waiting on its shard
            }
            for (Connection c : monitors.values()) {
                closeQuietly(c);
            }
            // A failed backup's files are removed once this returns: no reader or writer may store one after.
            readers.awaitTermination(30, TimeUnit.SECONDS);
            writers.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Waits for the readers, watching the shards' history lists and how long the snapshots stay open:
     * past {@code maxSnapshot} the reads are stopped and the backup fails, saying so ({@code advice}: what
     * else to do).
     */
    static void awaitReads(List<Future<?>> reads, Map<Integer, Connection> monitors, BackupProgress progress,
                           Duration maxSnapshot, String advice) throws Exception {
        for (Future<?> f : reads) {
            while (true) {
                try {
                    f.get(1, TimeUnit.SECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException e) {
                    progress.historyLength(historyLength(monitors));
                    if (progress.snapshotMillis() > maxSnapshot.toMillis()) {
                        for (Future<?> r : reads) {
                            r.cancel(true);
                        }
                        throw new IllegalStateException("the snapshots were open " + progress.snapshotMillis() + " ms, past backup.max_snapshot_s (" + maxSnapshot.toSeconds() + " s): they hold back"
                                + " InnoDB's purge on every shard (history list " + progress.status().historyLength()
                                + "); " + advice);
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : e;
                }
            }
        }
        progress.historyLength(historyLength(monitors));
    }

    /** The longest InnoDB history list over the shards: how much undo the open snapshots keep from purge. */
    static long historyLength(Map<Integer, Connection> monitors) {
        long longest = 0;
        for (Connection c : monitors.values()) {
            try {
                List<String[]> rows = SchemaReader.rows(c, "SELECT `COUNT` FROM information_schema.INNODB_METRICS"
                        + " WHERE NAME = 'trx_rseg_history_len'");
                if (!rows.isEmpty() && rows.get(0)[0] != null) {
                    longest = Math.max(longest, Long.parseLong(rows.get(0)[0]));
                }
            } catch (SQLException | NumberFormatException e) {
                // Not readable on this server: progress shows what the others say.
            }
        }
        return longest;
    }

    private static long estimate(Map<Integer, Connection> monitors, List<TablePlan> plans) {
        long total = 0;
        for (TablePlan p : plans) {
            for (int s : p.sourceShards()) {
                try {
                    List<String[]> rows = SchemaReader.rows(monitors.get(s), "SELECT TABLE_ROWS FROM information_schema.TABLES"
                            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", p.schema(), p.table());
                    if (!rows.isEmpty() && rows.get(0)[0] != null) {
                        total += Long.parseLong(rows.get(0)[0]);
                    }
                } catch (SQLException | NumberFormatException e) {
                    // an estimate only
                }
            }
        }
        return total;
    }

    /** The result of {@code f}, with what its task threw (not the wrapper). */
    public static <T> T resultOf(Future<T> f) throws Exception {
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    static boolean contains(int[] shards, int shard) {
        for (int s : shards) {
            if (s == shard) {
                return true;
            }
        }
        return false;
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing to do
        }
    }

    static java.util.concurrent.ThreadFactory named(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
