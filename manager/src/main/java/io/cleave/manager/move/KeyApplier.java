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
 * Applies catch-up to the target: the rows whose keys the binlog named are read again from the
 * source and replace the target's (or are deleted there when the source no longer has them), in
 * one transaction per batch. Reading the source's current rows rather than decoding binlog images
 * makes applying idempotent and order-free: whatever ran twice, the target ends as the source is.
 */
final class KeyApplier {

    private static final int KEYS_PER_STATEMENT = 500;

    /** Applies a batch; returns how many rows were written or deleted on the target. */
    long apply(Connection source, Connection target, Map<TableShape, Set<List<Object>>> batch)
            throws SQLException {
        long changed = 0;
        boolean autocommit = target.getAutoCommit();
        target.setAutoCommit(false);
        try {
            for (Map.Entry<TableShape, Set<List<Object>>> e : batch.entrySet()) {
                List<List<Object>> keys = new ArrayList<>(e.getValue());
                for (int i = 0; i < keys.size(); i += KEYS_PER_STATEMENT) {
                    changed += applyKeys(source, target, e.getKey(), keys.subList(i, Math.min(keys.size(),
                            i + KEYS_PER_STATEMENT)), e.getKey().moving);
                }
            }
            target.commit();
        } catch (SQLException | RuntimeException e) {
            target.rollback();
            throw e;
        } finally {
            target.setAutoCommit(autocommit);
        }
        return changed;
    }

    private long applyKeys(Connection source, Connection target, TableShape shape, List<List<Object>> keys,
                           String moving) throws SQLException {
        String in = keyList(shape.table.primaryKey, keys.size());
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT " + shape.columnList() + " FROM "
                + shape.table.qualified() + " WHERE " + moving + " AND " + in)) {
            bindKeys(ps, keys);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(shape.row(rs));
                }
            }
        }
        long deleted;
        try (PreparedStatement ps = target.prepareStatement("DELETE FROM " + shape.table.qualified() + " WHERE " + in)) {
            bindKeys(ps, keys);
            deleted = ps.executeUpdate();
        }
        shape.replace(target, rows);
        return Math.max(deleted, rows.size());
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
