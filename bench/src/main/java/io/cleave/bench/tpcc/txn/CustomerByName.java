package io.cleave.bench.tpcc.txn;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Picks the customer at position ceil(n/2) of those with a last name, sorted by C_FIRST. */
final class CustomerByName {
    static final String SQL =
        "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first";

    private CustomerByName() {
    }

    static int find(PreparedStatement byName, int w, int d, String lastName) throws SQLException {
        byName.setInt(1, w);
        byName.setInt(2, d);
        byName.setString(3, lastName);
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = byName.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw new SQLException(
                "no customer named " + lastName + " in warehouse " + w + " district " + d, "02000");
        }
        return ids.get((ids.size() + 1) / 2 - 1);
    }
}
