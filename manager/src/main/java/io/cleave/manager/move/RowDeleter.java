package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Deletes a table's rows of the moving keys from one shard in primary-key-ordered chunks, sleeping
 * between chunks so the shard's own clients keep most of its throughput: the source's old rows
 * after a cutover, the target's copy when a move is cancelled or fails.
 */
final class RowDeleter {

    interface ChunkListener {
        void deleted(long rows) throws InterruptedException;
    }

    private final MoveSettings settings;

    RowDeleter(MoveSettings settings) {
        this.settings = settings;
    }

    long delete(Connection shard, TableProgress table, String moving, ChunkListener listener)
            throws SQLException, InterruptedException {
        String sql = "DELETE FROM " + table.qualified() + " WHERE " + moving + " ORDER BY "
                + Sql.orderBy(table.primaryKey) + " LIMIT " + settings.chunkRows();
        long total = 0;
        while (true) {
            long started = System.nanoTime();
            int n;
            try (Statement s = shard.createStatement()) {
                n = s.executeUpdate(sql);
            }
            total += n;
            listener.deleted(n);
            if (n < settings.chunkRows()) {
                return total;
            }
            settings.throttle(System.nanoTime() - started);
        }
    }
}
