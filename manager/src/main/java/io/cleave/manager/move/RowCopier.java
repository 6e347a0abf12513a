package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Copies one table's moving rows from the source's consistent snapshot to their targets in
 * primary-key chunks, each row to the shards its table's {@link Placement} names. After each chunk
 * the key of its last row is the table's watermark (the caller journals it), so a copy that
 * stopped goes on from there; writing a chunk again is harmless (REPLACE). Between chunks it
 * sleeps as long as the chunk took, so the source keeps most of its throughput for its own clients.
 */
final class RowCopier {

    interface ChunkListener {
        /** A chunk is on the targets; throws to stop the copy (cancel, shutdown). */
        void copied(TableProgress table, int rows, long bytes) throws InterruptedException;
    }

    private final MoveSettings settings;

    RowCopier(MoveSettings settings) {
        this.settings = settings;
    }

    void copy(Connection snapshot, Map<Integer, Connection> targets, TableShape shape, ChunkListener listener)
            throws SQLException, InterruptedException {
        TableProgress t = shape.table;
        String base = "SELECT " + shape.columnList() + " FROM " + t.qualified() + " WHERE " + shape.moving;
        String order = " ORDER BY " + Sql.orderBy(t.primaryKey) + " LIMIT " + settings.chunkRows();
        String first = base + order;
        String next = base + " AND " + Sql.after(t.primaryKey) + order;
        int[] params = Sql.compareParameters(t.primaryKey.size());
        while (!t.copied) {
            long started = System.nanoTime();
            List<Object[]> rows = new ArrayList<>();
            try (PreparedStatement ps = snapshot.prepareStatement(t.watermark.isEmpty() ? first : next)) {
                if (!t.watermark.isEmpty()) {
                    for (int i = 0; i < params.length; i++) {
                        ps.setString(i + 1, t.watermark.get(params[i]));
                    }
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(shape.row(rs));
                    }
                }
            }
            long bytes = 0;
            for (Map.Entry<Integer, List<Object[]>> e : shape.byTarget(rows, targets.keySet()).entrySet()) {
                bytes += shape.replace(targets.get(e.getKey()), e.getValue());
            }
            if (!rows.isEmpty()) {
                List<String> watermark = new ArrayList<>();
                for (Object v : shape.key(rows.get(rows.size() - 1))) {
                    watermark.add(v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.ISO_8859_1)
                            : String.valueOf(v));
                }
                t.watermark = watermark;
            }
            t.rowsCopied += rows.size();
            t.copied = rows.size() < settings.chunkRows();
            listener.copied(t, rows.size(), bytes);
            settings.throttle(System.nanoTime() - started);
        }
    }
}
