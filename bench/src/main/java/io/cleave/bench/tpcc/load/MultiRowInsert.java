package io.cleave.bench.tpcc.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffers rows and writes them as multi-row INSERT statements, committing after each. Built here
 * rather than left to the driver's batch rewriting so that loading is fast whatever properties the
 * caller's DataSource has (server or client prepared statements, rewriting on or off).
 */
final class MultiRowInsert implements AutoCloseable {
    /** Keeps one statement well under the protocol's 65,535 placeholders and a few hundred KB. */
    private static final int MAX_PLACEHOLDERS = 16_000;
    private static final int MAX_ROWS = 1_000;

    private final Connection connection;
    private final String table;
    private final String[] columns;
    private final int rowsPerStatement;
    private final List<Object[]> rows = new ArrayList<>();
    private PreparedStatement full;
    private long written;

    MultiRowInsert(Connection connection, String table, String... columns) {
        this.connection = connection;
        this.table = table;
        this.columns = columns;
        this.rowsPerStatement = Math.max(1, Math.min(MAX_ROWS, MAX_PLACEHOLDERS / columns.length));
    }

    void add(Object... row) throws SQLException {
        if (row.length != columns.length) {
            throw new IllegalArgumentException(table + ": expected " + columns.length + " values, got " + row.length);
        }
        rows.add(row);
        if (rows.size() == rowsPerStatement) {
            if (full == null) {
                full = connection.prepareStatement(sql(rowsPerStatement));
            }
            write(full);
        }
    }

    /** Writes what is buffered; the remainder goes through a one-off statement of its own size. */
    void flush() throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement tail = connection.prepareStatement(sql(rows.size()))) {
            write(tail);
        }
    }

    long written() {
        return written;
    }

    @Override
    public void close() throws SQLException {
        flush();
        if (full != null) {
            full.close();
        }
    }

    private void write(PreparedStatement statement) throws SQLException {
        int index = 1;
        for (Object[] row : rows) {
            for (Object value : row) {
                statement.setObject(index++, value);
            }
        }
        statement.executeUpdate();
        connection.commit();
        written += rows.size();
        rows.clear();
    }

    private String sql(int rowCount) {
        String placeholders = "(" + "?,".repeat(columns.length - 1) + "?)";
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (")
            .append(String.join(",", columns)).append(") VALUES ");
        for (int i = 0; i < rowCount; i++) {
            sql.append(i == 0 ? "" : ",").append(placeholders);
        }
        return sql.toString();
    }
}
