package io.cleave.bench.tpcc.txn;

import io.cleave.bench.tpcc.TpccScale;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Clause 2.7.4: delivers the oldest undelivered order of each district of the warehouse, in one
 * database transaction (run inline rather than through a deferred queue, as most drivers do).
 */
final class DeliveryTransaction {
    private final PreparedStatement oldestNewOrder;
    private final PreparedStatement deleteNewOrder;
    private final PreparedStatement orderCustomer;
    private final PreparedStatement updateOrder;
    private final PreparedStatement updateLines;
    private final PreparedStatement sumLines;
    private final PreparedStatement updateCustomer;

    DeliveryTransaction(Connection c) throws SQLException {
        oldestNewOrder = c.prepareStatement("SELECT no_o_id FROM new_orders WHERE no_w_id = ? AND no_d_id = ?"
            + " ORDER BY no_o_id LIMIT 1 FOR UPDATE");
        deleteNewOrder = c.prepareStatement(
            "DELETE FROM new_orders WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?");
        orderCustomer = c.prepareStatement(
            "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? FOR UPDATE");
        updateOrder = c.prepareStatement(
            "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?");
        updateLines = c.prepareStatement(
            "UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?");
        sumLines = c.prepareStatement(
            "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?");
        updateCustomer = c.prepareStatement("UPDATE customer SET c_balance = c_balance + ?,"
            + " c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
    }

    /** Returns the number of districts that had an order to deliver. */
    int execute(TransactionInput.Delivery in) throws SQLException {
        int w = in.warehouse();
        Timestamp now = new Timestamp(System.currentTimeMillis());
        int delivered = 0;
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            oldestNewOrder.setInt(1, w);
            oldestNewOrder.setInt(2, d);
            int orderId;
            try (ResultSet rs = oldestNewOrder.executeQuery()) {
                if (!rs.next()) {
                    continue;
                }
                orderId = rs.getInt(1);
            }
            deleteNewOrder.setInt(1, w);
            deleteNewOrder.setInt(2, d);
            deleteNewOrder.setInt(3, orderId);
            // Another delivery of the same district got there first: nothing left to do here.
            if (deleteNewOrder.executeUpdate() == 0) {
                continue;
            }
            orderCustomer.setInt(1, w);
            orderCustomer.setInt(2, d);
            orderCustomer.setInt(3, orderId);
            int customer;
            try (ResultSet rs = orderCustomer.executeQuery()) {
                NewOrderTransaction.expectRow(rs, "orders");
                customer = rs.getInt(1);
            }
            updateOrder.setInt(1, in.carrier());
            updateOrder.setInt(2, w);
            updateOrder.setInt(3, d);
            updateOrder.setInt(4, orderId);
            updateOrder.executeUpdate();
            updateLines.setTimestamp(1, now);
            updateLines.setInt(2, w);
            updateLines.setInt(3, d);
            updateLines.setInt(4, orderId);
            updateLines.executeUpdate();
            sumLines.setInt(1, w);
            sumLines.setInt(2, d);
            sumLines.setInt(3, orderId);
            BigDecimal total;
            try (ResultSet rs = sumLines.executeQuery()) {
                NewOrderTransaction.expectRow(rs, "order_line sum");
                total = rs.getBigDecimal(1);
            }
            updateCustomer.setBigDecimal(1, total == null ? BigDecimal.ZERO : total);
            updateCustomer.setInt(2, w);
            updateCustomer.setInt(3, d);
            updateCustomer.setInt(4, customer);
            updateCustomer.executeUpdate();
            delivered++;
        }
        return delivered;
    }
}
