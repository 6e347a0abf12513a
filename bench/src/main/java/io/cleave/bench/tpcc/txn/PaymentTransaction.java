package io.cleave.bench.tpcc.txn;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Clause 2.5.2. With a remote customer the customer statements name the customer's warehouse;
 * everything else, the history row included, names the home warehouse.
 */
final class PaymentTransaction {
    private static final int MAX_C_DATA = 500;

    private final PreparedStatement updateWarehouse;
    private final PreparedStatement warehouse;
    private final PreparedStatement updateDistrict;
    private final PreparedStatement district;
    private final PreparedStatement customerByName;
    private final PreparedStatement customer;
    private final PreparedStatement customerData;
    private final PreparedStatement updateCustomer;
    private final PreparedStatement updateBadCreditCustomer;
    private final PreparedStatement insertHistory;

    PaymentTransaction(Connection c) throws SQLException {
        updateWarehouse = c.prepareStatement("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?");
        warehouse = c.prepareStatement(
            "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?");
        updateDistrict = c.prepareStatement("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?");
        district = c.prepareStatement("SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district"
            + " WHERE d_w_id = ? AND d_id = ?");
        customerByName = c.prepareStatement(CustomerByName.SQL);
        customer = c.prepareStatement("SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,"
            + " c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE");
        customerData = c.prepareStatement("SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        updateCustomer = c.prepareStatement("UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        updateBadCreditCustomer = c.prepareStatement("UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ?"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?");
        insertHistory = c.prepareStatement("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id,"
            + " h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    }

    void execute(TransactionInput.Payment in) throws SQLException {
        int w = in.warehouse();
        int d = in.district();
        BigDecimal amount = in.amount();

        updateWarehouse.setBigDecimal(1, amount);
        updateWarehouse.setInt(2, w);
        updateWarehouse.executeUpdate();
        String warehouseName;
        warehouse.setInt(1, w);
        try (ResultSet rs = warehouse.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "warehouse");
            warehouseName = rs.getString(1);
        }
        updateDistrict.setBigDecimal(1, amount);
        updateDistrict.setInt(2, w);
        updateDistrict.setInt(3, d);
        updateDistrict.executeUpdate();
        String districtName;
        district.setInt(1, w);
        district.setInt(2, d);
        try (ResultSet rs = district.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "district");
            districtName = rs.getString(1);
        }

        int cw = in.customerWarehouse();
        int cd = in.customerDistrict();
        int c = in.customer().isByLastName()
            ? CustomerByName.find(customerByName, cw, cd, in.customer().lastName())
            : in.customer().id();
        String credit;
        customer.setInt(1, cw);
        customer.setInt(2, cd);
        customer.setInt(3, c);
        try (ResultSet rs = customer.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "customer");
            credit = rs.getString(11);
        }
        if ("BC".equals(credit)) {
            updateBadCredit(in, c, amount);
        } else {
            updateCustomer.setBigDecimal(1, amount);
            updateCustomer.setBigDecimal(2, amount);
            updateCustomer.setInt(3, cw);
            updateCustomer.setInt(4, cd);
            updateCustomer.setInt(5, c);
            updateCustomer.executeUpdate();
        }

        insertHistory.setInt(1, c);
        insertHistory.setInt(2, cd);
        insertHistory.setInt(3, cw);
        insertHistory.setInt(4, d);
        insertHistory.setInt(5, w);
        insertHistory.setTimestamp(6, new Timestamp(System.currentTimeMillis()));
        insertHistory.setBigDecimal(7, amount);
        insertHistory.setString(8, warehouseName + "    " + districtName);
        insertHistory.executeUpdate();
    }

    /** Bad credit: the payment's particulars are prepended to C_DATA, which keeps 500 characters. */
    private void updateBadCredit(TransactionInput.Payment in, int c, BigDecimal amount) throws SQLException {
        int cw = in.customerWarehouse();
        int cd = in.customerDistrict();
        customerData.setInt(1, cw);
        customerData.setInt(2, cd);
        customerData.setInt(3, c);
        String data;
        try (ResultSet rs = customerData.executeQuery()) {
            NewOrderTransaction.expectRow(rs, "customer");
            data = rs.getString(1);
        }
        String updated = c + " " + cd + " " + cw + " " + in.district() + " " + in.warehouse() + " " + amount
            + " | " + data;
        if (updated.length() > MAX_C_DATA) {
            updated = updated.substring(0, MAX_C_DATA);
        }
        updateBadCreditCustomer.setBigDecimal(1, amount);
        updateBadCreditCustomer.setBigDecimal(2, amount);
        updateBadCreditCustomer.setString(3, updated);
        updateBadCreditCustomer.setInt(4, cw);
        updateBadCreditCustomer.setInt(5, cd);
        updateBadCreditCustomer.setInt(6, c);
        updateBadCreditCustomer.executeUpdate();
    }
}
