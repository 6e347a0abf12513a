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
 * Applies catch-up to the targets: the rows whose keys the binlog named are read again from the
 * source and replace the targets' (or are deleted there when the source no longer has them), in
 * one transaction per target and batch. Reading the source's rows rather than decoding binlog
 * images makes applying idempotent and order-free: whatever ran twice, each target ends as the
 * source is.
 *
 * <p>That holds only if the source is read once it shows the transactions the binlog named. It
 * does not at once: a server writes a transaction to its binlog, hands the events to binlog readers
 * and only then commits it in the engine, where other sessions see it. A read in between finds the
 * row as it was, and nothing names the key again: the write would be lost on the target. So keys
 * from the binlog are read in a consistent snapshot whose binlog position (MariaDB reports it,
 * {@code binlog_snapshot_position}) is at least where their transactions ended; on a server that
 * does not report it, each row is read under a shared lock, which waits for a transaction still
 * committing it.
 *
 * <p>An XA COMMIT of a prepared branch is not covered by that position: the server writes it to the
 * binlog and advances the position its snapshots report before the engine commits the branch (the
 * engine is no part of that commit's group, it commits by id afterwards), so a snapshot at the
 * position can still miss the branch's rows. A row the branch inserted was then taken for absent
 * and the key never named again: the insert stayed on the source only, lost once the map moved on.
 * The keys such a commit settled are read under a shared lock instead, which waits for the branch
 * (it holds its rows' locks until the engine committed it).
 */
final class KeyApplier {

    private static final int KEYS_PER_STATEMENT = 500;
    /** How long the source may take to show what its binlog holds before catch-up gives up (and retries). */
    private static final long VISIBLE_WITHIN_MILLIS = 30_000;

    /**
     * Applies {@code keys} the binlog named up to {@code upTo}, as the source has them once it
     * shows every transaction that ended there ({@code xaCommitted}: those among them an XA COMMIT
     * settled); returns how many rows were written or deleted.
     */
    long applyCaughtUp(Connection source, Map<Integer, Connection> targets, Map<TableShape, Set<List<Object>>> keys,
                       Map<TableShape, Set<List<Object>>> xaCommitted, BinlogPosition upTo)
            throws SQLException, InterruptedException {
        Map<TableShape, Set<List<Object>>> plain = without(keys, xaCommitted);
        Map<TableShape, List<Object[]>> rows;
        if (SourceSnapshot.startAtLeast(source, upTo, VISIBLE_WITHIN_MILLIS)) {
            try {
                rows = read(source, plain, "");
            } finally {
                source.rollback();
                source.setAutoCommit(true);
            }
            readLocking(source, without(keys, plain))
                    .forEach((t, r) -> rows.computeIfAbsent(t, x -> new ArrayList<>()).addAll(r));
        } else {
            rows = readLocking(source, keys);
        }
        return write(targets, keys, rows);
    }

    /** {@code keys} without those in {@code left} (tables left with none are left out). */
    private static Map<TableShape, Set<List<Object>>> without(Map<TableShape, Set<List<Object>>> keys,
                                                              Map<TableShape, Set<List<Object>>> left) {
        Map<TableShape, Set<List<Object>>> out = new LinkedHashMap<>();
        keys.forEach((t, ks) -> {
            Set<List<Object>> kept = new LinkedHashSet<>(ks);
            kept.removeAll(left.getOrDefault(t, Set.of()));
            if (!kept.isEmpty()) {
                out.put(t, kept);
            }
        });
        return out;
    }

    /**
     * Applies {@code keys} as the source has them now, for callers that know no transaction on them
     * is committing (the cutover holds their writers) or that check them again later (verification).
     */
    long apply(Connection source, Map<Integer, Connection> targets, Map<TableShape, Set<List<Object>>> keys)
            throws SQLException {
        return write(targets, keys, read(source, keys, ""));
    }

    /** The source's rows of {@code keys} (those it has), by table; {@code lock} is appended to each SELECT. */
    private static Map<TableShape, List<Object[]>> read(Connection source, Map<TableShape, Set<List<Object>>> keys,
                                                        String lock) throws SQLException {
        Map<TableShape, List<Object[]>> out = new LinkedHashMap<>();
        for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
            TableShape shape = e.getKey();
            List<List<Object>> all = new ArrayList<>(e.getValue());
            List<Object[]> rows = new ArrayList<>();
            int step = lock.isEmpty() ? KEYS_PER_STATEMENT : 1;
            for (int i = 0; i < all.size(); i += step) {
                List<List<Object>> group = all.subList(i, Math.min(all.size(), i + step));
                try (PreparedStatement ps = source.prepareStatement("SELECT " + shape.columnList() + " FROM "
                        + shape.table.qualified() + " WHERE " + shape.moving + " AND " + keyList(shape.table.primaryKey,
                        group.size()) + lock)) {
                    bindKeys(ps, group);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.add(shape.row(rs));
                        }
                    }
                }
            }
            out.put(shape, rows);
        }
        return out;
    }

    /**
     * One row per statement under a shared lock, each its own transaction: a row a committing
     * transaction holds is read once it committed, and the catch-up never holds one lock while
     * waiting for another, so it cannot be part of a deadlock with the source's clients.
     */
    private static Map<TableShape, List<Object[]>> readLocking(Connection source, Map<TableShape, Set<List<Object>>> keys)
            throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            try {
                return read(source, keys, " LOCK IN SHARE MODE");
            } finally {
                s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            }
        }
    }

    /** Makes each target's rows of {@code keys} the source's {@code rows}, in one transaction per target. */
    private static long write(Map<Integer, Connection> targets, Map<TableShape, Set<List<Object>>> keys,
                              Map<TableShape, List<Object[]>> rows) throws SQLException {
        long changed = 0;
        for (Connection t : targets.values()) {
            t.setAutoCommit(false);
        }
        try {
            for (Map.Entry<TableShape, Set<List<Object>>> e : keys.entrySet()) {
                TableShape shape = e.getKey();
                Map<Integer, List<Object[]>> byTarget = shape.byTarget(rows.getOrDefault(shape, List.of()), targets.keySet());
                List<List<Object>> all = new ArrayList<>(e.getValue());
                for (Map.Entry<Integer, Connection> t : targets.entrySet()) {
                    // One statement per 500 keys, not one per key (KeyedDelete): the catch-up must keep up with
                    // the source's writes. Its keys are the changed ones, few per round, and no condition the index
                    // cannot answer, so the server looks them up; a scan (a list covering much of a small table)
                    // could still pass over rows clients hold, as KeyedDelete's comment says.
                    long deleted = 0;
                    for (int i = 0; i < all.size(); i += KEYS_PER_STATEMENT) {
                        List<List<Object>> group = all.subList(i, Math.min(all.size(), i + KEYS_PER_STATEMENT));
                        try (PreparedStatement ps = t.getValue().prepareStatement("DELETE FROM " + shape.table.qualified()
                                + " WHERE " + keyList(shape.table.primaryKey, group.size()))) {
                            bindKeys(ps, group);
                            deleted += ps.executeUpdate();
                        }
                    }
                    List<Object[]> mine = byTarget.getOrDefault(t.getKey(), List.of());
                    shape.replace(t.getValue(), mine);
                    changed += Math.max(deleted, mine.size());
                }
            }
            for (Connection t : targets.values()) {
                t.commit();
            }
        } catch (SQLException | RuntimeException e) {
            for (Connection t : targets.values()) {
                try {
                    t.rollback();
                } catch (SQLException ignored) {
                    // the first failure is the one to report
                }
            }
            throw e;
        } finally {
            for (Connection t : targets.values()) {
                t.setAutoCommit(true);
            }
        }
        return changed;
    }

    /** {@code (a, b) IN ((?, ?), ...)} for {@code n} keys. */
    static String keyList(List<String> pk, int n) {
        StringBuilder b = new StringBuilder("(").append(Sql.orderBy(pk)).append(") IN (");
        String one = pk.size() == 1 ? "?" : "(" + "?, ".repeat(pk.size() - 1) + "?)";
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append(one);
        }
        return b.append(')').toString();
    }

    static void bindKeys(PreparedStatement ps, List<List<Object>> keys) throws SQLException {
        int p = 1;
        for (List<Object> key : keys) {
            for (Object v : key) {
                TableShape.bind(ps, p++, v);
            }
        }
    }
}
