package io.cleave.bench.tpcc.txn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Clause 2.8.2: distinct items of the district's last 20 orders whose stock is under a threshold.
 * The join names the warehouse of both sides as parameters so a proxy can route it to one shard.
 */
final class StockLevelTransaction {
    private final PreparedStatement nextOrderId;
    private final PreparedStatement lowStock;

    StockLevelTransaction(Connection c) throws SQLException {
        nextOrderId = c.prepareStatement("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?");
        lowStock = c.prepareStatement("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ?"
            + " AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?");
    }

    int execute(TransactionInput.StockLevel in) throws SQLException {
        int w = in.warehouse();
        nextOrderId.setInt(1, w);
        nextOrderId.setInt(2, in.district());
        int next;
        try (ResultSet rs = nextOrderId.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "district");
            next = rs.getInt(1);
        }
        lowStock.setInt(1, w);
        lowStock.setInt(2, in.district());
        lowStock.setInt(3, next);
        lowStock.setInt(4, next - 20);
        lowStock.setInt(5, w);
        lowStock.setInt(6, in.threshold());
        try (ResultSet rs = lowStock.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "stock count");
            return rs.getInt(1);
        }
    }
}
