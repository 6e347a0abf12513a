package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
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
     * Checks every chunk of every table on every target, then the keys that changed meanwhile;
     * returns the keys that kept changing (to check under the cutover's hold).
     */
    Map<TableShape, Set<List<Object>>> run(int source, Connection live, Map<Integer, Connection> targets,
                                           List<TableShape> shapes) throws Exception {
        tail.startRecording();
        try (Connection snapshot = shards.open(source)) {
            BinlogPosition at = SourceSnapshot.start(snapshot);
            tail.awaitReached(at, 30_000);
            catchUp.apply();
            for (TableShape shape : shapes) {
                for (ChunkVerifier.Chunk chunk : chunks.chunks(snapshot, shape)) {
                    verified++;
                    // Catch-up keeps going (the cutover must not start far behind); every key it
                    // touched since the snapshot is left out of the comparison.
                    catchUp.apply();
                    Set<List<Object>> skip = within(chunk, tail.recorded(false).getOrDefault(shape, Set.of()));
                    String exclude = exclusion(shape, skip);
                    Map<Integer, String> expected = chunks.expected(snapshot, chunk, targets.keySet(), exclude, skip);
                    Map<Integer, Connection> differ = new LinkedHashMap<>();
                    for (Map.Entry<Integer, Connection> t : targets.entrySet()) {
                        if (!expected.get(t.getKey()).equals(chunks.actual(t.getValue(), t.getKey(), chunk, exclude, skip))) {
                            differ.put(t.getKey(), t.getValue());
                        }
                    }
                    if (!differ.isEmpty()) {
                        chunks.repair(live, differ, targets.keySet(), chunk);
                        repaired++;
                    }
                }
            }
            snapshot.commit();
        }
        Map<TableShape, Set<List<Object>>> left = tail.recorded(true);
        for (int round = 0; round < MAX_ROUNDS && size(left) > SETTLED_ENOUGH; round++) {
            left = keys(source, live, targets, left);
        }
        return left;
    }

    /** Checks {@code keys} at a matched position; returns those that changed meanwhile. */
    private Map<TableShape, Set<List<Object>>> keys(int source, Connection live, Map<Integer, Connection> targets,
                                                    Map<TableShape, Set<List<Object>>> keys) throws Exception {
        tail.startRecording();
        try (Connection snapshot = shards.open(source)) {
            tail.awaitReached(SourceSnapshot.start(snapshot), 30_000);
            catchUp.apply();
            Map<TableShape, Set<List<Object>>> changed = tail.recorded(false);
            for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
                Set<List<Object>> check = new LinkedHashSet<>(e.getValue());
                check.removeAll(changed.getOrDefault(e.getKey(), Set.of()));
                List<List<Object>> differ = differing(snapshot, targets, e.getKey(), new ArrayList<>(check));
                if (!differ.isEmpty()) {
                    repaired += differ.size();
                    applier.apply(live, targets, Map.of(e.getKey(), new LinkedHashSet<>(differ)));
                }
            }
            snapshot.commit();
        }
        return tail.recorded(true);
    }

    private final KeyApplier applier = new KeyApplier();

    /** Under the cutover's hold (nothing changes the keys): makes sure the targets have them as the source. */
    void settle(Connection source, Map<Integer, Connection> targets, Map<TableShape, Set<List<Object>>> keys)
            throws SQLException {
        for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
            List<List<Object>> differ = differing(source, targets, e.getKey(), new ArrayList<>(e.getValue()));
            if (!differ.isEmpty()) {
                repaired += differ.size();
                applier.apply(source, targets, Map.of(e.getKey(), new LinkedHashSet<>(differ)));
                if (!differing(source, targets, e.getKey(), differ).isEmpty()) {
                    throw new SQLException("rows of " + e.getKey() + " still differ on the targets after copying them again");
                }
            }
        }
    }

    /**
     * The keys among {@code keys} whose rows differ between the source and their targets, compared
     * in groups row by row (a group that differs anywhere counts as differing).
     */
    private List<List<Object>> differing(Connection source, Map<Integer, Connection> targets, TableShape shape,
                                         List<List<Object>> keys) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += KEYS_PER_STATEMENT) {
            List<List<Object>> group = keys.subList(i, Math.min(keys.size(), i + KEYS_PER_STATEMENT));
            Map<Integer, Map<String, Long>> expected = new LinkedHashMap<>();
            for (int t : targets.keySet()) {
                expected.put(t, new HashMap<>());
            }
            byKeys(source, shape, group, shape.moving, true, (pk, key, crc) -> {
                for (int t : shape.placement.targetsOf(key)) {
                    expected.get(t).put(pk, crc);
                }
            });
            for (Map.Entry<Integer, Connection> t : targets.entrySet()) {
                Map<String, Long> actual = new HashMap<>();
                byKeys(t.getValue(), shape, group, shape.placement.onTarget(t.getKey()), false,
                        (pk, key, crc) -> actual.put(pk, crc));
                if (!actual.equals(expected.get(t.getKey()))) {
                    out.addAll(group);
                    break;
                }
            }
        }
        verified += (keys.size() + KEYS_PER_STATEMENT - 1) / KEYS_PER_STATEMENT;
        return out;
    }

    private interface RowSum {
        void row(String primaryKey, Object shardingKey, long crc);
    }

    /** Each row of {@code keys} on one side: its primary key as text, its sharding key (when asked), its CRC32. */
    private static void byKeys(Connection c, TableShape shape, List<List<Object>> keys, String rows, boolean withKey,
                               RowSum sink) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        boolean key = withKey && shape.keyColumn >= 0;
        String select = "SELECT " + Sql.orderBy(shape.table.primaryKey) + (key ? ", "
                + Sql.quote(shape.columns.get(shape.keyColumn)) : "") + ", " + Sql.rowChecksum(shape.columns);
        try (PreparedStatement ps = c.prepareStatement(select + " FROM " + shape.table.qualified() + " WHERE " + rows
                + " AND " + KeyApplier.keyList(shape.table.primaryKey, keys.size()))) {
            KeyApplier.bindKeys(ps, keys);
            try (ResultSet rs = ps.executeQuery()) {
                int n = shape.table.primaryKey.size();
                while (rs.next()) {
                    StringBuilder pk = new StringBuilder();
                    for (int i = 1; i <= n; i++) {
                        byte[] b = rs.getBytes(i);
                        pk.append(i == 1 ? "" : "/").append(b == null ? "null" : java.util.HexFormat.of().formatHex(b));
                    }
                    Object shardingKey = !key ? null : shape.binary[shape.keyColumn] ? rs.getBytes(n + 1)
                            : rs.getString(n + 1);
                    sink.row(pk.toString(), shardingKey, rs.getLong(key ? n + 2 : n + 1));
                }
            }
        }
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
