package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies catch-up to the targets: the rows whose keys the binlog named are read again from the
 * source and replace the targets' (or are deleted there when the source no longer has them), in
 * one transaction per target and batch. Reading the source's current rows rather than decoding
 * binlog images makes applying idempotent and order-free: whatever ran twice, each target ends as
 * the source is.
 */
final class KeyApplier {

    private static final int KEYS_PER_STATEMENT = 500;

    /** Applies a batch; returns how many rows were written or deleted on the targets. */
    long apply(Connection source, Map<Integer, Connection> targets, Map<TableShape, Set<List<Object>>> batch)
            throws SQLException {
        long changed = 0;
        for (Connection t : targets.values()) {
            t.setAutoCommit(false);
        }
        try {
            for (Map.Entry<TableShape, Set<List<Object>>> e : batch.entrySet()) {
                List<List<Object>> keys = new ArrayList<>(e.getValue());
                for (int i = 0; i < keys.size(); i += KEYS_PER_STATEMENT) {
                    changed += applyKeys(source, targets, e.getKey(), keys.subList(i, Math.min(keys.size(),
                            i + KEYS_PER_STATEMENT)));
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

    private long applyKeys(Connection source, Map<Integer, Connection> targets, TableShape shape, List<List<Object>> keys)
            throws SQLException {
        String in = keyList(shape.table.primaryKey, keys.size());
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT " + shape.columnList() + " FROM "
                + shape.table.qualified() + " WHERE " + shape.moving + " AND " + in)) {
            bindKeys(ps, keys);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(shape.row(rs));
                }
            }
        }
        Map<Integer, List<Object[]>> byTarget = shape.byTarget(rows, targets.keySet());
        long changed = 0;
        for (Map.Entry<Integer, Connection> t : targets.entrySet()) {
            long deleted;
            try (PreparedStatement ps = t.getValue().prepareStatement("DELETE FROM " + shape.table.qualified()
                    + " WHERE " + in)) {
                bindKeys(ps, keys);
                deleted = ps.executeUpdate();
            }
            List<Object[]> mine = byTarget.getOrDefault(t.getKey(), List.of());
            shape.replace(t.getValue(), mine);
            changed += Math.max(deleted, mine.size());
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
