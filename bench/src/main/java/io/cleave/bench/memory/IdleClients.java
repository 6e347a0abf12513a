package io.cleave.bench.memory;

import io.cleave.bench.jdbc.JdbcTarget;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Client connections that log in through the proxy, run one statement (so the session has met a
 * shard connection and holds what a session keeps afterwards) and then stay idle.
 */
public final class IdleClients implements AutoCloseable {

    private final JdbcTarget proxy;
    private final List<Connection> open = new ArrayList<>();

    public IdleClients(JdbcTarget proxy) {
        this.proxy = proxy;
    }

    /** Opens connections until {@code total} are open. */
    public void growTo(int total) throws SQLException {
        while (open.size() < total) {
            Connection c = proxy.getConnection();
            open.add(c);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                rs.next();
            }
        }
    }

    public int size() {
        return open.size();
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (Connection c : open) {
            try {
                c.close();
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
