package io.cleave.manager.backup;

import io.cleave.manager.move.Sql;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads one table on one shard, in the snapshot its connection holds, in primary-key chunks
 * ({@code WHERE (pk) > (last key) ORDER BY pk LIMIT n}), each row with the CRC32 the move's
 * verification computes for it, and hands each full chunk to a {@link ChunkSink}. A table without
 * a primary key is read in one pass, cut into chunks as its rows come.
 */
final class TableReader {

    /** Where full chunks go (compressed, checked and stored on other threads). */
    interface ChunkSink {
        void accept(TablePlan table, int shard, int sequence, ChunkCodec.Writer chunk) throws IOException, InterruptedException;
    }

    /** The rows read and the BIT_XOR of their CRC32s. */
    record Totals(long rows, long checksum) {
    }

    private final ChunkLimits limits;
    private final BackupProgress progress;

    TableReader(ChunkLimits limits, BackupProgress progress) {
        this.limits = limits;
        this.progress = progress;
    }

    Totals read(Connection c, TablePlan t, int shard, ChunkSink sink) throws SQLException, IOException, InterruptedException {
        List<String> names = t.columnNames();
        int n = names.size();
        StringBuilder select = new StringBuilder("SELECT ");
        for (String name : names) {
            select.append(Sql.quote(name)).append(", ");
        }
        select.append(Sql.rowChecksum(names)).append(" FROM ").append(Sql.quote(t.schema())).append('.')
                .append(Sql.quote(t.table()));
        int[] pk = pkPositions(t);
        long rows = 0;
        long checksum = 0;
        int sequence = 0;
        ChunkCodec.Writer chunk = new ChunkCodec.Writer(n);
        byte[][] last = null;
        while (true) {
            String sql = pk == null ? select.toString()
                    : select + (last == null ? "" : " WHERE " + Sql.after(t.primaryKey())) + " ORDER BY "
                    + Sql.orderBy(t.primaryKey()) + " LIMIT " + limits.rows();
            int read = 0;
            try (PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                if (pk == null) {
                    ps.setFetchSize(Integer.MIN_VALUE); // streamed: the whole table in one pass
                } else if (last != null) {
                    bindAfter(ps, t, pk, last);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        byte[][] row = new byte[n][];
                        long size = 0;
                        for (int i = 0; i < n; i++) {
                            row[i] = rs.getBytes(i + 1);
                            size += row[i] == null ? 1 : row[i].length + 1;
                        }
                        long crc = rs.getLong(n + 1);
                        read++;
                        last = row;
                        progress.rowRead(size);
                        if (t.ghost(shard, row)) {
                            continue;
                        }
                        chunk.row(row);
                        rows++;
                        checksum ^= crc;
                        if (chunk.rows() >= limits.rows() || chunk.size() >= limits.bytes()) {
                            sink.accept(t, shard, sequence++, chunk);
                            chunk = new ChunkCodec.Writer(n);
                        }
                    }
                }
            }
            if (pk == null || read < limits.rows()) {
                break;
            }
        }
        if (chunk.rows() > 0 || sequence == 0) {
            sink.accept(t, shard, sequence, chunk);
        }
        return new Totals(rows, checksum);
    }

    /** Where each primary-key column is among the columns read; null when there is no primary key. */
    private static int[] pkPositions(TablePlan t) {
        if (t.primaryKey().isEmpty()) {
            return null;
        }
        int[] out = new int[t.primaryKey().size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = -1;
            for (int i = 0; i < t.columns().size(); i++) {
                if (t.columns().get(i).name().equalsIgnoreCase(t.primaryKey().get(k))) {
                    out[k] = i;
                }
            }
            if (out[k] < 0) {
                return null; // a generated column in the key: read the table in one pass
            }
        }
        return out;
    }

    /**
     * Binds the last row's key for {@link Sql#after}: integers and decimals as numbers (a string
     * would compare as a double and lose precision past 2^53), binary columns as bytes, the rest as
     * text compared in the column's own collation.
     */
    private static void bindAfter(PreparedStatement ps, TablePlan t, int[] pk, byte[][] last) throws SQLException {
        int[] order = Sql.compareParameters(pk.length);
        for (int i = 0; i < order.length; i++) {
            int column = pk[order[i]];
            BackupManifest.Column c = t.columns().get(column);
            byte[] value = last[column];
            if (value == null) {
                ps.setNull(i + 1, java.sql.Types.NULL);
            } else if (c.binary()) {
                ps.setBytes(i + 1, value);
            } else if (TablePlan.integer(c)) {
                ps.setBigDecimal(i + 1, new BigDecimal(new String(value, StandardCharsets.US_ASCII)));
            } else {
                ps.setString(i + 1, new String(value, StandardCharsets.UTF_8));
            }
        }
    }
}
