package io.cleave.bench.tpcc.check;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Checks consistency conditions 1 to 4 per warehouse and district on one or more sources: one
 * direct instance, the proxy, or every shard. Apart from listing the warehouses a source holds,
 * every query names one warehouse with a bound parameter, so it routes to one shard through a
 * proxy. Each source is read in one REPEATABLE READ transaction: a consistent snapshot.
 */
public final class ConsistencyCheck {

    private ConsistencyCheck() {
    }

    /** Checks every warehouse found on the sources. */
    public static List<Violation> check(List<DataSource> sources) throws SQLException {
        return check(sources, 0);
    }

    /** Also reports as violations warehouses 1..expectedWarehouses found on none of the sources. */
    public static List<Violation> check(List<DataSource> sources, int expectedWarehouses) throws SQLException {
        List<Violation> violations = new ArrayList<>();
        Map<Integer, Integer> sourceOfWarehouse = new TreeMap<>();
        for (int s = 0; s < sources.size(); s++) {
            try (Connection connection = sources.get(s).getConnection()) {
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                try {
                    for (int w : warehouses(connection)) {
                        Integer earlier = sourceOfWarehouse.putIfAbsent(w, s);
                        if (earlier != null) {
                            violations.add(new Violation(Condition.WAREHOUSE_PLACEMENT, w, 0, s,
                                "also present on source " + earlier));
                            continue;
                        }
                        violations.addAll(new WarehouseQueries(connection).check(w, s));
                    }
                } finally {
                    connection.rollback();
                }
            }
        }
        for (int w = 1; w <= expectedWarehouses; w++) {
            if (!sourceOfWarehouse.containsKey(w)) {
                violations.add(new Violation(Condition.WAREHOUSE_PLACEMENT, w, 0, -1, "not found on any source"));
            }
        }
        return violations;
    }

    /**
     * Conditions 1-4 of one warehouse read on one source (the shard that owns it), in one
     * REPEATABLE READ transaction there; {@code source} labels the violations.
     */
    public static List<Violation> checkWarehouse(DataSource dataSource, int warehouse, int source) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                return new WarehouseQueries(connection).check(warehouse, source);
            } finally {
                connection.rollback();
            }
        }
    }

    private static List<Integer> warehouses(Connection connection) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT w_id FROM warehouse ORDER BY w_id")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** The per-warehouse aggregates, grouped by district, and the four comparisons on them. */
    private static final class WarehouseQueries {
        private final Connection connection;

        WarehouseQueries(Connection connection) {
            this.connection = connection;
        }

        List<Violation> check(int w, int source) throws SQLException {
            List<Violation> out = new ArrayList<>();
            BigDecimal warehouseYtd = null;
            try (PreparedStatement ps = connection.prepareStatement("SELECT w_ytd FROM warehouse WHERE w_id = ?")) {
                ps.setInt(1, w);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        warehouseYtd = rs.getBigDecimal(1);
                    }
                }
            }
            Map<Integer, long[]> districts = new TreeMap<>();
            BigDecimal districtYtd = BigDecimal.ZERO;
            try (PreparedStatement ps = connection.prepareStatement(
                "SELECT d_id, d_ytd, d_next_o_id FROM district WHERE d_w_id = ? ORDER BY d_id")) {
                ps.setInt(1, w);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        districtYtd = districtYtd.add(rs.getBigDecimal(2));
                        districts.put(rs.getInt(1), new long[] {rs.getLong(3)});
                    }
                }
            }
            if (warehouseYtd == null || warehouseYtd.compareTo(districtYtd) != 0) {
                out.add(new Violation(Condition.W_YTD_EQUALS_SUM_D_YTD, w, 0, source,
                    "W_YTD " + warehouseYtd + " but sum(D_YTD) " + districtYtd));
            }
            Map<Integer, long[]> orders = grouped(w,
                "SELECT o_d_id, MAX(o_id), SUM(o_ol_cnt) FROM orders WHERE o_w_id = ? GROUP BY o_d_id", 2);
            Map<Integer, long[]> newOrders = grouped(w, "SELECT no_d_id, COUNT(*), MIN(no_o_id), MAX(no_o_id)"
                + " FROM new_orders WHERE no_w_id = ? GROUP BY no_d_id", 3);
            Map<Integer, long[]> lines = grouped(w,
                "SELECT ol_d_id, COUNT(*) FROM order_line WHERE ol_w_id = ? GROUP BY ol_d_id", 1);
            for (Map.Entry<Integer, long[]> district : districts.entrySet()) {
                int d = district.getKey();
                long nextOrderId = district.getValue()[0];
                long[] o = orders.getOrDefault(d, new long[] {0, 0});
                long[] no = newOrders.get(d);
                long lineCount = lines.getOrDefault(d, new long[] {0})[0];
                if (nextOrderId - 1 != o[0] || (no != null && no[2] != o[0])) {
                    out.add(new Violation(Condition.NEXT_ORDER_ID, w, d, source, "D_NEXT_O_ID - 1 = "
                        + (nextOrderId - 1) + ", max(O_ID) = " + o[0] + ", max(NO_O_ID) = "
                        + (no == null ? "none" : Long.toString(no[2]))));
                }
                if (no != null && no[0] != no[2] - no[1] + 1) {
                    out.add(new Violation(Condition.NEW_ORDERS_CONTIGUOUS, w, d, source, "count " + no[0]
                        + " but max - min + 1 = " + (no[2] - no[1] + 1)));
                }
                if (o[1] != lineCount) {
                    out.add(new Violation(Condition.ORDER_LINE_COUNT, w, d, source,
                        "sum(O_OL_CNT) " + o[1] + " but " + lineCount + " order lines"));
                }
            }
            return out;
        }

        private Map<Integer, long[]> grouped(int w, String sql, int values) throws SQLException {
            Map<Integer, long[]> out = new TreeMap<>();
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                ps.setInt(1, w);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long[] row = new long[values];
                        for (int i = 0; i < values; i++) {
                            row[i] = rs.getLong(i + 2);
                        }
                        out.put(rs.getInt(1), row);
                    }
                }
            }
            return out;
        }
    }
}
