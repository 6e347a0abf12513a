package io.cleave.bench.tpcc.txn;

import io.cleave.bench.tpcc.TpccScale;
import io.cleave.bench.tpcc.txn.TransactionInput.OrderLine;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Clause 2.4.2. Statements are prepared once per connection and reused. */
final class NewOrderTransaction {
    private final PreparedStatement customer;
    private final PreparedStatement warehouse;
    private final PreparedStatement district;
    private final PreparedStatement districtNext;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertNewOrder;
    private final PreparedStatement item;
    /** One per district: the S_DIST_xx column to read depends on it. */
    private final PreparedStatement[] stock = new PreparedStatement[TpccScale.DISTRICTS_PER_WAREHOUSE + 1];
    private final PreparedStatement updateStock;
    private final PreparedStatement insertLine;

    NewOrderTransaction(Connection c) throws SQLException {
        customer = c.prepareStatement(
            "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        warehouse = c.prepareStatement("SELECT w_tax FROM warehouse WHERE w_id = ?");
        district = c.prepareStatement(
            "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE");
        districtNext = c.prepareStatement("UPDATE district SET d_next_o_id = ? WHERE d_w_id = ? AND d_id = ?");
        insertOrder = c.prepareStatement("INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id,"
            + " o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)");
        insertNewOrder = c.prepareStatement("INSERT INTO new_orders (no_w_id, no_d_id, no_o_id) VALUES (?, ?, ?)");
        item = c.prepareStatement("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?");
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            stock[d] = c.prepareStatement(String.format("SELECT s_quantity, s_data, s_dist_%02d FROM stock"
                + " WHERE s_w_id = ? AND s_i_id = ? FOR UPDATE", d));
        }
        updateStock = c.prepareStatement("UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?,"
            + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?");
        insertLine = c.prepareStatement("INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id,"
            + " ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"
            + " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)");
    }

    void execute(TransactionInput.NewOrder in) throws SQLException, ItemNotFoundException {
        int w = in.warehouse();
        int d = in.district();
        customer.setInt(1, w);
        customer.setInt(2, d);
        customer.setInt(3, in.customer());
        try (ResultSet rs = customer.executeQuery()) {
            expectRow(rs, "customer");
            rs.getBigDecimal(1);
        }
        warehouse.setInt(1, w);
        try (ResultSet rs = warehouse.executeQuery()) {
            expectRow(rs, "warehouse");
        }
        int orderId;
        district.setInt(1, w);
        district.setInt(2, d);
        try (ResultSet rs = district.executeQuery()) {
            expectRow(rs, "district");
            orderId = rs.getInt(2);
        }
        districtNext.setInt(1, orderId + 1);
        districtNext.setInt(2, w);
        districtNext.setInt(3, d);
        districtNext.executeUpdate();

        insertOrder.setInt(1, w);
        insertOrder.setInt(2, d);
        insertOrder.setInt(3, orderId);
        insertOrder.setInt(4, in.customer());
        insertOrder.setTimestamp(5, new Timestamp(System.currentTimeMillis()));
        insertOrder.setInt(6, in.lines().size());
        insertOrder.setInt(7, in.allLocal() ? 1 : 0);
        insertOrder.executeUpdate();
        insertNewOrder.setInt(1, w);
        insertNewOrder.setInt(2, d);
        insertNewOrder.setInt(3, orderId);
        insertNewOrder.executeUpdate();

        // Stock rows are locked in (warehouse, item) order so that two new orders sharing items
        // wait for each other instead of deadlocking.
        List<OrderLine> lines = new ArrayList<>(in.lines());
        lines.sort(Comparator.comparingInt(OrderLine::supplyWarehouse).thenComparingInt(OrderLine::itemId));
        int number = 0;
        for (OrderLine line : lines) {
            number++;
            BigDecimal price = price(line.itemId());
            PreparedStatement stockRead = stock[d];
            stockRead.setInt(1, line.supplyWarehouse());
            stockRead.setInt(2, line.itemId());
            int quantity;
            String distInfo;
            try (ResultSet rs = stockRead.executeQuery()) {
                expectRow(rs, "stock");
                quantity = rs.getInt(1);
                distInfo = rs.getString(3);
            }
            int ordered = line.quantity();
            quantity = quantity >= ordered + 10 ? quantity - ordered : quantity - ordered + 91;
            updateStock.setInt(1, quantity);
            updateStock.setInt(2, ordered);
            updateStock.setInt(3, line.supplyWarehouse() == w ? 0 : 1);
            updateStock.setInt(4, line.supplyWarehouse());
            updateStock.setInt(5, line.itemId());
            updateStock.executeUpdate();

            insertLine.setInt(1, w);
            insertLine.setInt(2, d);
            insertLine.setInt(3, orderId);
            insertLine.setInt(4, number);
            insertLine.setInt(5, line.itemId());
            insertLine.setInt(6, line.supplyWarehouse());
            insertLine.setInt(7, ordered);
            insertLine.setBigDecimal(8, price.multiply(BigDecimal.valueOf(ordered)));
            insertLine.setString(9, distInfo);
            insertLine.executeUpdate();
        }
    }

    private BigDecimal price(int itemId) throws SQLException, ItemNotFoundException {
        item.setInt(1, itemId);
        try (ResultSet rs = item.executeQuery()) {
            if (!rs.next()) {
                throw new ItemNotFoundException(itemId);
            }
            return rs.getBigDecimal(1);
        }
    }

    /** A row the database must have is missing: reported as SQLSTATE 02000 so it is counted like any error. */
    static void expectRow(ResultSet rs, String what) throws SQLException {
        if (!rs.next()) {
            throw new SQLException(what + " row not found", "02000");
        }
    }
}
