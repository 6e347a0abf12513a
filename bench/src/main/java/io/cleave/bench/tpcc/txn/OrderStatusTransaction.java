package io.cleave.bench.tpcc.txn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Clause 2.6.2: read-only, the customer's balance and their most recent order with its lines. */
final class OrderStatusTransaction {
    private final PreparedStatement customerByName;
    private final PreparedStatement customer;
    private final PreparedStatement lastOrder;
    private final PreparedStatement lines;

    OrderStatusTransaction(Connection c) throws SQLException {
        customerByName = c.prepareStatement(CustomerByName.SQL);
        customer = c.prepareStatement("SELECT c_balance, c_first, c_middle, c_last FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        lastOrder = c.prepareStatement("SELECT o_id, o_carrier_id, o_entry_d FROM orders"
            + " WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1");
        lines = c.prepareStatement("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
            + " FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?");
    }

    void execute(TransactionInput.OrderStatus in) throws SQLException {
        int w = in.warehouse();
        int d = in.district();
        int c = in.customer().isByLastName()
            ? CustomerByName.find(customerByName, w, d, in.customer().lastName())
            : in.customer().id();
        customer.setInt(1, w);
        customer.setInt(2, d);
        customer.setInt(3, c);
        try (ResultSet rs = customer.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "customer");
        }
        lastOrder.setInt(1, w);
        lastOrder.setInt(2, d);
        lastOrder.setInt(3, c);
        int orderId;
        try (ResultSet rs = lastOrder.executeQuery()) {
            // A customer may have no order yet (O_C_ID is a permutation, but only of loaded orders).
            if (!rs.next()) {
                return;
            }
            orderId = rs.getInt(1);
        }
        lines.setInt(1, w);
        lines.setInt(2, d);
        lines.setInt(3, orderId);
        try (ResultSet rs = lines.executeQuery()) {
            while (rs.next()) {
                rs.getInt(1);
            }
        }
    }
}
