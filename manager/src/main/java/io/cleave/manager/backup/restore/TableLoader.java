package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.ChunkCodec;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.Sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loads chunk files into a new home's shards, each chunk checked against its SHA-256 first, its
 * rows sent where the restored rules put them ({@link RowRouter}) in multi-row INSERTs. Loading
 * threads call {@link #load} for different chunks at once; each thread keeps its own connection to
 * every shard, set up for loading: no binlog (the rows are the home's starting point), no unique or
 * foreign key checks (the rows were consistent where they came from), UTC and utf8mb4 as the backup
 * read them.
 */
final class TableLoader implements AutoCloseable {

    private static final int BATCH = 1000;

    private final BackupStore store;
    private final ShardLinks links;
    private final ThreadLocal<Map<Integer, Connection>> connections = ThreadLocal.withInitial(HashMap::new);
    private final ConcurrentLinkedQueue<Connection> opened = new ConcurrentLinkedQueue<>();
    final AtomicLong rowsLoaded = new AtomicLong();
    final AtomicLong chunksLoaded = new AtomicLong();

    TableLoader(BackupStore store, ShardLinks links) {
        this.store = store;
        this.links = links;
    }

    void load(BackupManifest.TableBackup table, BackupManifest.Chunk chunk, RowRouter router) throws IOException, SQLException {
        byte[] bytes = store.get(chunk.key());
        String sha = ChunkCodec.sha256(bytes);
        if (!sha.equals(chunk.sha256())) {
            throw new IOException("chunk " + chunk.key() + " of " + table.name() + " is damaged: its SHA-256 is " + sha
                    + ", the manifest says " + chunk.sha256());
        }
        List<byte[][]> rows = ChunkCodec.read(bytes, table.columns().size());
        if (rows.size() != chunk.rows()) {
            throw new IOException("chunk " + chunk.key() + " holds " + rows.size() + " rows, the manifest says " + chunk.rows());
        }
        Map<Integer, List<byte[][]>> byShard = new HashMap<>();
        for (byte[][] row : rows) {
            for (int shard : router.targets(table, chunk.shard(), row)) {
                byShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(row);
            }
        }
        String insert = insert(table);
        for (Map.Entry<Integer, List<byte[][]>> e : byShard.entrySet()) {
            try {
                insert(connection(e.getKey()), insert, table, e.getValue());
            } catch (SQLException ex) { // the shard's name with what failed: opening its connection too (a shard killed)
                throw new SQLException("loading " + table.name() + " into shard " + e.getKey() + ": " + ex.getMessage(),
                        ex.getSQLState(), ex.getErrorCode(), ex);
            }
        }
        rowsLoaded.addAndGet(rows.size());
        chunksLoaded.incrementAndGet();
    }

    private static void insert(Connection c, String insert, BackupManifest.TableBackup table, List<byte[][]> rows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(insert)) {
            for (int from = 0; from < rows.size(); from += BATCH) {
                insertBatch(c, ps, table, rows.subList(from, Math.min(from + BATCH, rows.size())));
            }
        }
    }

    /**
     * One batch in a transaction of its own. Loaders of several chunks of one table write into it at
     * once, and InnoDB can pick one of them as a deadlock victim (its gap and insert-intention locks):
     * the batch was rolled back whole, so it is written again, a few times at most.
     */
    private static void insertBatch(Connection c, PreparedStatement ps, BackupManifest.TableBackup table,
                                    List<byte[][]> rows) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                for (byte[][] row : rows) {
                    bind(ps, table.columns(), row);
                    ps.addBatch();
                }
                ps.executeBatch();
                c.commit();
                return;
            } catch (SQLException ex) {
                ps.clearBatch();
                c.rollback();
                boolean victim = ex.getErrorCode() == DEADLOCK || ex.getErrorCode() == LOCK_WAIT_TIMEOUT;
                if (!victim || attempt == RETRIES) {
                    throw ex;
                }
                try {
                    Thread.sleep(20L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }

    private static final int DEADLOCK = 1213;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int RETRIES = 5;

    private static String insert(BackupManifest.TableBackup table) {
        StringBuilder cols = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (BackupManifest.Column c : table.columns()) {
            cols.append(cols.isEmpty() ? "" : ", ").append(Sql.quote(c.name()));
            marks.append(marks.isEmpty() ? "?" : ", ?");
        }
        return "INSERT INTO " + Sql.quote(table.schema()) + "." + Sql.quote(table.table()) + " (" + cols + ") VALUES ("
                + marks + ")";
    }

    /** Binary columns as bytes, the rest as utf8mb4 text the server converts to the column's type and character set. */
    private static void bind(PreparedStatement ps, List<BackupManifest.Column> columns, byte[][] row) throws SQLException {
        for (int i = 0; i < row.length; i++) {
            byte[] v = row[i];
            if (v == null) {
                ps.setNull(i + 1, Types.NULL);
            } else if (columns.get(i).binary()) {
                ps.setBytes(i + 1, v);
            } else {
                ps.setString(i + 1, new String(v, StandardCharsets.UTF_8));
            }
        }
    }

    private Connection connection(int shard) throws SQLException {
        Map<Integer, Connection> mine = connections.get();
        Connection c = mine.get(shard);
        if (c == null) {
            c = links.open(shard);
            opened.add(c);
            try (Statement s = c.createStatement()) {
                forLoading(s);
            }
            // Each batch commits on its own (see insertBatch), so a deadlock victim loses one batch only.
            c.setAutoCommit(false);
            mine.put(shard, c);
        }
        return c;
    }

    /** The session a restore writes in: as the backup read (UTC, utf8mb4), unchecked, unlogged. */
    static void forLoading(Statement s) throws SQLException {
        s.execute("SET time_zone = '+00:00'");
        s.execute("SET NAMES utf8mb4");
        s.execute("SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'");
        s.execute("SET unique_checks = 0, foreign_key_checks = 0");
        s.execute("SET sql_log_bin = 0");
    }

    @Override
    public void close() {
        for (Connection c : opened) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing to do
            }
        }
    }
}
