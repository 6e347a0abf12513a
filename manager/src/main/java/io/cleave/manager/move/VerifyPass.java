package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies the target against the source at a matched position while both keep changing. The
 * source is read in a consistent snapshot whose binlog position is known; once catch-up has
 * applied everything up to that position, every row whose key did not change since is the same
 * on both sides, so each chunk's COUNT and BIT_XOR(CRC32) is compared leaving out the keys that
 * changed since (catch-up records them). Those keys are checked again the same way, by key, until
 * only a few hot ones are left: they are checked while the cutover holds writes to them.
 */
final class VerifyPass {

    /** Keys still to check when they stop changing, at the cutover. */
    static final int SETTLED_ENOUGH = 200;
    private static final int MAX_ROUNDS = 6;
    private static final int KEYS_PER_STATEMENT = 500;

    interface CatchUp {
        /** Applies what the binlog named so far. */
        void apply() throws Exception;
    }

    record Counts(long chunks, long repaired) {
    }

    private final ShardLinks shards;
    private final BinlogTail tail;
    private final CatchUp catchUp;
    private final ChunkVerifier chunks;
    private final KeyApplier applier = new KeyApplier();
    private long verified;
    private long repaired;

    VerifyPass(ShardLinks shards, BinlogTail tail, CatchUp catchUp, int chunkRows) {
        this.shards = shards;
        this.tail = tail;
        this.catchUp = catchUp;
        this.chunks = new ChunkVerifier(chunkRows);
    }

    Counts counts() {
        return new Counts(verified, repaired);
    }

    /**
     * Checks every chunk of every table, then the keys that changed meanwhile; returns the keys
     * that kept changing (to check under the cutover's hold).
     */
    Map<TableShape, Set<List<Object>>> run(int source, Connection live, Connection target, List<TableShape> shapes)
            throws Exception {
        tail.startRecording();
        try (Connection snapshot = snapshot(source)) {
            BinlogPosition at = snapshotPosition(snapshot);
            tail.awaitReached(at, 30_000);
            catchUp.apply();
            for (TableShape shape : shapes) {
                for (ChunkVerifier.Chunk chunk : chunks.chunks(snapshot, shape, shape.moving)) {
                    verified++;
                    // Catch-up keeps going (the cutover must not start far behind); every key it
                    // touched since the snapshot is left out of the comparison.
                    catchUp.apply();
                    Set<List<Object>> skip = within(chunk, tail.recorded(false).getOrDefault(shape, Set.of()));
                    String exclude = exclusion(shape, skip);
                    if (!chunks.checksum(snapshot, chunk, shape.moving, exclude, skip)
                            .equals(chunks.checksum(target, chunk, shape.moving, exclude, skip))) {
                        chunks.repair(live, target, chunk, shape.moving);
                        repaired++;
                    }
                }
            }
            snapshot.commit();
        }
        Map<TableShape, Set<List<Object>>> left = tail.recorded(true);
        for (int round = 0; round < MAX_ROUNDS && size(left) > SETTLED_ENOUGH; round++) {
            left = keys(source, live, target, left);
        }
        return left;
    }

    /** Checks {@code keys} at a matched position; returns those that changed meanwhile. */
    private Map<TableShape, Set<List<Object>>> keys(int source, Connection live, Connection target,
                                                    Map<TableShape, Set<List<Object>>> keys) throws Exception {
        tail.startRecording();
        try (Connection snapshot = snapshot(source)) {
            tail.awaitReached(snapshotPosition(snapshot), 30_000);
            catchUp.apply();
            Map<TableShape, Set<List<Object>>> changed = tail.recorded(false);
            for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
                Set<List<Object>> check = new LinkedHashSet<>(e.getValue());
                check.removeAll(changed.getOrDefault(e.getKey(), Set.of()));
                List<List<Object>> differ = differing(snapshot, target, e.getKey(), new ArrayList<>(check));
                if (!differ.isEmpty()) {
                    repaired += differ.size();
                    applier.apply(live, target, Map.of(e.getKey(), new LinkedHashSet<>(differ)));
                }
            }
            snapshot.commit();
        }
        return tail.recorded(true);
    }

    /** Under the cutover's hold (nothing changes the keys): makes sure the target has them as the source. */
    void settle(Connection source, Connection target, Map<TableShape, Set<List<Object>>> keys) throws SQLException {
        for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
            List<List<Object>> differ = differing(source, target, e.getKey(), new ArrayList<>(e.getValue()));
            if (!differ.isEmpty()) {
                repaired += differ.size();
                applier.apply(source, target, Map.of(e.getKey(), new LinkedHashSet<>(differ)));
                if (!differing(source, target, e.getKey(), differ).isEmpty()) {
                    throw new SQLException("rows of " + e.getKey() + " still differ on the target after copying them again");
                }
            }
        }
    }

    /** The keys among {@code keys} whose rows differ between the two sides (compared in groups, then one by one). */
    private List<List<Object>> differing(Connection a, Connection b, TableShape shape, List<List<Object>> keys)
            throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += KEYS_PER_STATEMENT) {
            List<List<Object>> group = keys.subList(i, Math.min(keys.size(), i + KEYS_PER_STATEMENT));
            if (!byKeys(a, shape, group).equals(byKeys(b, shape, group))) {
                out.addAll(group);
            }
        }
        verified += (keys.size() + KEYS_PER_STATEMENT - 1) / KEYS_PER_STATEMENT;
        return out;
    }

    private static String byKeys(Connection c, TableShape shape, List<List<Object>> keys) throws SQLException {
        if (keys.isEmpty()) {
            return "0/0";
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Sql.checksum(shape.columns) + " FROM "
                + shape.table.qualified() + " WHERE " + KeyApplier.keyList(shape.table.primaryKey, keys.size()))) {
            KeyApplier.bindKeys(ps, keys);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) + "/" + rs.getString(2);
            }
        }
    }

    private Connection snapshot(int source) throws SQLException {
        Connection c = shards.open(source);
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            c.setAutoCommit(false);
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The binlog position the snapshot sees everything up to (MariaDB's binlog_snapshot_* status). */
    private static BinlogPosition snapshotPosition(Connection snapshot) throws SQLException {
        String file = null;
        long position = -1;
        try (Statement s = snapshot.createStatement(); ResultSet rs = s.executeQuery(
                "SHOW STATUS WHERE Variable_name IN ('binlog_snapshot_file', 'binlog_snapshot_position')")) {
            while (rs.next()) {
                if (rs.getString(1).equalsIgnoreCase("binlog_snapshot_file")) {
                    file = rs.getString(2);
                } else {
                    position = rs.getLong(2);
                }
            }
        }
        if (file == null || position < 0) {
            throw new SQLException("the source does not tell its snapshot's binlog position (binlog_snapshot_file):"
                    + " verifying a move needs MariaDB");
        }
        return new BinlogPosition(file, position);
    }

    /** The keys that fall in the chunk's key range (all of them when the key is not numeric). */
    private static Set<List<Object>> within(ChunkVerifier.Chunk chunk, Set<List<Object>> keys) {
        Set<List<Object>> out = new LinkedHashSet<>();
        for (List<Object> key : keys) {
            if ((chunk.after() == null || compare(key, chunk.after()) > 0)
                    && (chunk.upTo() == null || compare(key, chunk.upTo()) <= 0)) {
                out.add(key);
            }
        }
        return out;
    }

    /** Compares a key with a bound column by column as numbers; 0 (inside) when a value is not a number. */
    private static int compare(List<Object> key, List<String> bound) {
        for (int i = 0; i < key.size(); i++) {
            if (!(key.get(i) instanceof Long k)) {
                return 0;
            }
            long b;
            try {
                b = Long.parseLong(bound.get(i));
            } catch (NumberFormatException e) {
                return 0;
            }
            if (k != b) {
                return Long.compare(k, b);
            }
        }
        return 0;
    }

    /** {@code AND (pk) NOT IN (...)} for the keys to leave out ("" when none). */
    private static String exclusion(TableShape shape, Set<List<Object>> skip) {
        return skip.isEmpty() ? "" : " AND NOT " + KeyApplier.keyList(shape.table.primaryKey, skip.size());
    }

    private static int size(Map<TableShape, Set<List<Object>>> keys) {
        int n = 0;
        for (Set<List<Object>> s : keys.values()) {
            n += s.size();
        }
        return n;
    }

    static Map<TableShape, Set<List<Object>>> empty() {
        return new LinkedHashMap<>();
    }
}
