package io.cleave.manager.backup;

import io.cleave.manager.move.Catalog;
import io.cleave.proxy.cut.BinlogPosition;
import io.cleave.proxy.cut.Cut;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.cut.JdbcCut;
import io.cleave.proxy.cut.ShardSnapshot;
import io.cleave.proxy.cut.SnapshotStatements;
import io.cleave.router.shardmap.ShardMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cut a backup is taken at, whatever its engine: a snapshot on every shard opened at one cut
 * (no cross-shard transaction torn), under one shard map version (taken again when a move cut over
 * meanwhile), with every table planned as that map places its rows.
 */
record BackupCut(Cut<Connection> cut, ShardMap map, List<TablePlan> plans, long millis) {

    private static final Duration CUT_WAIT = Duration.ofSeconds(30);
    private static final int CUT_ATTEMPTS = 5;

    /** Opens the snapshots on {@code connections}; {@code monitors} (other connections) read the tables. */
    static BackupCut take(BackupSources sources, Map<Integer, Connection> connections, Map<Integer, Connection> monitors)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            ShardMap map = sources.maps().current();
            List<TablePlan> plans = plans(sources, monitors, map);
            Cut<Connection> taken = open(sources, connections);
            if (sources.maps().current().version() == map.version()) {
                return new BackupCut(taken, map, plans, System.currentTimeMillis());
            }
            endSnapshots(connections);
            if (attempt >= CUT_ATTEMPTS) {
                throw new IllegalStateException("the shard map changed during each of " + CUT_ATTEMPTS
                        + " cuts (moves cut over): try again");
            }
        }
    }

    /** A backup waits for an import: the attached server's rows are on no shard yet. */
    static void refuseDuringImport(ShardMap map) {
        if (!map.attached().isEmpty()) {
            throw new IllegalStateException("an import is under way (" + map.attached().get(0).label() + " is attached):"
                    + " back up once it is done");
        }
    }

    /** Opens a reading connection ({@link #reading}) and a plain one (a monitor) to each of {@code shards}. */
    static void connect(BackupSources sources, int shards, Map<Integer, Connection> connections,
                        Map<Integer, Connection> monitors) throws SQLException {
        for (int s = 0; s < shards; s++) {
            connections.put(s, reading(sources, s));
            monitors.put(s, sources.links().open(s));
        }
    }

    /** A connection to {@code shard} that reads values as text in UTC and utf8mb4, as a restore writes them back. */
    static Connection reading(BackupSources sources, int shard) throws SQLException {
        Connection c = sources.links().open(shard);
        try (Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+00:00'");
            s.execute("SET NAMES utf8mb4");
        }
        return c;
    }

    /** Each shard's binlog position at the cut. */
    List<BackupManifest.ShardPosition> positions() {
        List<BackupManifest.ShardPosition> positions = new ArrayList<>();
        for (ShardSnapshot<Connection> s : cut.shards()) {
            BinlogPosition b = s.position();
            positions.add(new BackupManifest.ShardPosition(s.shard(), b == null ? null : b.file(),
                    b == null ? -1 : b.position(), b == null ? null : b.gtid()));
        }
        return positions;
    }

    /** Every table of every database with its plan, as the map places its rows; Cleave's own tables as each shard's own. */
    private static List<TablePlan> plans(BackupSources sources, Map<Integer, Connection> monitors, ShardMap map)
            throws SQLException {
        Map<String, TablePlan> plans = new LinkedHashMap<>();
        for (Map.Entry<Integer, Connection> e : monitors.entrySet()) {
            Connection c = e.getValue();
            for (String db : SchemaReader.databases(c)) {
                for (String table : SchemaReader.tables(c, db)) {
                    String name = db + "." + table;
                    if (!plans.containsKey(name)) {
                        plans.put(name, TablePlan.of(db, table, Catalog.showCreateTable(c, db, table),
                                SchemaReader.columns(c, db, table), Catalog.primaryKey(c, db, table), map,
                                sources.configured(), 0));
                    }
                }
            }
        }
        // Cleave's own tables (decisions, sequences) hold each shard's own rows, restored to the same shard.
        Connection first = monitors.get(0);
        for (String table : SchemaReader.tables(first, "cleave")) {
            plans.put("cleave." + table, TablePlan.local("cleave", table, Catalog.showCreateTable(first, "cleave", table),
                    SchemaReader.columns(first, "cleave", table), Catalog.primaryKey(first, "cleave", table),
                    map.shardCount()));
        }
        return new ArrayList<>(plans.values());
    }

    private static Cut<Connection> open(BackupSources sources, Map<Integer, Connection> connections) throws SQLException {
        CutWindows windows = sources.cuts().get();
        if (windows != null) {
            return JdbcCut.take(windows, connections, true, CUT_WAIT);
        }
        // No proxy runs: no client commits, so the snapshots need no window.
        List<ShardSnapshot<Connection>> shards = new ArrayList<>();
        for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
            try (Statement s = e.getValue().createStatement()) {
                for (String sql : SnapshotStatements.READ) {
                    s.execute(sql);
                }
                BinlogPosition p = null;
                try (java.sql.ResultSet rs = s.executeQuery(SnapshotStatements.POSITION)) {
                    if (rs.next()) {
                        p = SnapshotStatements.position(rs.getString(1), rs.getString(2), rs.getString(3));
                    }
                }
                shards.add(new ShardSnapshot<>(e.getKey(), e.getValue(), p));
            }
        }
        return new Cut<>(shards);
    }

    static void endSnapshots(Map<Integer, Connection> connections) {
        for (Connection c : connections.values()) {
            try (Statement s = c.createStatement()) {
                s.execute("ROLLBACK");
            } catch (SQLException e) {
                // closed with the connection
            }
        }
    }
}
