package io.cleave.manager.backup.archive;

import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupJson;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.move.ShardLinks;
import io.cleave.proxy.cut.BinlogPosition;
import io.cleave.proxy.cut.Cut;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.cut.JdbcCut;
import io.cleave.proxy.cut.ShardSnapshot;
import io.cleave.proxy.cut.SnapshotStatements;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import io.cleave.manager.home.ShardMapStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Archives every shard's binlog to the backup location as it is written, and records a cut every
 * interval, so that every recorded cut is a point a restore can reach (a base backup, then each
 * shard's archived binlog replayed up to the cut's position).
 *
 * <p>Each round: a cut is taken (as a backup takes one: no cross-shard transaction torn), its
 * snapshots ended at once (only the positions are kept); then each shard's binlog files are read
 * from the shard's disk and what is new in them is stored as segments, up to where the server has
 * written whole events (SHOW MASTER STATUS); only when every shard's archive holds its binlog up to
 * the cut's position is the cut recorded. Archiving starts with the binlog file in use when it
 * first runs, from its first byte.
 *
 * <p>Retention: while archiving, the shards' own expiry is off ({@code binlog_expire_logs_seconds =
 * 0}, set again each round, so a restarted shard gets it too) and the archiver purges a file only
 * once it is archived whole and older than the week the planner keeps: a file not yet archived is
 * never purged by Cleave. (A shard restarted with its my.cnf expires old files at its start before
 * the archiver's next round; the planner's week is far longer than a round.)
 */
public final class BinlogArchiver implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BinlogArchiver.class);
    private static final long RETENTION_MILLIS = Duration.ofDays(7).toMillis();
    private static final int MAX_SEGMENT = 64 << 20;

    private final BackupStore store;
    private final ShardLinks links;
    private final Supplier<ShardMap> maps;
    private final Topology configured;
    private final Supplier<CutWindows> cuts;
    private final Duration interval;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "binlog-archiver");
        t.setDaemon(true);
        return t;
    });
    /** Per shard, per binlog file, how many of its bytes are archived. */
    private final Map<Integer, Map<String, Long>> archived = new HashMap<>();
    private final AtomicLong lastCutId = new AtomicLong(-1);
    private final AtomicLong lastCutMillis = new AtomicLong();
    private final Counter recorded;
    private final Counter failedRounds;
    private final AtomicLong archivedBytes = new AtomicLong();
    private volatile String lastProblem;

    /** The map versions stored in the location (read once, then kept up as this archiver stores them). */
    private java.util.Set<Long> storedMaps;

    public BinlogArchiver(BackupStore store, ShardLinks links, Supplier<ShardMap> maps, Topology configured,
                          Supplier<CutWindows> cuts, Duration interval, MeterRegistry registry) {
        this.store = store;
        this.links = links;
        this.maps = maps;
        this.configured = configured;
        this.cuts = cuts;
        this.interval = interval;
        this.recorded = Counter.builder("cleave_backup_cuts_recorded").description("Cuts recorded as restore points")
                .register(registry);
        this.failedRounds = Counter.builder("cleave_backup_archive_failures")
                .description("Archive rounds that recorded no cut (a shard or the location failed)").register(registry);
        Gauge.builder("cleave_backup_archive_last_cut_timestamp_seconds", lastCutMillis, m -> m.get() / 1000.0)
                .description("When the last restore point was recorded").register(registry);
        Gauge.builder("cleave_backup_archived_bytes", archivedBytes, AtomicLong::get)
                .description("Binlog bytes archived since the daemon started").register(registry);
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::round, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        log.info("archiving every shard's binlog to {} with a restore point every {} s", store.describe(),
                interval.toSeconds());
    }

    /** Why the last round recorded no cut, or null. */
    public String lastProblem() {
        return lastProblem;
    }

    public long lastCutId() {
        return lastCutId.get();
    }

    /** One round; also called by tests and before a backup that wants the archive current. */
    public synchronized CutRecord round() {
        try {
            if (lastCutId.get() < 0) {
                store.open();
                List<CutRecord> cutsSoFar = new BackupCatalog(store).cuts();
                storedMaps = new java.util.HashSet<>(new BackupCatalog(store).mapVersions());
                lastCutId.set(cutsSoFar.isEmpty() ? 0 : cutsSoFar.get(cutsSoFar.size() - 1).id());
            }
            ShardMap map = maps.get();
            int shards = map.shardCount();
            Map<Integer, Connection> connections = new LinkedHashMap<>();
            try {
                for (int s = 0; s < shards; s++) {
                    connections.put(s, links.open(s));
                }
                List<BackupManifest.ShardPosition> positions = positions(connections);
                if (maps.get().version() != map.version()) {
                    // A move or scale cut over meanwhile: which map the positions belong to is unknown.
                    throw new IOException("the shard map changed while the cut was taken; the next round records one");
                }
                for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
                    archive(e.getKey(), e.getValue());
                }
                for (BackupManifest.ShardPosition p : positions) {
                    Long have = archived.getOrDefault(p.shard(), Map.of()).get(p.file());
                    if (have == null || have < p.position()) {
                        throw new IOException("shard " + p.shard() + "'s archive ends before the cut's position " + p.file()
                                + ":" + p.position());
                    }
                }
                if (!storedMaps.contains(map.version())) {
                    // Before the cut that names it: a restore to a cut after a move routes by the map of that cut.
                    store.put(BackupCatalog.mapKey(map.version()), ShardMapStore.render(map, configured));
                    storedMaps.add(map.version());
                }
                CutRecord cut = new CutRecord(lastCutId.get() + 1, System.currentTimeMillis(), map.version(), positions);
                store.put(BackupCatalog.cutKey(cut.id()), BackupJson.write(cut));
                lastCutId.set(cut.id());
                lastCutMillis.set(cut.millis());
                recorded.increment();
                lastProblem = null;
                return cut;
            } finally {
                for (Connection c : connections.values()) {
                    c.close();
                }
            }
        } catch (Exception e) {
            failedRounds.increment();
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            if (!why.equals(lastProblem)) {
                log.warn("binlog archive to {}: no restore point this round: {}", store.describe(), why);
            }
            lastProblem = why;
            return null;
        }
    }

    /** A cut's positions: snapshots opened in one window (as a backup's), ended at once. */
    private List<BackupManifest.ShardPosition> positions(Map<Integer, Connection> connections) throws SQLException {
        CutWindows windows = cuts.get();
        List<BackupManifest.ShardPosition> out = new ArrayList<>();
        if (windows != null) {
            Cut<Connection> cut = JdbcCut.take(windows, connections, true, Duration.ofSeconds(10));
            for (ShardSnapshot<Connection> s : cut.shards()) {
                out.add(position(s.shard(), s.position()));
            }
        } else {
            for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
                try (Statement s = e.getValue().createStatement()) {
                    for (String sql : SnapshotStatements.READ) {
                        s.execute(sql);
                    }
                    try (ResultSet rs = s.executeQuery(SnapshotStatements.POSITION)) {
                        rs.next();
                        out.add(position(e.getKey(), SnapshotStatements.position(rs.getString(1), rs.getString(2),
                                rs.getString(3))));
                    }
                }
            }
        }
        for (Connection c : connections.values()) {
            try (Statement s = c.createStatement()) {
                s.execute("ROLLBACK");
            }
        }
        return out;
    }

    private static BackupManifest.ShardPosition position(int shard, BinlogPosition p) throws SQLException {
        if (p == null) {
            throw new SQLException("shard " + shard + " reports no binlog position for its snapshot: point-in-time"
                    + " recovery needs MariaDB's binlog_snapshot_file");
        }
        return new BackupManifest.ShardPosition(shard, p.file(), p.position(), p.gtid());
    }

    /** Stores what is new in the shard's binlog files, and purges files archived whole and past retention. */
    private void archive(int shard, Connection c) throws SQLException, IOException {
        Map<String, Long> done = archived.get(shard);
        if (done == null) {
            done = new HashMap<>();
            for (ArchiveKeys.Segment s : ArchiveKeys.segments(store.list(ArchiveKeys.shard(shard)))) {
                done.merge(s.file(), s.end(), Math::max);
            }
            archived.put(shard, done);
        }
        String basename;
        String current;
        long end;
        List<String[]> files = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@log_bin_basename, @@binlog_expire_logs_seconds")) {
                rs.next();
                basename = rs.getString(1);
                if (rs.getLong(2) != 0) {
                    s.execute("SET GLOBAL binlog_expire_logs_seconds = 0");
                }
            }
            try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    throw new SQLException("shard " + shard + " writes no binlog");
                }
                current = rs.getString(1);
                end = rs.getLong(2);
            }
            try (ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
                while (rs.next()) {
                    files.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        }
        Path dir = Path.of(basename).getParent();
        String first = done.isEmpty() ? current : done.keySet().stream().sorted().findFirst().orElse(current);
        String purgeTo = null;
        for (String[] f : files) {
            String file = f[0];
            Path path = dir.resolve(file);
            boolean expired = Files.exists(path)
                    && System.currentTimeMillis() - Files.getLastModifiedTime(path).toMillis() > RETENTION_MILLIS;
            boolean eligible;
            if (file.compareTo(first) < 0) {
                eligible = expired; // written before archiving began: the planner's week applies as before
            } else {
                long size = file.equals(current) ? end : Long.parseLong(f[1]);
                long from = done.getOrDefault(file, 0L);
                while (from < size) {
                    int length = (int) Math.min(MAX_SEGMENT, size - from);
                    byte[] bytes = new byte[length];
                    try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "r")) {
                        raf.seek(from);
                        raf.readFully(bytes);
                    }
                    store.put(ArchiveKeys.segment(shard, file, from, length), bytes);
                    archivedBytes.addAndGet(length);
                    from += length;
                    done.put(file, from);
                }
                eligible = expired && !file.equals(current) && from >= Long.parseLong(f[1]);
            }
            if (purgeTo == null && !eligible) {
                purgeTo = file; // the first file kept: every one before it may go
            }
        }
        if (purgeTo != null && !purgeTo.equals(files.get(0)[0])) {
            try (Statement s = c.createStatement()) {
                s.execute("PURGE BINARY LOGS TO '" + purgeTo.replace("'", "''") + "'");
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
