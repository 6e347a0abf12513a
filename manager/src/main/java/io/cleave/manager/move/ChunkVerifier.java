package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares a table's moving rows on source and target chunk by chunk (primary-key ranges of up to
 * {@code chunkRows} rows): COUNT(*) and BIT_XOR(CRC32) over every column, and a chunk copied again
 * when it differs. {@link VerifyPass} decides at which position the two sides are compared.
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
    List<Chunk> chunks(Connection source, TableShape shape, String moving) throws SQLException {
        List<Chunk> out = new ArrayList<>();
        List<String> pk = shape.table.primaryKey;
        List<String> after = null;
        while (true) {
            String sql = "SELECT " + Sql.orderBy(pk) + " FROM " + shape.table.qualified() + " WHERE " + moving
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

    /** Makes the target's rows of a chunk the source's: deletes the target's, copies the source's. */
    void repair(Connection source, Connection target, Chunk chunk, String moving) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT " + chunk.table().columnList() + " FROM "
                + chunk.table().table.qualified() + " WHERE " + where(chunk, moving))) {
            bindRange(ps, chunk);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(chunk.table().row(rs));
                }
            }
        }
        boolean autocommit = target.getAutoCommit();
        target.setAutoCommit(false);
        try {
            try (PreparedStatement ps = target.prepareStatement("DELETE FROM " + chunk.table().table.qualified()
                    + " WHERE " + where(chunk, moving))) {
                bindRange(ps, chunk);
                ps.executeUpdate();
            }
            chunk.table().replace(target, rows);
            target.commit();
        } finally {
            target.setAutoCommit(autocommit);
        }
    }

    /** The chunk's checksum, leaving out the keys {@code skip} ({@code exclude} is their condition). */
    String checksum(Connection c, Chunk chunk, String moving, String exclude, java.util.Set<List<Object>> skip)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Sql.checksum(chunk.table().columns) + " FROM "
                + chunk.table().table.qualified() + " WHERE " + where(chunk, moving) + exclude)) {
            int next = bindRange(ps, chunk);
            for (List<Object> key : skip) {
                for (Object v : key) {
                    TableShape.bind(ps, next++, v);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) + "/" + rs.getString(2);
            }
        }
    }

    private static String where(Chunk chunk, String moving) {
        List<String> pk = chunk.table().table.primaryKey;
        return moving + (chunk.after() == null ? "" : " AND " + Sql.after(pk))
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
