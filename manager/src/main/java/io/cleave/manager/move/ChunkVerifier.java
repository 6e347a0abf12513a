package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares a table's moving rows on the source and its targets chunk by chunk (primary-key ranges
 * of up to {@code chunkRows} rows): COUNT(*) and BIT_XOR(CRC32) over every column, and a chunk
 * copied again to a target where it differs. When the rows of a chunk go to different targets
 * (a table sharded by key), the source's side is summed per target from each row's CRC32.
 * {@link VerifyPass} decides at which position the sides are compared.
 */
final class ChunkVerifier {

    /** A primary-key range {@code (after, upTo]}; null bounds are open. */
    record Chunk(TableShape table, List<String> after, List<String> upTo) {
    }

    private final int chunkRows;

    ChunkVerifier(int chunkRows) {
        this.chunkRows = chunkRows;
    }

    /** The table's chunks, bounded by every {@code chunkRows}-th key of the source's moving rows. */
    List<Chunk> chunks(Connection source, TableShape shape) throws SQLException {
        List<Chunk> out = new ArrayList<>();
        List<String> pk = shape.table.primaryKey;
        List<String> after = null;
        while (true) {
            String sql = "SELECT " + Sql.orderBy(pk) + " FROM " + shape.table.qualified() + " WHERE " + shape.moving
                    + (after == null ? "" : " AND " + Sql.after(pk)) + " ORDER BY " + Sql.orderBy(pk)
                    + " LIMIT 1 OFFSET " + (chunkRows - 1);
            List<String> upTo = null;
            try (PreparedStatement ps = source.prepareStatement(sql)) {
                bind(ps, 1, after);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        upTo = new ArrayList<>();
                        for (int i = 1; i <= pk.size(); i++) {
                            upTo.add(rs.getString(i));
                        }
                    }
                }
            }
            out.add(new Chunk(shape, after, upTo));
            if (upTo == null) {
                return out;
            }
            after = upTo;
        }
    }

    /**
     * Makes the given targets' rows of a chunk the source's: deletes theirs (by key: the chunk's range
     * also holds rows of keys that stay on the target, which its clients write), copies the source's.
     * {@code all}: every shard the move writes to.
     */
    void repair(Connection source, Map<Integer, Connection> targets, Set<Integer> all, Chunk chunk) throws SQLException {
        TableShape shape = chunk.table();
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT " + shape.columnList() + " FROM "
                + shape.table.qualified() + " WHERE " + where(chunk, shape.moving))) {
            bindRange(ps, chunk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(shape.row(rs));
                }
            }
        }
        Map<Integer, List<Object[]>> byTarget = shape.byTarget(rows, all);
        for (Map.Entry<Integer, Connection> t : targets.entrySet()) {
            Connection target = t.getValue();
            target.setAutoCommit(false);
            try {
                String theirs = shape.placement.onTarget(t.getKey());
                List<List<Object>> keys = new ArrayList<>();
                try (PreparedStatement ps = target.prepareStatement("SELECT " + Sql.orderBy(shape.table.primaryKey)
                        + " FROM " + shape.table.qualified() + " WHERE " + where(chunk, theirs) + " ORDER BY "
                        + Sql.orderBy(shape.table.primaryKey))) {
                    bindRange(ps, chunk);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            keys.add(KeyedDelete.key(shape, rs, 1));
                        }
                    }
                }
                KeyedDelete.delete(target, shape, keys, theirs);
                shape.replace(target, byTarget.getOrDefault(t.getKey(), List.of()));
                target.commit();
            } catch (SQLException | RuntimeException e) {
                // Back to autocommit below would commit the chunk's rows deleted and not copied again.
                KeyedDelete.rollback(target, e);
                throw e;
            } finally {
                target.setAutoCommit(true);
            }
        }
    }

    /**
     * What each target should hold of the chunk, as the source has it, leaving out the keys
     * {@code skip} ({@code exclude} is their condition): "count/xor" per target.
     */
    Map<Integer, String> expected(Connection source, Chunk chunk, Collection<Integer> targets, String exclude,
                                  Set<List<Object>> skip) throws SQLException {
        TableShape shape = chunk.table();
        Map<Integer, String> out = new LinkedHashMap<>();
        if (shape.placement.uniform()) {
            String sum = checksum(source, chunk, shape.moving, exclude, skip);
            for (int t : targets) {
                out.put(t, sum);
            }
            return out;
        }
        Map<Integer, long[]> sums = new LinkedHashMap<>();
        for (int t : targets) {
            sums.put(t, new long[2]);
        }
        try (PreparedStatement ps = source.prepareStatement("SELECT " + Sql.quote(shape.columns.get(shape.keyColumn))
                + ", " + Sql.rowChecksum(shape.columns) + " FROM " + shape.table.qualified() + " WHERE "
                + where(chunk, shape.moving) + exclude)) {
            bindSkipped(ps, bindRange(ps, chunk), skip);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object key = shape.binary[shape.keyColumn] ? rs.getBytes(1) : rs.getString(1);
                    long crc = rs.getLong(2);
                    for (int t : shape.placement.targetsOf(key)) {
                        long[] s = sums.get(t);
                        if (s == null) {
                            throw new IllegalStateException("a row of " + shape + " belongs on shard " + t + ", which this"
                                    + " move does not write to (the shard map changed under it)");
                        }
                        s[0]++;
                        s[1] ^= crc;
                    }
                }
            }
        }
        sums.forEach((t, s) -> out.put(t, s[0] + "/" + s[1]));
        return out;
    }

    /** What {@code target} holds of the chunk: "count/xor". */
    String actual(Connection target, int shard, Chunk chunk, String exclude, Set<List<Object>> skip) throws SQLException {
        return checksum(target, chunk, chunk.table().placement.onTarget(shard), exclude, skip);
    }

    private String checksum(Connection c, Chunk chunk, String rows, String exclude, Set<List<Object>> skip)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Sql.checksum(chunk.table().columns) + " FROM "
                + chunk.table().table.qualified() + " WHERE " + where(chunk, rows) + exclude)) {
            bindSkipped(ps, bindRange(ps, chunk), skip);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) + "/" + rs.getString(2);
            }
        }
    }

    private static void bindSkipped(PreparedStatement ps, int next, Set<List<Object>> skip) throws SQLException {
        for (List<Object> key : skip) {
            for (Object v : key) {
                TableShape.bind(ps, next++, v);
            }
        }
    }

    private static String where(Chunk chunk, String rows) {
        List<String> pk = chunk.table().table.primaryKey;
        return rows + (chunk.after() == null ? "" : " AND " + Sql.after(pk))
                + (chunk.upTo() == null ? "" : " AND " + Sql.upTo(pk));
    }

    private static int bindRange(PreparedStatement ps, Chunk chunk) throws SQLException {
        int next = bind(ps, 1, chunk.after());
        return bind(ps, next, chunk.upTo());
    }

    private static int bind(PreparedStatement ps, int from, List<String> key) throws SQLException {
        if (key == null) {
            return from;
        }
        int[] order = Sql.compareParameters(key.size());
        for (int i = 0; i < order.length; i++) {
            ps.setString(from + i, key.get(order[i]));
        }
        return from + order.length;
    }
}
